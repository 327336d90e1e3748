/**
 * A response seen live (a mod's `turn.step` usage) before the transcript shows it. Folded into a
 * copy of the session state as its newest response, so levels, the forecast and alerts move the
 * moment Claude Code has the usage; the transcript stays the source of everything else, and a
 * response the transcript already holds is never counted twice. Pure.
 * @module
 */
import { getLiveResponses, type SessionState } from '../session.ts';

export type ObservedUsage = {
  input_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
  output_tokens?: number;
  model?: string;
};

export type ObservedResponse = {
  /** Claude Code's turn id and the step's index within the turn: one response each. */
  turnId: string;
  step: number;
  usage: ObservedUsage;
  /** Epoch ms the mod saw it. */
  at: number;
};

const count = (n: number | undefined) =>
  typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0;

/** input + cache_read + cache_creation: what the request carried, as Claude Code counts it. */
export function getObservedContext(usage: ObservedUsage): number {
  return (
    count(usage.input_tokens) +
    count(usage.cache_read_input_tokens) +
    count(usage.cache_creation_input_tokens)
  );
}

/**
 * The state with the observed responses the transcript does not show yet appended, oldest
 * first. A response is the same one when its context count is: the mod and the transcript carry
 * the same usage of the same API response, while the times differ (the transcript stamps a
 * response when it starts streaming, the mod when it ends). Observations from before the newest
 * compaction, or without usage, are ignored.
 *
 * The transcript may run ahead of the observations as well as behind them (the mod's reports
 * queue up on a loaded machine), so an observation the transcript no longer lists among its
 * kept responses is not taken for a new one: observations come in the order the responses were
 * made, and only those after the newest one the transcript holds, and seen after its newest
 * response started, can be newer than the transcript.
 */
export function withObservedResponses(
  state: SessionState,
  observed: readonly ObservedResponse[],
): SessionState {
  const responses = getLiveResponses(state);
  const known = new Set(responses.map((r) => r.contextTokens));
  const compactedAt = state.compactions.at(-1)?.at ?? 0;
  const startedAt = responses.at(-1)?.at ?? 0;
  const usable = observed.filter((o) => getObservedContext(o.usage) > 0 && o.at > compactedAt);
  const newestHeld = usable.findLastIndex((o) => known.has(getObservedContext(o.usage)));
  const fresh = usable
    .slice(newestHeld + 1)
    .filter((o) => o.at > startedAt && !known.has(getObservedContext(o.usage)));
  if (fresh.length === 0) return state;
  const live = [...responses];
  let turn = state.turns;
  for (const o of fresh) {
    turn++;
    live.push({
      turn,
      firstLine: 0,
      lastLine: 0,
      contextTokens: getObservedContext(o.usage),
      outputTokens: count(o.usage.output_tokens),
      at: o.at,
      model: o.usage.model ?? state.model ?? 'unknown',
      latencyMs: null,
    });
  }
  return {
    ...state,
    responses: live,
    lastResponse: live.at(-1)!,
    current: null,
    turns: turn,
    // What was appended after the transcript's newest response is inside the observed usage.
    appendedChars: 0,
    postCompactTokens: null,
    model: fresh.at(-1)!.usage.model ?? state.model,
  };
}
