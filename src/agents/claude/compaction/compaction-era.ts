/**
 * How each Claude Code era decides where to auto-compact (docs/claude-code.md, "Context window
 * and the auto-compact threshold"). Older eras stay: the user's history holds their transcripts,
 * and a replay of an old session must judge it by the rules it ran under.
 * @module
 */
import { compareVersions, parseVersion } from '../../../core/version.ts';

export type CompactionEra = {
  /** Short name shown in details and stats, e.g. "2.1.43+". */
  name: string;
  /** First CLI version of the era. */
  from: string;
  /**
   * 'buffer': threshold = window − buffer, a PCT override is taken of the window.
   * 'reserve': threshold = (window − output reserve) − 13k, a PCT override of the effective
   * window; the `autoCompactWindow` setting, the warning and block points are known.
   */
  rule: 'buffer' | 'reserve';
  /** 'buffer' eras: tokens kept free at the end of the window. */
  buffer: number;
};

/** Tokens below the effective window where a 'reserve' era compacts. */
export const RESERVE_ERA_BUFFER = 13_000;
/** The output reserve's ceiling: min(model max output, 20k). */
export const MAX_OUTPUT_RESERVE = 20_000;
/** Claude Code's own warning starts this far below the threshold. */
export const NATIVE_WARNING_MARGIN = 20_000;
/** The hard block ("prompt too long" guard) sits this far below window − reserve. */
export const BLOCKING_MARGIN = 3_000;
/** A background summary is prepared from this share of the effective window on. */
export const BACKGROUND_SUMMARY_SHARE = 0.8;

/**
 * Up to 2.1.20 compaction fired at window − 45k and from 2.1.21 at window − 33k (measured on
 * real transcripts up to 2.1.42). 2.1.330 computes it from the output reserve; for every model
 * whose max output is at least 20k both give window − 33k, so the switch is dated at the first
 * version after the measured ones.
 */
export const COMPACTION_ERAS: readonly CompactionEra[] = [
  { name: '≤2.1.20', from: '0.0.0', rule: 'buffer', buffer: 45_000 },
  { name: '2.1.21–2.1.42', from: '2.1.21', rule: 'buffer', buffer: 33_000 },
  { name: '2.1.43+', from: '2.1.43', rule: 'reserve', buffer: 33_000 },
];

/** The era a CLI version belongs to; an unknown or unparseable version gets the newest. */
export function getCompactionEra(cliVersion: string | null): CompactionEra {
  const newest = COMPACTION_ERAS[COMPACTION_ERAS.length - 1]!;
  if (!parseVersion(cliVersion)) return newest;
  let era = COMPACTION_ERAS[0]!;
  for (const candidate of COMPACTION_ERAS)
    if (compareVersions(cliVersion, candidate.from) >= 0) era = candidate;
  return era;
}
