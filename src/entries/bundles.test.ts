/**
 * The per-call bundles as built (dist/meta/*.json, from `node scripts/build.mjs`) against their
 * rules: no forbidden package contained or imported, no bundle over its budget. And the checker
 * itself, on a bundle built here that imports what it must not.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
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

/**
 * Whether running `code` in a fresh Node loaded undici, the fetch Node bundles (it loads on the
 * first touch of `Response` or `fetch`): its modules are in process.moduleLoadList.
 */
function loadsUndici(code: string, env: NodeJS.ProcessEnv = {}): boolean {
  const run = spawnSync(
    process.execPath,
    [
      '-e',
      `(async () => { ${code} })().then(() => process.stdout.write(JSON.stringify(process.moduleLoadList)))`,
    ],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', ...env } },
  );
  assert.equal(run.status, 0, run.stderr);
  const loaded = JSON.parse(run.stdout) as string[];
  assert.ok(loaded.includes('NativeModule net'), 'a full list of the modules Node loaded');
  return loaded.some((name) => name.includes('undici'));
}

// pg's Cloudflare probe builds a fetch Response as pg loads (on Node 20, which has no
// `navigator`): ~16 ms of CPU. scripts/build.mjs builds it out of every bundle that carries pg;
// test/team/first-session.test.ts checks the same of the processes, against a real server.
describe(
  'the bundles that carry pg',
  { skip: existsSync(META) ? false : 'no dist/meta: run node scripts/build.mjs first' },
  () => {
    test('the check sees undici once fetch is touched', () => {
      assert.equal(loadsUndici('new Response(null)'), true);
    });

    test('dist/pg.cjs loads pg without undici', () => {
      const pg = "const pg = require('./dist/pg.cjs'); if (typeof pg.Pool !== 'function') throw 0";
      assert.equal(loadsUndici(pg), false);
    });

    test('dist/team-pull.cjs pulls on pg without undici', (t) => {
      const home = mkdtempSync(join(tmpdir(), 'shim-team-pull-undici-'));
      t.after(() => rmSync(home, { recursive: true, force: true }));
      // A server that is not there: the pull loads pg (on demand) and tries it.
      const url = `postgresql://shim@localhost/none?host=${encodeURIComponent(join(home, 'gone'))}`;
      const pull = "await require('./dist/team-pull.cjs').main(); process.exitCode = 0";
      assert.equal(loadsUndici(pull, { SHIM_HOME: home, SHIM_TEAM_URL: url }), false);
      assert.match(
        readFileSync(join(home, 'logs', 'shim.log'), 'utf8'),
        /team pull failed.*cannot reach the team store.*ENOENT/,
        'pg tried the server',
      );
    });

    test('dist/pg.cjs is pg alone, and the commands bundle takes pg from it', () => {
      const meta = builtMetafile();
      const pg = Object.entries(meta.outputs).find(([k]) => k.endsWith('/pg.cjs'))?.[1];
      assert.ok(pg, 'pg.cjs not built');
      assert.deepEqual(
        Object.keys(pg.inputs).filter((input) => packageOf(input) === null),
        [],
        'only packages',
      );
      const commands = Object.entries(meta.outputs).find(([k]) => k.endsWith('/commands.cjs'))?.[1];
      assert.ok(commands?.imports.some((i) => i.path === './pg.cjs' && i.external));
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
