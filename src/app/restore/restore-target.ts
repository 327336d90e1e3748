/**
 * The agent a restore goes into, as a value for the one restore renderer
 * (core/resume/restore-target.ts): read from the plain fields of its adapter's contract.
 * @module
 */
import type { AgentAdapter } from '../../agents/agent.ts';
import { HOOK_TEXT_LIMIT } from '../../agents/claude/hook-output.ts';
import { CLAUDE_INSTRUCTION_FILES } from '../../agents/claude/instructions.ts';
import { TASK_TOOL_NAMES } from '../../agents/claude/task-tools.ts';
import { agentName, type AgentId } from '../../core/agent-id.ts';
import type { RestoreTarget } from '../../core/resume/restore-target.ts';
import { loadAgentAdapter } from '../session/load-agent.ts';

/** The parts of an adapter a restore needs. */
export type RestoreTargetSource = Pick<AgentAdapter, 'id' | 'name'> & {
  hooks: Pick<AgentAdapter['hooks'], 'textLimit'>;
  capabilities: Pick<AgentAdapter['capabilities'], 'taskTools'>;
  instructions: AgentAdapter['instructions'];
};

export function restoreTargetOf(agent: RestoreTargetSource): RestoreTarget {
  return {
    id: agent.id,
    name: agent.name,
    textLimit: agent.hooks.textLimit,
    taskTools: agent.capabilities.taskTools,
    instructionFiles: agent.instructions.names,
  };
}

/**
 * Claude Code's parts as its hooks carry them: its adapter (installer, settings) is in no hook
 * bundle, so the hooks that run inside Claude Code read these directly (app/session/load-agent.ts
 * does the same for its compaction rule).
 */
const CLAUDE_PARTS: RestoreTargetSource = {
  id: 'claude',
  name: agentName('claude'),
  hooks: { textLimit: HOOK_TEXT_LIMIT },
  capabilities: { taskTools: TASK_TOOL_NAMES },
  instructions: { names: CLAUDE_INSTRUCTION_FILES },
};

/** The agent's restore target: another agent's from its adapter (its own bundle in a hook). */
export async function loadRestoreTarget(id: AgentId): Promise<RestoreTarget> {
  return restoreTargetOf(id === CLAUDE_PARTS.id ? CLAUDE_PARTS : await loadAgentAdapter(id));
}
