/**
 * What shim says at each level, to the user (a notice) and to the model (context). Advisory
 * and factual: it informs without overriding what the user asked (peers' imperative warnings
 * hijacked the agent; a peer's instruction-style alerts were reported doing exactly that).
 * @module
 */
import type { Assessment } from './assess.ts';
import type { Level } from './level.ts';
import { formatTurnsLeft, pluralFor } from './turns-left-text.ts';

function forecastText(a: Assessment): string {
  const turns = a.forecast.turnsToCompact;
  if (turns === null) return '';
  if (turns === 0) return ' Auto-compaction is due now.';
  const range = formatTurnsLeft(a.forecast)!.replace(/^~/, '');
  return ` About ${range} more ${pluralFor(a.forecast, 'response')} fit before auto-compaction.`;
}

/** How the user holds the L1/L2 notices back while they finish a task (core/policy/deferral.ts). */
export const DEFER_HINT = 'To finish one more task first: `shim defer`.';

/** The one-line notice shown to the user when a level is first reached. */
export function getUserAlert(level: Level, a: Assessment, checkpointNote: string): string {
  const pct = Math.round(a.percent);
  // An empty note must not leave a double space behind.
  const note = checkpointNote.trim() ? ` ${checkpointNote.trim()}` : '';
  switch (level) {
    case 'L1':
      return `⚠️ shim: context at ${pct}% of the auto-compact threshold (L1).${forecastText(a)}${note} ${DEFER_HINT}`;
    case 'L2':
      return `🔶 shim: context at ${pct}% of the auto-compact threshold (L2).${note} A handoff can be written with \`shim handoff\`. ${DEFER_HINT}`;
    case 'L3':
      return `🔴 shim: context at ${pct}% of the auto-compact threshold (L3).${forecastText(a)}${note} The work will be restored after compaction.`;
    case 'L0':
      return '';
    default:
      return level satisfies never;
  }
}

/** Context for the model: facts and a suggestion, never an order. */
export function getModelGuidance(level: Level, a: Assessment): string | null {
  const pct = Math.round(a.percent);
  const facts = `[shim] Context is at ${pct}% of the auto-compact threshold (${a.level}).${forecastText(a)}`;
  switch (level) {
    case 'L1':
      return `${facts} Consider finishing the current step before starting large new reads; keep the task list up to date so progress survives compaction.`;
    case 'L2':
      return `${facts} shim has saved a checkpoint. Prefer small, targeted reads and finish the current task; the user's request still comes first.`;
    case 'L3':
      return `${facts} shim has saved a checkpoint and will restore the task list and requests after compaction. Wrap up the current edit cleanly.`;
    case 'L0':
      return null;
    default:
      return level satisfies never;
  }
}

/**
 * At or past the threshold Claude Code compacts before the model's next request: a note for the
 * model would arrive after the compaction, stale. The restore that follows says it all.
 */
export function isCompactionDue(assessment: { percent: number; autoCompact: boolean }): boolean {
  return assessment.autoCompact && assessment.percent >= 100;
}
