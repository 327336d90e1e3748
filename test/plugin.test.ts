/**
 * shim as a Claude Code plugin (scripts/build-plugin.mjs): the layout it builds, the runtime
 * dependencies Claude Code installs with `npm ci --ignore-scripts` (the SQLite addon included),
 * `claude plugin validate`, and the real CLI (pinned 2.1.330) running the plugin's hooks against the
 * mock Messages API, both installed from the local marketplace and loaded with --plugin-dir.
 *
 *   node scripts/build.mjs && node scripts/test.mjs test/plugin
 *
 * Needs a built dist/. The npm parts take a few seconds each (npm cache first, then the registry);
 * SHIM_SKIP_PLUGIN_NPM=1 skips them and everything that needs the installed dependencies.
 * SHIM_SKIP_E2E=1 skips the runs of the real CLI; without its binary, validation is skipped too.
 */
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DatabaseSync } from '@photostructure/sqlite';
import { SHIM_HOOKS } from '../src/agents/claude/settings/hook-spec.ts';
import { getShimMcpEntries } from '../src/agents/claude/settings/mcp-entries.ts';
import { parseShimCommand } from '../src/agents/claude/settings/shim-command.ts';
import {
  CLAUDE_BIN,
  claudeEnv,
  claudeInstallProblem,
  createScratch,
  describeRun,
  E2E_SKIP,
  readDebugLog,
  runClaude,
  waitForBackgroundWork,
  type Scratch,
} from './e2e/claude.ts';
import { startMockApi, type MockApi } from './e2e/mock-api.ts';
import { makeTempDir } from './helpers/fixtures.ts';
import { writeCountTiming } from './helpers/count-timing.ts';

const ROOT = resolve(import.meta.dirname, '..');
const PLUGIN_BIN = '${CLAUDE_PLUGIN_ROOT}/bin/shim.cjs';

const NPM_SKIP: string | false =
  process.env.SHIM_SKIP_PLUGIN_NPM === '1'
    ? 'SHIM_SKIP_PLUGIN_NPM=1: npm ci of the plugin dependencies skipped'
    : false;
const CLAUDE_SKIP: string | false = claudeInstallProblem() ?? false;
const E2E_PLUGIN_SKIP: string | false = NPM_SKIP || E2E_SKIP || CLAUDE_SKIP;

type Json = Record<string, unknown>;
type HookGroup = {
  matcher?: string;
  hooks: Array<{ type: string; command: string; timeout: number }>;
};
type LockFile = { packages: Record<string, { version?: string; dev?: boolean }> };

const readJson = <T = Json>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const rootPkg = readJson<{ version: string; dependencies: Record<string, string> }>(
  join(ROOT, 'package.json'),
);

/** Every file under dir (relative paths, sorted), node_modules left out. */
function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (entry.name === 'node_modules') continue;
      const path = join(current, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.push(relative(dir, path));
    }
  };
  walk(dir);
  return out.sort();
}

type Prebuilt = { files: string[]; hook: string };

/** The files of bin/ and dist/ under root, and the hook bundle's text. */
function snapshotPrebuilt(root: string): Prebuilt {
  const files = ['bin', 'dist'].flatMap((dir) =>
    existsSync(join(root, dir)) ? listFiles(join(root, dir)).map((f) => `${dir}/${f}`) : [],
  );
  const hookPath = join(root, 'dist', 'hook.cjs');
  return { files, hook: existsSync(hookPath) ? readFileSync(hookPath, 'utf8') : '' };
}

function npm(args: string[], cwd: string): SpawnSyncReturns<string> {
  // The registry may need the machine's extra CA bundle, which the test runner keeps from the
  // test processes (scripts/test.mjs) and hands over as SHIM_TEST_EXTRA_CA_CERTS.
  const extraCerts = process.env.SHIM_TEST_EXTRA_CA_CERTS;
  const env = extraCerts ? { ...process.env, NODE_EXTRA_CA_CERTS: extraCerts } : process.env;
  return spawnSync('npm', args, { cwd, encoding: 'utf8', timeout: 120_000, env });
}

function ok(result: SpawnSyncReturns<string>, what: string): string {
  assert.equal(
    result.status,
    0,
    `${what} failed (${result.status} ${result.signal ?? ''}):\n${result.stdout}\n${result.stderr}`,
  );
  return result.stdout;
}

type Row = { session_id: string; triggered_by: string };

