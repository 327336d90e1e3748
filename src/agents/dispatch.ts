/**
 * Which adapter serves an agent: the one exhaustive switch over AgentId. Adapters load on demand,
 * so a command about one agent never loads another's code (and the per-call hook bundles, which
 * import their agent's parts directly, never come through here).
 * @module
 */
import { agentName, unknownAgent, type AgentId } from '../core/agent-id.ts';
import { AppError } from '../core/errors.ts';
import type { AgentAdapter } from './agent.ts';

function notReady(id: AgentId): never {
  throw new AppError(
    'USAGE',
    `this build of shim has no ${agentName(id)} adapter yet`,
    'update shim, or use --agent claude',
  );
}

export async function loadAdapter(id: AgentId): Promise<AgentAdapter> {
  switch (id) {
    case 'claude':
      return (await import('./claude/adapter.ts')).claudeAdapter;
    case 'codex':
      return notReady(id);
    case 'gemini':
      return notReady(id);
    default:
      return unknownAgent(id);
  }
}
