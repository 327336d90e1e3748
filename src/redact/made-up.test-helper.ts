/**
 * Made-up secrets for the redaction tests: generated at run time from a seeded generator, so
 * nothing in the repository is a real key and no key-shaped literal sits in it for secret
 * scanners to trip over. Each test file makes its own generator (`madeUp(seed)`), so one file's
 * values do not shift when another's change.
 */
export const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const LOWER = 'abcdefghijklmnopqrstuvwxyz';
export const DIGITS = '0123456789';
export const B62 = UPPER + LOWER + DIGITS;
export const B64URL = B62 + '-_';
export const B64 = B62 + '+/';
export const HEX = '0123456789abcdef';
/** crypt(3)'s alphabet. */
export const CRYPT64 = './' + DIGITS + UPPER + LOWER;

export type MadeUp = {
  /** `length` characters of `alphabet`, with an upper-case letter, a lower-case one and a digit where the alphabet has them. */
  gen: (alphabet: string, length: number) => string;
  digits: (n: number) => string;
};

export function madeUp(seed: number): MadeUp {
  let state = seed | 0;
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const gen = (alphabet: string, length: number): string => {
    for (;;) {
      let s = '';
      for (let i = 0; i < length; i++) s += alphabet[Math.floor(random() * alphabet.length)];
      const needs = [UPPER, LOWER, DIGITS].filter((set) =>
        [...set].some((c) => alphabet.includes(c)),
      );
      if (needs.every((set) => [...s].some((c) => set.includes(c)))) return s;
    }
  };
  return { gen, digits: (n) => gen(DIGITS, n) };
}
