/**
 * Which adapter serves an agent: the one exhaustive switch over AgentId. Adapters load on demand,
 * so a command about one agent never loads another's code (and the per-call hook bundles, which
 * import their agent's parts directly, never come through here).
 * @module
 */
import { unknownAgent, type AgentId } from '../core/agent-id.ts';
import type { AgentAdapter } from './agent.ts';

export async function loadAdapter(id: AgentId): Promise<AgentAdapter> {
  switch (id) {
    case 'claude':
      return (await import('./claude/adapter.ts')).claudeAdapter;
    case 'codex':
      return (await import('./codex/adapter.ts')).codexAdapter;
    case 'gemini':
      return (await import('./gemini/adapter.ts')).geminiAdapter;
    default:
      return unknownAgent(id);
  }
}
