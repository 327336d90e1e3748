/**
 * The per-call bundles (every hook event, every statusline render) carry no PostgreSQL driver or
 * query builder: a team store connected costs the hot path nothing (docs/team.md). Reads dist/,
 * so it runs after a build (npm test builds first).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const DIST = join(import.meta.dirname, '..', '..', 'dist');
// Strings only pg, pg-protocol, pg-pool, pgpass or Kysely contain (the package's path: the
// redaction's rules name the .pgpass file, and ride every hook).
const MARKERS = [
  'pg-protocol',
  'PostgresDialect',
  'Kysely',
  'pg-pool',
  'node_modules/pgpass',
  'SASL',
  'shim_checkpoints',
];

test('no hook or statusline bundle contains pg or Kysely', (t) => {
  if (!existsSync(DIST)) {
    t.skip('no dist/: run node scripts/build.mjs first');
    return;
  }
  const bundles = readdirSync(DIST).filter((f) => /^(hook|statusline|status)[\w-]*\.cjs$/.test(f));
  assert.ok(bundles.length >= 3, `per-call bundles found: ${bundles.join(', ')}`);
  for (const name of bundles) {
    const text = readFileSync(join(DIST, name), 'utf8');
    for (const marker of MARKERS)
      assert.ok(
        !text.includes(marker),
        `${name} contains ${marker}: pg/Kysely reached the hot path`,
      );
    // A cjs bundle loads nothing it does not inline, except through require of a chunk.
    const chunks = [...text.matchAll(/require\(["']\.\/chunks\/([^"']+)["']\)/g)].map((m) => m[1]!);
    for (const chunk of chunks) {
      const inner = readFileSync(join(DIST, 'chunks', chunk), 'utf8');
      for (const marker of MARKERS)
        assert.ok(!inner.includes(marker), `${name} → ${chunk} contains ${marker}`);
    }
  }
});

test('the team code is its own chunk of the CLI', () => {
  if (!existsSync(join(DIST, 'chunks'))) return;
  const chunks = readdirSync(join(DIST, 'chunks'));
  assert.ok(
    chunks.some((c) => readFileSync(join(DIST, 'chunks', c), 'utf8').includes('PostgresDialect')),
    'pg and Kysely are bundled for the CLI (the worker and team commands)',
  );
});
