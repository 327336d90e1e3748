/** A number of days to keep something for: every retention setting is checked by this one rule. */
import { AppError } from '../errors.ts';

export function checkRetentionDays(name: string, value: number): void {
  if (!Number.isFinite(value) || value < 0) {
    throw new AppError(
      'USAGE',
      `${name} must be a number of days ≥ 0, got ${String(value)}`,
      'e.g. shim gc --retention-days 30',
    );
  }
}
