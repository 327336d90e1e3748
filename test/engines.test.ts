/**
 * `engines` says Node ≥ 20: every installed package must accept the oldest Node 20 shim
 * supports, or `npm ci` prints EBADENGINE (graphql@17 and content-type@3 did). Read from the
 * lock file, so a bump that needs Node 22 fails here and not on a user's machine.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

type Version = [number, number, number];
const parse = (v: string): Version => {
  const [a = 0, b = 0, c = 0] = v
    .replace(/^v/, '')
    .split('.')
    .map((p) => (p === 'x' ? 0 : Number(p)));
  return [a, b, c];
};
const compare = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** Whether `version` satisfies a range of the forms packages use (>=, >, ^, ~, x, ||). */
function satisfies(version: string, range: string): boolean {
  const v = parse(version);
  return range.split('||').some((alternative) =>
    alternative
      .trim()
      .replace(/(>=|<=|>|<|\^|~)\s+/g, '$1')
      .split(/\s+/)
      .filter(Boolean)
      .every((part) => {
        const m = /^(>=|<=|>|<|\^|~|=)?(.+)$/.exec(part)!;
        const bound = parse(m[2]!);
        const c = compare(v, bound);
        switch (m[1]) {
          case '>=':
            return c >= 0;
          case '>':
            return c > 0;
          case '<=':
            return c <= 0;
          case '<':
            return c < 0;
          case '^':
            return c >= 0 && v[0] === bound[0];
          case '~':
            return c >= 0 && v[0] === bound[0] && v[1] === bound[1];
          default:
            return m[2]!.split('.').length === 1 ? v[0] === bound[0] : c === 0;
        }
      }),
  );
}

test('the range reader', () => {
  assert.ok(satisfies('20.19.0', '>= 18'));
  assert.ok(satisfies('20.19.0', '^20.19.0 || >=22.12.0'));
  assert.ok(satisfies('20.19.0', '18 || 20 || >=22'));
  assert.ok(!satisfies('20.19.0', '>=22'));
  assert.ok(!satisfies('20.19.0', '^22.0.0 || ^24.0.0 || >=26.0.0'));
});

test('every locked package accepts Node 20.19 (no EBADENGINE from npm ci)', () => {
  const lock = JSON.parse(
    readFileSync(join(import.meta.dirname, '..', 'package-lock.json'), 'utf8'),
  ) as {
    packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
  };
  const refusing = Object.entries(lock.packages)
    .filter(
      ([, p]) =>
        !Array.isArray(p.engines) && p.engines?.node && !satisfies('20.19.0', p.engines.node),
    )
    .map(
      ([path, p]) =>
        `${path.replace(/^.*node_modules\//, '')}@${p.version}: node ${(p.engines as { node: string }).node}`,
    );
  assert.deepEqual(refusing, []);
});
