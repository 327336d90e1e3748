/** Context levels L0–L3 (docs/specification.md), measured against the auto-compact threshold. */

export const LEVELS = ['L0', 'L1', 'L2', 'L3'] as const;
export type Level = (typeof LEVELS)[number];

/** Percent of the auto-compact threshold at which each level starts. */
export type LevelThresholds = { L1: number; L2: number; L3: number };
export const DEFAULT_LEVEL_THRESHOLDS: LevelThresholds = { L1: 70, L2: 85, L3: 95 };

export const LEVEL_NAMES: Record<Level, string> = {
  L0: 'normal',
  L1: 'warning',
  L2: 'critical',
  L3: 'emergency',
};

export function getLevel(percent: number, thresholds = DEFAULT_LEVEL_THRESHOLDS): Level {
  if (percent >= thresholds.L3) return 'L3';
  if (percent >= thresholds.L2) return 'L2';
  if (percent >= thresholds.L1) return 'L1';
  return 'L0';
}

/** Rounded to one decimal so JSON output stays readable and stable. */
export function toPercent(tokens: number, of: number): number {
  if (of <= 0) return 0;
  return Math.round((tokens / of) * 1000) / 10;
}
