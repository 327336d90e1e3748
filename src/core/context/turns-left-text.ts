/**
 * How the forecast reads everywhere ("~4–9", "~6", "40+"): a range where growth comes in jumps,
 * one number where it is steady.
 * @module
 */
import type { Forecast } from './forecast.ts';

type TurnsLeft = Pick<Forecast, 'turnsToCompact' | 'turnsToCompactLow' | 'turnsToCompactHigh'>;

/** "~4–9", "~6" or "40+"; null when there is no forecast. */
export function formatTurnsLeft(forecast: TurnsLeft): string | null {
  const { turnsToCompact: mid, turnsToCompactLow: low, turnsToCompactHigh: high } = forecast;
  if (mid === null) return null;
  if (low === null) return `~${mid}`;
  if (high === null) return `${low}+`;
  return low === high ? `~${mid}` : `~${low}–${high}`;
}

/** "response" or "responses" for the range's upper end. */
export function pluralFor(forecast: TurnsLeft, word: string): string {
  const upper = forecast.turnsToCompactHigh ?? forecast.turnsToCompact;
  return upper === 1 ? word : `${word}s`;
}
