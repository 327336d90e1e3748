/**
 * The per-call bundles as built (dist/meta/*.json, from `node scripts/build.mjs`) against their
 * rules: no forbidden package contained or imported, no bundle over its budget. And the checker
 * itself, on a bundle built here that imports what it must not.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { build } from 'esbuild';
import {
  BUNDLE_RULES,
  checkBundle,
  NEVER_PER_CALL,
  packageOf,
  SQLITE,
  type Metafile,
} from './bundle-check.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const META = join(ROOT, 'dist', 'meta');

function builtMetafile(): Metafile {
  const outputs: Metafile['outputs'] = {};
  for (const file of readdirSync(META))
    Object.assign(
      outputs,
      (JSON.parse(readFileSync(join(META, file), 'utf8')) as Metafile).outputs,
    );
  return { outputs };
}

describe(
  'per-call bundles',
  { skip: existsSync(META) ? false : 'no dist/meta: run node scripts/build.mjs first' },
  () => {
    for (const rule of BUNDLE_RULES) {
      test(`${rule.bundle}: nothing forbidden, within ${Math.round(rule.budget / 1024)} KB`, () => {
        assert.deepEqual(checkBundle(builtMetafile(), rule), []);
      });
    }

    // A warm `shim status` (its cursor current) redacts nothing: the scanner is left out of the
    // bundles it loads and required from dist/redact.cjs on first use (entries/redactor-on-demand.ts).
    // What they keep of src/redact is the session's memory and the names of secret files.
    test('status.cjs and the agents’ bundles carry no scanner: dist/redact.cjs, on first use', () => {
      const meta = builtMetafile();
      const kept = /^src\/redact\/(secret-memory|value-shape|findings|secret-files)\.ts$/;
      for (const bundle of [
        'status.cjs',
        'agent-claude.cjs',
        'agent-codex.cjs',
        'agent-gemini.cjs',
      ]) {
        const output = Object.entries(meta.outputs).find(([k]) => k.endsWith(`/${bundle}`))?.[1];
        assert.ok(output, `${bundle} not built`);
        const scanner = Object.keys(output.inputs).filter(
          (input) => input.startsWith('src/redact/') && !kept.test(input),
        );
        assert.deepEqual(scanner, [], `${bundle} carries the scanner`);
        assert.ok(
          output.imports.some((i) => i.path === './redact.cjs' && i.external),
          `${bundle} does not require ./redact.cjs`,
        );
      }
    });

    test('every bundle bin/shim.cjs loads has a rule', () => {
      const launcher = readFileSync(join(ROOT, 'bin', 'shim.cjs'), 'utf8');
      const loaded = [...launcher.matchAll(/loadBundle\('([^']+)'\)/g)].map((m) => m[1]!);
      assert.ok(loaded.length >= 4, loaded.join(', '));
      for (const name of loaded)
        assert.ok(
          BUNDLE_RULES.some((r) => r.bundle === name),
          `${name} has no rule`,
        );
    });
  },
);

describe('the bundle checker', () => {
  test('reports a forbidden package bundled in, one imported, and a bundle over its budget', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'shim-bundle-check-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    // A deliberately bad entry: the web server bundled in, SQLite and a tracker client imported.
    const entry = join(dir, 'bad-entry.ts');
    writeFileSync(
      entry,
      [
        "import { Hono } from 'hono';",
        "import { DatabaseSync } from '@photostructure/sqlite';",
        "import { Octokit } from '@octokit/rest';",
        'export const app = new Hono();',
        'export const open = (p: string) => new DatabaseSync(p);',
        'export const client = () => new Octokit();',
      ].join('\n'),
    );
    const result = await build({
      entryPoints: { 'hook-quick': entry },
      absWorkingDir: ROOT,
      nodePaths: [join(ROOT, 'node_modules')],
      outdir: dir,
      outExtension: { '.js': '.cjs' },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      write: false,
      metafile: true,
      external: ['@photostructure/sqlite', '@octokit/*'],
      logLevel: 'silent',
    });
    const rule = BUNDLE_RULES.find((r) => r.bundle === 'hook-quick.cjs')!;
    const problems = checkBundle(result.metafile as Metafile, { ...rule, budget: 1024 });
    assert.ok(
      problems.some((p) => /contains hono \(\d+ bytes\)/.test(p)),
      problems.join('\n'),
    );
    assert.ok(
      problems.includes('hook-quick.cjs imports @photostructure/sqlite'),
      problems.join('\n'),
    );
    assert.ok(problems.includes('hook-quick.cjs imports @octokit/rest'), problems.join('\n'));
    assert.ok(
      problems.some((p) => /over its budget of 1024 bytes/.test(p)),
      problems.join('\n'),
    );
  });

  test('the team store’s drivers and SQLite are forbidden on the quiet paths', () => {
    for (const name of ['pg', 'kysely', '@electric-sql/pglite'])
      assert.ok(
        NEVER_PER_CALL.some(
          (p) => p === name || (p.endsWith('*') && name.startsWith(p.slice(0, -1))),
        ),
      );
    for (const bundle of [
      'hook-ask.cjs',
      'hook-quick.cjs',
      'statusline.cjs',
      'hook.cjs',
      'shim-mod.js',
    ]) {
      const rule = BUNDLE_RULES.find((r) => r.bundle === bundle)!;
      for (const name of SQLITE) assert.ok(rule.forbidden.includes(name), `${bundle}: ${name}`);
    }
  });

  test('packageOf reads the package from a node_modules path, scoped or not', () => {
    assert.equal(packageOf('node_modules/hono/dist/cjs/hono.js'), 'hono');
    assert.equal(packageOf('node_modules/@octokit/rest/dist/index.js'), '@octokit/rest');
    assert.equal(packageOf('node_modules/a/node_modules/pg/lib/index.js'), 'pg');
    assert.equal(packageOf('src/hook/run.ts'), null);
  });
});
