/**
 * The tools an agent sets its task list with, for a restore to name (AgentCapabilities.taskTools).
 * Claude Code's come from its own folder, so its hooks never load another adapter.
 * @module
 */
import { TASK_TOOL_NAMES } from '../../agents/claude/task-tools.ts';
import { DEFAULT_AGENT, type AgentId } from '../../core/agent-id.ts';
import { loadAgentAdapter } from './load-agent.ts';

export async function agentTaskTools(id: AgentId = DEFAULT_AGENT): Promise<readonly string[]> {
  if (id === 'claude') return TASK_TOOL_NAMES;
  return (await loadAgentAdapter(id)).capabilities.taskTools;
}
