/**
 * Which code serves an agent id: the one exhaustive switch over AgentId, and the `Agents` the
 * entries hand in (agents/agent.ts). Only the entries (src/entries/) choose among these; the rest
 * of shim takes the agent, or the `Agents`, it is given.
 *
 * The CLI imports an adapter's modules on demand (a command about one agent loads no other's
 * code); the per-call bundles reach agents through agent-bundles.ts instead, which needs no switch
 * (an agent's bundle is named by its id) and keeps every adapter's modules out of them.
 * @module
 */
import { AGENT_IDS, unknownAgent, type AgentId } from '../core/agent-id.ts';
import type { AgentAdapter, Agents } from './agent.ts';

/** The whole adapter of `id`, from its modules. */
export async function importAdapter(id: AgentId): Promise<AgentAdapter> {
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

/** Every agent from its modules, loaded when first asked for: the CLI's. */
export function moduleAgents(): Agents {
  return { ids: AGENT_IDS, agent: importAdapter, adapter: importAdapter };
}
