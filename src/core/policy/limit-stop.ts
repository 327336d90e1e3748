/**
 * A turn that ended on a usage or rate limit: the line shim puts at the top of the handoff it
 * writes then, and reads back when the next session picks the handoff up (with the reset, when
 * Claude Code's message named one: "You've hit your limit · resets 3pm (Europe/Berlin)").
 * Pure.
 * @module
 */
import { parseLimitReset } from '../loop/usage-limit.ts';
import { oneLine } from '../resume/sections/text.ts';
import { truncate } from '../truncate.ts';

/** The first line of a usage-limit handoff starts with this. */
export const LIMIT_STOP_PREFIX = '> Stopped at a usage limit';

export type LimitStop = {
  /** Claude Code's words for the reset ("resets 3pm (Europe/Berlin)"), if it gave any. */
  resetText: string | null;
  /** Epoch ms of the reset, when the words could be read as a time. */
  resetsAt: number | null;
  message: string;
};

const RESET_WORDS = /\b(resets?\s+(?:at\s+)?[^·\n|]{1,60}|try again (?:in|at)\s+[^·\n|.]{1,40})/i;

export function readLimitStop(text: string, now: number): LimitStop {
  const words =
    RESET_WORDS.exec(text)?.[1]
      ?.trim()
      .replace(/[.\s]+$/, '') ?? null;
  return {
    resetText: words,
    resetsAt: parseLimitReset(text, now),
    message: truncate(oneLine(text), 200),
  };
}

/** One line naming the limit and its reset, for the handoff's top and the restore. */
export function describeLimitStop(stop: LimitStop): string {
  const reset = stop.resetText
    ? `Claude Code said it ${stop.resetText}${stop.resetsAt !== null ? ` (${new Date(stop.resetsAt).toISOString()})` : ''}`
    : stop.resetsAt !== null
      ? `it resets at ${new Date(stop.resetsAt).toISOString()}`
      : 'Claude Code did not say when it resets';
  return `${LIMIT_STOP_PREFIX} ("${stop.message}"); ${reset}.`;
}

/** The limit line at the top of a handoff document, or null when it has none. */
export function findLimitLine(document: string): string | null {
  const first = document.split('\n', 1)[0] ?? '';
  return first.startsWith(LIMIT_STOP_PREFIX) ? first.slice(2) : null;
}
