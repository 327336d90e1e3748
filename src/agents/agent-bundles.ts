/**
 * The agents as a per-call bundle reaches them: the ones it carries, and any other from that
 * agent's own bundle (dist/agent-<id>.cjs, built from src/entries/agent-<id>.ts), loaded the first
 * time a call meets it. The CLI's way is agents/dispatch.ts.
 * @module
 */
import { AGENT_IDS, type AgentId } from '../core/agent-id.ts';
import type { Agent, Agents } from './agent.ts';

/** What an agent's bundle exports (src/entries/agent-<id>.ts). */
export type AgentBundle = { agent: Agent };

/**
 * The agents a per-call bundle carries, and the others from their own bundles (`requireBundle`
 * loads `dist/<name>` beside the caller). A bundle holds no installer, doctor or headless run:
 * asking for a whole adapter there is a fault of the caller.
 */
export function bundledAgents(
  carried: readonly Agent[],
  requireBundle: (name: string) => unknown,
): Agents {
  const known = new Map<AgentId, Agent>(carried.map((a) => [a.id, a]));
  return {
    ids: AGENT_IDS,
    agent: async (id) => {
      let agent = known.get(id);
      if (!agent) {
        agent = (requireBundle(`agent-${id}.cjs`) as AgentBundle).agent;
        known.set(id, agent);
      }
      return agent;
    },
    adapter: async (id) => {
      throw new Error(`the ${id} adapter's commands are not in a per-call bundle (use the CLI)`);
    },
  };
}
