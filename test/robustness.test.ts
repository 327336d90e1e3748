/**
 * What a new user hit when things were not as expected: a corrupt store, a bad config file, a
 * SHIM_HOME that cannot be used, a failed checkpoint leaving a snapshot ref behind, a damaged
 * settings file, garbage sent to the MCP server.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { DatabaseSync } from '@photostructure/sqlite';
import { BIN, runShim } from './helpers/cli.ts';
import { fixturePath, makeTempDir } from './helpers/fixtures.ts';
import { makeWarmHome } from './helpers/shared-code-cache.ts';
import { toJsonl, userPromptLine } from './helpers/transcript-builders.ts';

const TASKS = 'entire-9b04c3d92e38-auto-compact-167k-taskcreate-v2.1.39.jsonl';

function checkpoint(home: string, extra: string[] = []) {
  return runShim(home, ['checkpoint', '--transcript', fixturePath(TASKS), '--json', ...extra]);
}

/** "ok", or what is wrong (a check that cannot even run on a damaged file says so by throwing). */
function integrity(path: string): string {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return (db.prepare('PRAGMA integrity_check').get() as { integrity_check: string })
      .integrity_check;
  } catch (error) {
    return String(error);
  } finally {
    db.close();
  }
}

function hook(home: string, event: string, payload: Record<string, unknown>) {
  return spawnSync(process.execPath, [BIN, 'hook', event], {
    input: JSON.stringify({ hook_event_name: event, ...payload }),
    encoding: 'utf8',
    env: { ...process.env, SHIM_HOME: home, CLAUDE_CONFIG_DIR: join(home, 'no-claude') },
  });
}

describe('a corrupt store', () => {
  test('pages overwritten: the next checkpoint goes into a fresh store with everything readable, said once', () => {
    const home = makeWarmHome();
    for (let i = 0; i < 3; i++) assert.equal(checkpoint(home).status, 0);
    const path = join(home, 'shim.db');
    // Damage pages in the middle of the file, as a bad disk or a stray write would.
    const size = statSync(path).size;
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.alloc(4096 * 2, 0xa5), 0, 8192, Math.floor(size / 2 / 4096) * 4096);
    closeSync(fd);
    assert.notEqual(integrity(path), 'ok', 'the damage is real');

    const run = checkpoint(home);
    assert.equal(run.status, 0, run.stderr);
    assert.match(
      run.stderr,
      /the store was corrupt .*moved to .*shim\.db\.corrupt-.*rows were copied into a fresh one/,
    );
    assert.equal(integrity(path), 'ok', 'the acknowledged checkpoint is in a sound store');
    assert.ok(readdirSync(home).some((f) => f.startsWith('shim.db.corrupt-')));
    const listed = runShim(home, ['list', '--all', '--json']);
    assert.equal(listed.status, 0, listed.stderr);
    assert.ok((JSON.parse(listed.stdout) as unknown[]).length >= 1);
    assert.doesNotMatch(listed.stderr, /store was corrupt/, 'said once');
    const doctor = runShim(home, ['doctor', '--json']);
    assert.match(doctor.stdout, /store-recovery/);
  });

  test('not a database at all: replaced, and the command works', () => {
    const home = makeWarmHome();
    writeFileSync(join(home, 'shim.db'), 'this is not sqlite '.repeat(500));
    const run = checkpoint(home);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /store was corrupt/);
    assert.equal(integrity(join(home, 'shim.db')), 'ok');
  });
});

describe('a bad config file', () => {
  const setup = (config: string) => {
    const home = makeWarmHome();
    const project = join(home, 'project');
    mkdirSync(project);
    writeFileSync(join(home, 'config.json'), config);
    const transcript = join(home, 'session.jsonl');
    writeFileSync(
      transcript,
      toJsonl([
        { ...userPromptLine('Make the tests pass please.'), sessionId: 'cfg-1', cwd: project },
      ]),
    );
    const post = () =>
      hook(home, 'PostToolUse', {
        session_id: 'cfg-1',
        transcript_path: transcript,
        cwd: project,
        tool_name: 'Bash',
      });
    return { home, project, post };
  };

  test('hooks go on with the defaults and tell the user once per session where and what', () => {
    const { home, post } = setup(
      '{\n  "levels": {"L1": 70, "L2": 85, "L3": 95},\n  "checkpoints": {"everyToolCall": 3}\n}\n',
    );
    const first = post();
    assert.equal(first.status, 0);
    const out = JSON.parse(first.stdout) as { systemMessage: string };
    assert.match(
      out.systemMessage,
      /config\.json: checkpoints: Unrecognized key: "everyToolCall" \(line 3\) — using the defaults/,
    );
    assert.equal(post().stdout.includes('config.json'), false, 'once per session');
    // The defaults still work: the first checkpoint of the session is taken.
    const started = Date.now();
    while (!existsSync(join(home, 'shim.db')) && Date.now() - started < 10_000)
      spawnSync('sleep', ['0.2']);
    const doctor = runShim(home, ['doctor', '--json']);
    const config = (
      JSON.parse(doctor.stdout) as { checks: Array<{ id: string; status: string; detail: string }> }
    ).checks.find((c) => c.id === 'config')!;
    assert.equal(config.status, 'fail');
    assert.match(config.detail, /line 3/);
    assert.notEqual(doctor.status, 0);
  });

  test('not JSON at all: the line of the mistake is named', () => {
    const { post } = setup('{\n  "levels": {\n    "L1": 70,\n  }\n}\n');
    const out = JSON.parse(post().stdout) as { systemMessage: string };
    assert.match(out.systemMessage, /not valid JSON.*\(line \d\)/);
  });

  test("a project's .shim.json can switch shim off there", () => {
    const { home, project, post } = setup('{}');
    writeFileSync(join(project, '.shim.json'), '{"enabled": false}');
    const run = post();
    assert.equal(run.status, 0);
    assert.equal(run.stdout, '');
    spawnSync('sleep', ['1']);
    assert.equal(existsSync(join(home, 'shim.db')), false, 'nothing recorded');
    const config = runShim(home, ['config', '--json'], { cwd: project });
    assert.equal(
      (JSON.parse(config.stdout) as { settings: { enabled: boolean } }).settings.enabled,
      false,
    );
    assert.match(config.stdout, /\.shim\.json/);
  });
});

