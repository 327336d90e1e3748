/**
 * Number flags, parsed once and checked: commander hands every option over as a string, and a
 * flag like `-n abc` must be an error that says what is expected, not a silent default.
 * @module
 */
import { InvalidArgumentError } from '@commander-js/extra-typings';

export type NumberRule = { min?: number; max?: number; integer?: boolean; unit?: string };

/** An argParser for commander: `.option('-n, --limit <n>', '…', numberOption({ min: 1 }))`. */
export function numberOption(rule: NumberRule): (value: string) => number {
  return (value: string) => {
    const n = Number(value.trim());
    const what = `${rule.integer ? 'a whole number' : 'a number'}${rule.unit ? ` of ${rule.unit}` : ''}`;
    const range =
      rule.min !== undefined && rule.max !== undefined
        ? ` from ${rule.min} to ${rule.max}`
        : rule.min !== undefined
          ? ` ≥ ${rule.min}`
          : rule.max !== undefined
            ? ` ≤ ${rule.max}`
            : '';
    if (
      value.trim() === '' ||
      !Number.isFinite(n) ||
      (rule.integer && !Number.isInteger(n)) ||
      (rule.min !== undefined && n < rule.min) ||
      (rule.max !== undefined && n > rule.max)
    ) {
      throw new InvalidArgumentError(`expected ${what}${range}.`);
    }
    return n;
  };
}
