/**
 * Every restore's text, through the one renderer (core/resume/resume-prompt.ts): the hooks' restores
 * (session start, after a compaction, before Gemini compresses, the relay, a usage-limit handoff),
 * `shim resume --print --for`, the loop's switch of agent, `shim show`, the dashboard and the MCP
 * tool. The agent it goes into comes as a value (restore-target.ts); the checkpoint from whatever
 * agent and store the work came from.
 * @module
 */
import type { AgentId } from '../../core/agent-id.ts';
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import type { ResumeDetection } from '../../core/resume/resume.ts';
import { renderRestore, type RestoreRequest } from '../../core/resume/resume-prompt.ts';
import type { RestoreTarget } from '../../core/resume/restore-target.ts';
import { loadRestoreTarget } from './restore-target.ts';

export type RestoreOptions = Pick<RestoreRequest, 'compactSummary' | 'afterClear' | 'maxChars'>;

/** The restore of `checkpoint` for `target` (an agent, or its restore target already loaded). */
export async function renderRestoreFor(
  checkpoint: Checkpoint,
  detection: ResumeDetection | null,
  target: AgentId | RestoreTarget,
  options: RestoreOptions = {},
): Promise<string> {
  return renderRestore({
    checkpoint,
    detection,
    target: typeof target === 'string' ? await loadRestoreTarget(target) : target,
    ...options,
  });
}
