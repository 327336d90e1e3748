/**
 * Where to fork a session that went over the context limit ("Prompt is too long"): the last
 * point of its main chain that still fits and leaves the conversation whole — after a tool's
 * result, or after an answer that ended its turn (never between a tool call and its result) —
 * before the first refusal. Pure.
 * @module
 */

export type ChainEntry = {
  uuid: string;
  kind: 'prompt' | 'tool_result' | 'answer' | 'tool_call' | 'refused' | 'error';
  /** The context of the newest response at this entry (0 before the first). */
  contextTokens: number;
};

export type RescuePoint = { uuid: string; contextTokens: number; entriesDropped: number };

const WHOLE: ReadonlySet<ChainEntry['kind']> = new Set(['tool_result', 'answer']);

export function findRescuePoint(entries: readonly ChainEntry[], limit: number): RescuePoint | null {
  const refusedAt = entries.findIndex((e) => e.kind === 'refused');
  const before = refusedAt === -1 ? entries : entries.slice(0, refusedAt);
  for (let i = before.length - 1; i >= 0; i--) {
    const entry = before[i]!;
    if (WHOLE.has(entry.kind) && entry.contextTokens <= limit) {
      return {
        uuid: entry.uuid,
        contextTokens: entry.contextTokens,
        entriesDropped: entries.length - i - 1,
      };
    }
  }
  return null;
}
