/**
 * Which agent a loop carries on in when the running one hits its usage limit (`shim loop
 * --fallback-agent`). Pure: the run's agents, when each one's limit lifts, the clock.
 * @module
 */
import type { AgentId } from '../agent-id.ts';

/** A limit that said nothing of its reset is taken to last this long before that agent is tried again. */
export const UNKNOWN_RESET_MS = 15 * 60_000;

export type FallbackInput = {
  /** The agent that just hit its limit. */
  current: AgentId;
  /** The run's agents: the one it started with, then its fallback (null: none). */
  agent: AgentId;
  fallbackAgent: AgentId | null;
  /** When each agent's last limit lifts (epoch ms), this one's included. */
  limitedUntil: Partial<Record<AgentId, number>>;
  now: number;
};

/**
 * The other agent of the run when it is not itself still at a limit, else null (the loop then
 * waits for the earliest reset, as it does without a fallback).
 */
export function pickFallbackAgent(input: FallbackInput): AgentId | null {
  if (input.fallbackAgent === null) return null;
  const other = input.current === input.agent ? input.fallbackAgent : input.agent;
  if (other === input.current) return null;
  const until = input.limitedUntil[other];
  return until === undefined || until <= input.now ? other : null;
}

/** When the limit an agent just hit lifts: the reset it reported, else a guess. */
export function limitLiftsAt(resetsAt: number | null, now: number): number {
  return resetsAt !== null && resetsAt > now ? resetsAt : now + UNKNOWN_RESET_MS;
}
