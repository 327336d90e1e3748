/**
 * A checkpoint's restore rendered for the agent it goes into (`shim resume --print --for`, and
 * `shim loop` carrying work over to its fallback agent): a line saying where the work came from
 * when the agents differ, and the receiving agent's own task tool named for rebuilding the list.
 * @module
 */
import { agentName, type AgentId } from '../../core/agent-id.ts';
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import type { ResumeDetection } from '../../core/resume/resume.ts';
import { renderResumePrompt, type ResumePromptOptions } from '../../core/resume/resume-prompt.ts';
import { loadAdapter } from '../../agents/dispatch.ts';

/** The line that says the work moves to another agent, or nothing. */
export function continuedInLine(target: AgentId, source: AgentId): string {
  return target === source
    ? ''
    : `> Continued in ${agentName(target)} from a ${agentName(source)} session: its requests, tasks and files are below; the tools named there are ${agentName(source)}'s.\n\n`;
}

export async function renderRestoreFor(
  checkpoint: Checkpoint,
  detection: ResumeDetection | null,
  target: AgentId,
  options: Omit<ResumePromptOptions, 'taskTools'> = {},
): Promise<string> {
  const source = checkpoint.source.agent ?? 'claude';
  return (
    continuedInLine(target, source) +
    renderResumePrompt(checkpoint, detection, {
      ...options,
      forAgent: target,
      taskTools: (await loadAdapter(target)).capabilities.taskTools,
    })
  );
}
