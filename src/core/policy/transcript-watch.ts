/**
 * Is Claude Code still writing the session's transcript? A session that inherited another
 * session's markers (or runs with prompt history off) writes none, and every tool call still
 * runs its hooks: shim would checkpoint nothing and restore nothing without saying why. Claude
 * Code appends the assistant entry holding a tool call before the call runs, so a transcript
 * that stays missing or does not grow across several finished calls has stopped — unless it
 * holds the call: the calls of one response run in parallel, and their hooks can all come before
 * any of their results is written.
 * @module
 */

export type TranscriptWatch = {
  /** Bytes seen at the last look; null while the file was missing. */
  size: number | null;
  /** Finished tool calls this watch has looked at. */
  calls: number;
  /** `calls` when the size last changed (or the watch began). */
  changedAtCall: number;
};

export type TranscriptAlarm = 'missing' | 'stalled';

/** Calls without the file before it counts as missing (the first write can lag a little). */
export const MISSING_AFTER_CALLS = 3;
/** Calls without growth before the transcript counts as stalled. */
export const STALLED_AFTER_CALLS = 6;

/**
 * One more finished tool call, with the transcript's size now (null: no file) and whether the
 * transcript holds the call (`written`: its response was written, so it is not stalled).
 */
export function watchTranscript(
  previous: TranscriptWatch | null | undefined,
  size: number | null,
  written = false,
): { watch: TranscriptWatch; alarm: TranscriptAlarm | null } {
  const calls = (previous?.calls ?? 0) + 1;
  const changed = !previous || previous.size !== size || written;
  const watch: TranscriptWatch = {
    size,
    calls,
    changedAtCall: changed ? calls : previous.changedAtCall,
  };
  const quietFor = calls - watch.changedAtCall;
  if (size === null) {
    return { watch, alarm: calls >= MISSING_AFTER_CALLS ? 'missing' : null };
  }
  return { watch, alarm: !changed && quietFor >= STALLED_AFTER_CALLS ? 'stalled' : null };
}

/** The one line the user gets (and `shim doctor` repeats). */
export function describeTranscriptAlarm(alarm: TranscriptAlarm, toolCalls: number): string {
  const what =
    alarm === 'missing'
      ? `Claude Code has written no transcript for this session after ${toolCalls} tool calls`
      : `this session's transcript stopped growing while tool calls went on`;
  return `shim: ${what}, so shim cannot checkpoint or restore it. A claude started inside another Claude Code session (or with CLAUDE_CODE_SKIP_PROMPT_HISTORY set) keeps no transcript: start it from a plain shell, or set CLAUDE_CODE_FORCE_SESSION_PERSISTENCE=1.`;
}