function readCheckpoints(shimHome: string): Row[] {
  const path = join(shimHome, 'shim.db');
  if (!existsSync(path)) return [];
  const db = new DatabaseSync(path, { readOnly: true, timeout: 5000 });
  try {
    return db.prepare('SELECT session_id, triggered_by FROM checkpoints').all() as Row[];
  } finally {
    db.close();
  }
}

describe('shim as a Claude Code plugin', () => {
  let tmp = '';
  /** The built marketplace (build-plugin's output dir). */
  let market = '';
  /** The built plugin, <market>/shim. */
  let plugin = '';
  /** The plugin once `npm ci`-ed (built without node_modules, as Claude Code's cache gets it). */
  let installed = '';
  let built: string[] = [];
  /** bin/ and dist/ of the checkout as the plugin was built from them. */
  let prebuilt: Prebuilt = { files: [], hook: '' };

  before(() => {
    tmp = realpathSync(makeTempDir('shim-plugin-'));
    market = join(tmp, 'marketplace');
    plugin = join(market, 'shim');
    // --no-build: other test files run from dist/ meanwhile. Should dist/ be rebuilt while the
    // plugin copies it (another build in this checkout), build the plugin again. --no-deps: the
    // npm ci test below runs build-plugin's `npm ci` itself, in the plugin as built, once (it was
    // run twice, here and in a copy: ~10 s of CPU each). The plugin then holds the node_modules
    // that Claude Code 2.1.330 needs in place for a local marketplace.
    const args = [join(ROOT, 'scripts', 'build-plugin.mjs'), market, '--no-build', '--no-deps'];
    for (let attempt = 1; ; attempt++) {
      const distBefore = snapshotPrebuilt(ROOT);
      ok(
        spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', timeout: 180_000 }),
        'build-plugin',
      );
      prebuilt = snapshotPrebuilt(ROOT);
      if (attempt === 3 || JSON.stringify(distBefore) === JSON.stringify(prebuilt)) break;
    }
    built = listFiles(plugin);
  });

  after(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true, maxRetries: 5 });
  });

  test('a local marketplace "shim-local" holding the plugin "shim" at the package version', () => {
    const marketplace = readJson<{ name: string; owner: Json; plugins: Json[] }>(
      join(market, '.claude-plugin', 'marketplace.json'),
    );
    assert.equal(marketplace.name, 'shim-local');
    assert.ok(marketplace.owner.name);
    assert.deepEqual(
      marketplace.plugins.map((p) => [p.name, p.source]),
      [['shim', './shim']],
    );
    const manifest = readJson(join(plugin, '.claude-plugin', 'plugin.json'));
    assert.equal(manifest.name, 'shim');
    assert.equal(manifest.version, rootPkg.version);
    assert.ok(manifest.description);
    assert.match(
      readFileSync(join(plugin, 'README.md'), 'utf8'),
      /claude plugin install shim@shim-local/,
    );
  });

  test("hooks.json: shim install's events, matchers and timeouts, run from ${CLAUDE_PLUGIN_ROOT}, and shim's mod", () => {
    const hooksJson = readJson<{ hooks: Record<string, HookGroup[]>; modules: string[] }>(
      join(plugin, 'hooks', 'hooks.json'),
    );
    assert.deepEqual(hooksJson.modules, ['./shim-mod.js']);
    assert.equal(
      readFileSync(join(plugin, 'hooks', 'shim-mod.js'), 'utf8'),
      readFileSync(join(ROOT, 'dist', 'shim-mod.js'), 'utf8'),
    );
    const found = Object.entries(hooksJson.hooks).flatMap(([event, groups]) =>
      groups.flatMap((group) =>
        group.hooks.map((hook) => ({ event, matcher: group.matcher, hook })),
      ),
    );
    assert.deepEqual(
      found.map(({ event, matcher, hook }) => ({ event, matcher, timeout: hook.timeout })),
      SHIM_HOOKS.map(({ event, matcher, timeout }) => ({ event, matcher, timeout })),
    );
    for (const { event, hook } of found) {
      assert.equal(hook.type, 'command');
      assert.equal(hook.command, `node "${PLUGIN_BIN}" hook ${event}`);
      // shim's own tools (doctor, uninstall) recognise them as shim's hooks.
      assert.deepEqual(parseShimCommand(hook.command), {
        kind: 'hook',
        launcher: ['node'],
        bin: PLUGIN_BIN,
        event,
      });
    }
  });

  test('MCP servers: .mcp.json exactly when shim registers any, run from ${CLAUDE_PLUGIN_ROOT}', () => {
    const entries = getShimMcpEntries({ node: 'node', bin: PLUGIN_BIN });
    const path = join(plugin, '.mcp.json');
    if (entries.length === 0) {
      assert.ok(!existsSync(path));
      return;
    }
    const { mcpServers } = readJson<{ mcpServers: Record<string, Json> }>(path);
    assert.deepEqual(Object.keys(mcpServers).sort(), entries.map((e) => e.name).sort());
    for (const entry of entries) {
      assert.equal(mcpServers[entry.name]?.command, 'node');
      assert.deepEqual(mcpServers[entry.name]?.args, [PLUGIN_BIN, 'mcp']);
      assert.equal(mcpServers[entry.name]?.command, entry.command);
      assert.deepEqual(mcpServers[entry.name]?.args, entry.args);
    }
  });

  test('no paths of this machine and no state in the plugin: state stays in SHIM_HOME', () => {
    const config = ['.claude-plugin/plugin.json', 'hooks/hooks.json', '.mcp.json']
      .filter((file) => existsSync(join(plugin, file)))
      .map((file) => readFileSync(join(plugin, file), 'utf8'))
      .join('\n');
    for (const local of [ROOT, homedir(), tmpdir(), tmp]) assert.ok(!config.includes(local), local);
    // Hook commands are checked above; MCP servers must not point SHIM_HOME (or anything) at the
    // plugin folder, which Claude Code replaces on every update.
    if (existsSync(join(plugin, '.mcp.json'))) {
      const { mcpServers } = readJson<{ mcpServers: Record<string, { env?: Json }> }>(
        join(plugin, '.mcp.json'),
      );
      for (const server of Object.values(mcpServers)) {
        assert.doesNotMatch(JSON.stringify(server.env ?? {}), /CLAUDE_PLUGIN_ROOT/);
      }
    }
    const stateLike = built.filter((file) =>
      /(^|\/)(shim\.db|logs|cache|handoffs|backups)(\/|$|-)|\.log$/.test(file),
    );
    assert.deepEqual(stateLike, []);
  });

  test('bin/ and dist/ are the prebuilt code; package.json and the lockfile hold the runtime dependencies only', () => {
    assert.deepEqual(snapshotPrebuilt(plugin), prebuilt);

    const pkg = readJson(join(plugin, 'package.json'));
    assert.equal(pkg.name, 'shim'); // `shim --version` reads name and version
    assert.equal(pkg.version, rootPkg.version);
    assert.equal(pkg.type, 'module'); // dist/cli.js is an ES module
    assert.deepEqual(pkg.dependencies, rootPkg.dependencies);
    assert.equal(pkg.devDependencies, undefined);
    assert.equal(pkg.scripts, undefined);

    const lock = readJson<LockFile>(join(plugin, 'package-lock.json'));
    const rootLock = readJson<LockFile>(join(ROOT, 'package-lock.json'));
    assert.deepEqual(
      (lock.packages[''] as { dependencies?: unknown }).dependencies,
      rootPkg.dependencies,
    );
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (!path) continue;
      assert.notEqual(entry.dev, true, `${path} is a dev dependency`);
      // The versions the root lockfile (and so the tests) use.
      const rootEntry = rootLock.packages[path];
      if (rootEntry) assert.equal(entry.version, rootEntry.version, path);
    }
    for (const name of Object.keys(rootPkg.dependencies)) {
      assert.ok(lock.packages[`node_modules/${name}`], `${name} missing from the lockfile`);
    }
  });

  test(
    'npm ci --ignore-scripts in the plugin as built gives a working shim; the SQLite addon needs no install script',
    { skip: NPM_SKIP },
    () => {
      // As Claude Code's cache gets it: the plugin's files, no node_modules.
      assert.ok(!existsSync(join(plugin, 'node_modules')), 'built without node_modules');
      const started = Date.now();
      // What Claude Code runs when it caches a plugin.
      ok(
        npm(
          [
            'ci',
            '--ignore-scripts',
            '--workspaces=false',
            '--no-audit',
            '--no-fund',
            '--prefer-offline',
          ],
          plugin,
        ),
        'npm ci --ignore-scripts',
      );
      const npmMs = Date.now() - started;
      assert.ok(npmMs < 60_000, `npm ci took ${npmMs} ms; Claude Code gives it 60 s`);
      // Nothing compiled: the prebuilt binary is what node-gyp-build will load.
      const sqlite = join(plugin, 'node_modules', '@photostructure', 'sqlite');
      assert.ok(existsSync(join(sqlite, 'prebuilds')));
      assert.ok(!existsSync(join(sqlite, 'build')));

      const shimHome = join(tmp, 'shim-home');
      const env = { PATH: process.env.PATH ?? '', HOME: join(tmp, 'home'), SHIM_HOME: shimHome };
      const shim = (args: string[], input = ''): SpawnSyncReturns<string> =>
        spawnSync(process.execPath, [join(plugin, 'bin', 'shim.cjs'), ...args], {
          cwd: tmp,
          env,
          input,
          encoding: 'utf8',
          timeout: 30_000,
        });
      assert.equal(ok(shim(['--version']), 'shim --version').trim(), rootPkg.version);
      const payload = (event: string, extra: Json): string =>
        JSON.stringify({
          session_id: 'plugin-test',
          transcript_path: join(tmp, 'nonexistent.jsonl'),
          cwd: tmp,
          hook_event_name: event,
          ...extra,
        });
      ok(
        shim(['hook', 'SessionStart'], payload('SessionStart', { source: 'startup' })),
        'hook SessionStart',
      );
      ok(
        shim(['hook', 'SessionEnd'], payload('SessionEnd', { reason: 'other' })),
        'hook SessionEnd',
      );
      assert.ok(existsSync(join(shimHome, 'shim.db')), 'SessionEnd opened $SHIM_HOME/shim.db');
      // The CLI half (ESM, commander, the store) from the plugin too.
      assert.deepEqual(JSON.parse(ok(shim(['list', '--json']), 'shim list --json')), []);
      const log = existsSync(join(shimHome, 'logs', 'shim.log'))
        ? readFileSync(join(shimHome, 'logs', 'shim.log'), 'utf8')
        : '';
      assert.doesNotMatch(
        log,
        /Cannot find (module|package)|ERR_MODULE_NOT_FOUND|ERR_DLOPEN|No native build/,
      );
      assert.deepEqual(listFiles(plugin), built, 'shim wrote nothing into the plugin');
      installed = plugin;
    },
  );

  test(
    'claude plugin validate --strict passes for the plugin and the marketplace',
    { skip: CLAUDE_SKIP },
    () => {
      const home = join(tmp, 'validate-home');
      for (const target of [plugin, market]) {
        const result = spawnSync(CLAUDE_BIN, ['plugin', 'validate', '--strict', target], {
          encoding: 'utf8',
          timeout: 30_000,
          env: { PATH: process.env.PATH ?? '', HOME: home },
        });
        ok(result, `claude plugin validate --strict ${target}`);
        assert.match(result.stdout, /Validation passed/);
      }
    },
  );

  describe('under the real Claude Code CLI', { skip: E2E_PLUGIN_SKIP }, () => {
    const steps = ['one', 'two', 'three', 'four', 'five', 'six'].map((n) => ({
      content: [{ type: 'tool_use' as const, name: 'Bash', input: { command: `echo ${n}` } }],
    }));
    // The CLI's own `npm ci` for the plugin cache: use our npm cache rather than a cold one, and
    // the machine's extra CA bundle if the registry needs it (as npm() above).
    const npmCache = {
      npm_config_cache: process.env.npm_config_cache || join(homedir(), '.npm'),
      ...(process.env.SHIM_TEST_EXTRA_CA_CERTS
        ? { NODE_EXTRA_CA_CERTS: process.env.SHIM_TEST_EXTRA_CA_CERTS }
        : {}),
    };
    let scratch: Scratch | undefined;
    let mock: MockApi | undefined;

    before(async () => {
      mock = await startMockApi({ steps, final: { content: [{ type: 'text', text: 'Done.' }] } });
    });
    after(async () => {
      await mock?.close();
    });

    async function session(extraArgs: string[]): Promise<{ shimHome: string; sessionId: string }> {
      assert.ok(scratch && mock);
      mock.reset({ steps, final: { content: [{ type: 'text', text: 'Done.' }] } });
      // Bash calls only, no file written: the interval checkpoint is the count policy's
      // (`checkpoints.timing: "count"`; the default, "changes", skips one that saves no file change).
      writeCountTiming(join(scratch.home, '.shim'));
      const run = await runClaude({
        scratch,
        mock,
        prompt: 'Please build the ZEBRA-42 importer.',
        args: ['--debug', ...extraArgs],
        env: npmCache,
      });
      assert.equal(run.exitCode, 0, describeRun(run));
      const debug = readDebugLog(scratch);
      // shim's mod loaded, reported each response to the plugin's MCP server and pinned shim's
      // line; its reports ran no tool hooks.
      assert.match(
        debug,
        /hooks module shim@\S+ loaded \(worker, environment \d+, tier user\); events: classic\.PostToolUse,classic\.PostToolUseFailure,classic\.PreToolUse,turn\.step,turn\.complete,session\.compact/,
      );
      assert.match(debug, /\$\.ui\.status \(shim\): shim \[CTX/);
      assert.doesNotMatch(debug, /shim mod off/);
      assert.doesNotMatch(debug, /Hooks: PostToolUse\S*:mcp__plugin_shim_shim__shim_mod_event/);
      // The plugin's .mcp.json: Claude Code started `node ${CLAUDE_PLUGIN_ROOT}/bin/shim.cjs mcp`.
      const init = run.events.find((e) => e.type === 'system' && e.subtype === 'init') as
        { tools?: string[]; mcp_servers?: Array<{ name: string; status: string }> } | undefined;
      const servers = init?.mcp_servers ?? [];
      assert.ok(
        servers.some((s) => s.name.endsWith('shim') && s.status === 'connected'),
        `the plugin's MCP server is connected: ${JSON.stringify(servers)}`,
      );
      assert.ok(init?.tools?.some((name) => name.endsWith('__shim_get_crash_risk')));
      const shimHome = join(scratch.home, '.shim');
      // Checkpoints are taken in the background: read them once that work has finished.
      const rows = await waitForBackgroundWork(scratch)
        .then(() => {
          const found = readCheckpoints(shimHome).filter((r) => r.session_id === run.sessionId);
          const kinds = new Set(found.map((r) => r.triggered_by));
          if (
            !kinds.has('session_start') ||
            !kinds.has('tool_call_interval') ||
            !kinds.has('session_end')
          )
            throw new Error(`missing a checkpoint kind: ${[...kinds].join(', ')}`);
          return found;
        })
        .catch((error: unknown) => {
          const log = join(shimHome, 'logs', 'shim.log');
          throw new Error(
            `checkpoints: ${JSON.stringify(readCheckpoints(shimHome))}\nlog: ${existsSync(log) ? readFileSync(log, 'utf8') : '(none)'}\n${describeRun(run)}`,
            { cause: error },
          );
        });
      assert.ok(rows.length >= 3);
      return { shimHome, sessionId: run.sessionId };
    }

    test('installed from the marketplace: its hooks write checkpoints into <home>/.shim', async (t) => {
      assert.ok(installed, 'the npm ci test ran first (the CLI runs the plugin in place)');
      scratch = createScratch('shim-e2e-plugin-');
      t.after(() => scratch?.cleanup());
      assert.ok(mock);
      const env = { ...claudeEnv(scratch, mock), ...npmCache };
      for (const args of [
        ['plugin', 'marketplace', 'add', market],
        ['plugin', 'install', 'shim@shim-local'],
      ]) {
        ok(
          spawnSync(CLAUDE_BIN, args, {
            cwd: scratch.project,
            env,
            encoding: 'utf8',
            timeout: 120_000,
          }),
          `claude ${args.join(' ')}`,
        );
      }
      await session([]);
      // The installed copy (the CLI ran npm ci there) and the folder it reads in place hold no state.
      const cache = join(
        scratch.home,
        '.claude',
        'plugins',
        'cache',
        'shim-local',
        'shim',
        rootPkg.version,
      );
      assert.ok(existsSync(join(cache, 'node_modules', '@photostructure', 'sqlite')));
      assert.deepEqual(listFiles(cache), built);
      assert.deepEqual(listFiles(plugin), built);
    });

    test('loaded with --plugin-dir from the npm ci-ed plugin', { skip: NPM_SKIP }, async (t) => {
      assert.ok(installed, 'the npm ci test ran first');
      scratch = createScratch('shim-e2e-plugin-dir-');
      t.after(() => scratch?.cleanup());
      await session(['--plugin-dir', installed]);
      assert.deepEqual(listFiles(installed), built);
    });
  });
});