describe('a SHIM_HOME that cannot be used', () => {
  const file = join(makeTempDir(), 'a-file');
  writeFileSync(file, 'x');
  for (const [what, home] of [
    ['under /proc', '/proc/shim-home-test'],
    ['below a file', join(file, 'shim')],
  ] as const) {
    test(`${what}: one clear line, exit 1, quickly`, () => {
      const started = Date.now();
      const run = runShim(home, ['list', '--all']);
      assert.ok(Date.now() - started < 10_000, 'no retry loop');
      assert.equal(run.status, 1);
      assert.match(run.stderr, /^shim: cannot use .* as SHIM_HOME: /);
      assert.doesNotMatch(run.stderr, /bug in shim/);
      const hookRun = hook(home, 'PostToolUse', { session_id: 'x' });
      assert.equal(hookRun.status, 0);
      assert.equal(hookRun.stdout, '');
    });
  }
});

describe('a checkpoint that fails', () => {
  test('leaves no snapshot ref behind', () => {
    const home = makeWarmHome();
    const repo = join(home, 'repo');
    mkdirSync(repo);
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' });
    git('init', '-q', '-b', 'main');
    writeFileSync(join(repo, 'a.txt'), 'changed\n');
    const transcript = join(home, 't.jsonl');
    writeFileSync(
      transcript,
      toJsonl([{ ...userPromptLine('Change a.txt please.'), sessionId: 'fail-1', cwd: repo }]),
    );
    assert.equal(runShim(home, ['checkpoint', '--transcript', transcript]).status, 0);
    // Storing now fails after git has been captured.
    const db = new DatabaseSync(join(home, 'shim.db'));
    db.exec(
      "CREATE TRIGGER refuse BEFORE INSERT ON checkpoints BEGIN SELECT RAISE(ABORT, 'refused by the test'); END",
    );
    db.close();
    const refsBefore = git('for-each-ref', 'refs/shim/snapshots')
      .trim()
      .split('\n')
      .filter(Boolean);
    const run = runShim(home, ['checkpoint', '--transcript', transcript]);
    assert.equal(run.status, 1);
    const refsAfter = git('for-each-ref', 'refs/shim/snapshots').trim().split('\n').filter(Boolean);
    assert.deepEqual(refsAfter, refsBefore);
  });
});

describe('damaged input at other doors', () => {
  test('a 5,000-deep settings.json: install refuses it with a clear message', () => {
    const home = makeWarmHome();
    const claude = join(home, 'claude');
    mkdirSync(claude);
    writeFileSync(join(claude, 'settings.json'), `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`);
    const run = runShim(home, ['install', '--agent', 'claude', '--user'], {
      env: { CLAUDE_CONFIG_DIR: claude },
    });
    assert.equal(run.status, 1);
    assert.match(run.stderr, /nests 5000 levels deep/);
    assert.doesNotMatch(run.stderr, /bug in shim/);
  });

  test('garbage lines to `shim mcp` get the JSON-RPC errors, and the server carries on', () => {
    const home = makeWarmHome();
    const run = spawnSync(process.execPath, [BIN, 'mcp'], {
      input: 'not json\n{"hello":"world"}\n{"jsonrpc":"2.0","id":7,"method":"ping"}\n',
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...process.env, SHIM_HOME: home },
    });
    const replies = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: unknown; error?: { code: number }; result?: unknown });
    assert.deepEqual(
      replies.map((r) => [r.id, r.error?.code ?? 'ok']),
      [
        [null, -32700],
        [null, -32600],
        [7, 'ok'],
      ],
    );
  });
});

describe('number flags and gc', () => {
  test('a number flag that is not one is an error that says what is expected', () => {
    const run = runShim(makeWarmHome(), ['gc', '--retention-days', 'soon']);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /expected a number of days ≥ 0/);
  });

  test('gc --dry-run deletes nothing and says what it would', () => {
    const home = makeWarmHome();
    for (let i = 0; i < 3; i++) checkpoint(home);
    const dry = runShim(home, ['gc', '--retention-days', '0', '--dry-run']);
    assert.equal(dry.status, 0, dry.stderr);
    assert.match(dry.stdout, /would delete 2 checkpoints/);
    assert.equal(
      (JSON.parse(runShim(home, ['list', '--all', '--json']).stdout) as unknown[]).length,
      3,
    );
  });
});
