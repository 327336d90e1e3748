/**
 * The agents shim watches. Everything agent-specific lives in src/agents/<id>/ behind one
 * contract (src/agents/agent.ts); the core only knows their ids and names, so a checkpoint of one
 * agent's session can say where it came from when it is restored into another's.
 * @module
 */
import { AppError } from './errors.ts';

export const AGENT_IDS = ['claude', 'codex', 'gemini'] as const;
export type AgentId = (typeof AGENT_IDS)[number];

const NAMES: Record<AgentId, string> = {
  claude: 'Claude Code',
  codex: 'Codex CLI',
  gemini: 'Gemini CLI',
};

export function isAgentId(value: unknown): value is AgentId {
  return typeof value === 'string' && (AGENT_IDS as readonly string[]).includes(value);
}

/**
 * A stored value as an agent id. Anything else is said, never guessed: stored rows name their
 * agent (those from before agents were recorded are Claude Code's by migration 10), so another
 * value was written by a shim that knows more agents than this one.
 */
export function toAgentId(value: unknown): AgentId {
  if (isAgentId(value)) return value;
  throw new AppError(
    'AGENT_UNKNOWN',
    `a stored session names the agent ${JSON.stringify(value)}, which this shim does not know (it knows ${AGENT_IDS.join(', ')})`,
    'upgrade shim to the version that wrote it',
  );
}

export function agentName(id: AgentId): string {
  return NAMES[id];
}

/** A stored agent value as a person reads it: its name, or the value itself when unknown here. */
export function agentLabel(value: string): string {
  return isAgentId(value) ? NAMES[value] : `${value} (an agent this shim does not know)`;
}

/** For exhaustive switches over AgentId: a new agent fails to compile until each is handled. */
export function unknownAgent(id: never): never {
  throw new Error(`unknown agent: ${String(id)}`);
}
