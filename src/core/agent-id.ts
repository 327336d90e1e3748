/**
 * The agents shim watches. Everything agent-specific lives in src/agents/<id>/ behind one
 * contract (src/agents/agent.ts); the core only knows their ids and names, so a checkpoint of one
 * agent's session can say where it came from when it is restored into another's.
 * @module
 */

export const AGENT_IDS = ['claude', 'codex', 'gemini'] as const;
export type AgentId = (typeof AGENT_IDS)[number];

/** Rows written before sessions recorded their agent were all Claude Code's. */
export const DEFAULT_AGENT: AgentId = 'claude';

const NAMES: Record<AgentId, string> = {
  claude: 'Claude Code',
  codex: 'Codex CLI',
  gemini: 'Gemini CLI',
};

export function isAgentId(value: unknown): value is AgentId {
  return typeof value === 'string' && (AGENT_IDS as readonly string[]).includes(value);
}

/** A stored or typed value as an agent id; anything unknown reads as the default. */
export function toAgentId(value: unknown): AgentId {
  return isAgentId(value) ? value : DEFAULT_AGENT;
}

export function agentName(id: AgentId): string {
  return NAMES[id];
}

/** For exhaustive switches over AgentId: a new agent fails to compile until each is handled. */
export function unknownAgent(id: never): never {
  throw new Error(`unknown agent: ${String(id)}`);
}
