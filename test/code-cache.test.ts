/**
 * bin/shim.cjs loads the per-call bundles with V8's code cache (SHIM_HOME/cache/v8). A bundle
 * compiled from a cache must behave as one compiled from source, lazy loads included (Node 20
 * drops a cached script's dynamic import(): a compressed transcript needs node:zlib loaded late).
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { BIN, runShim } from './helpers/cli.ts';
import { gzFixturePath, makeTempDir } from './helpers/fixtures.ts';
import { fillDisk, mountedHome } from './helpers/mounts.ts';
import { waitForProcessesUnder } from './helpers/processes.ts';

const GZ = 'entire-2372de7ea2ff-auto-compact-155k-todowrite-v2.1.5.jsonl';

describe('per-call bundles with the code cache', () => {
  test('the first call writes the cache, the next runs from it with the same answer', () => {
    const home = join(makeTempDir('shim-code-cache-'), 'shim');
    const input = JSON.stringify({
      session_id: 'code-cache',
      transcript_path: gzFixturePath(GZ),
      cwd: '/tmp',
      model: { id: 'claude-opus-4-6', display_name: 'Opus' },
    });
    const first = runShim(home, ['statusline'], { input });
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stdout, /CTX/);
    // The light bundle and, for a render that folds the transcript, the full one.
    const cached = readdirSync(join(home, 'cache', 'v8')).sort();
    assert.equal(cached.length, 2);
    assert.match(cached[0]!, /^statusline-full\.cjs-\d+-\d+-v\d+\.\d+\.\d+-\w+-\w+\.bin$/);
    assert.match(cached[1]!, /^statusline\.cjs-\d+-\d+-v\d+\.\d+\.\d+-\w+-\w+\.bin$/);
    const second = runShim(home, ['statusline'], { input });
    assert.equal(second.status, 0, second.stderr);
    assert.equal(second.stdout, first.stdout);
    assert.deepEqual(readdirSync(join(home, 'cache', 'v8')).sort(), cached, 'kept, not rewritten');
  });

  const fullHome = mountedHome('1m');
  test(
    'a cache that does not fit leaves no part of itself behind (a full disk)',
    { skip: fullHome === null && 'cannot mount a tmpfs here' },
    () => {
      const home = fullHome!;
      mkdirSync(join(home, 'cache', 'v8'), { recursive: true });
      fillDisk(home);
      const run = runShim(home, ['statusline'], {
        input: JSON.stringify({
          session_id: 'full-disk-cache',
          transcript_path: gzFixturePath(GZ),
          cwd: '/tmp',
          model: { id: 'claude-opus-4-6', display_name: 'Opus' },
        }),
      });
      assert.equal(run.status, 0, run.stderr);
      assert.deepEqual(readdirSync(join(home, 'cache', 'v8')), [], 'no cache, whole or cut short');
    },
  );

  test("a blocking checkpoint runs the hooks' heavy half from the cache too", async () => {
    const dir = makeTempDir('shim-code-cache-heavy-');
    const home = join(dir, 'shim');
    const transcript = join(dir, 'session.jsonl');
    const key = 'shpat_Zq9mWxY2vBnK7pLrT4sGhJ8dFcXeA3Nu';
    writeFileSync(
      transcript,
      `${JSON.stringify({
        type: 'user',
        sessionId: 'heavy',
        uuid: 'u1',
        timestamp: '2026-11-25T00:00:00.000Z',
        cwd: dir,
        message: { role: 'user', content: `deploy with token ${key} please` },
      })}\n`,
    );
    const hook = (event: string, extra: Record<string, unknown>) =>
      runShim(home, ['hook', event], {
        cwd: dir,
        input: JSON.stringify({
          session_id: 'heavy',
          transcript_path: transcript,
          cwd: dir,
          hook_event_name: event,
          ...extra,
        }),
      });
    // A risky command's checkpoint is built by a detached `shim background finish-pending`,
    // which runs the heavy half through the same cache (not the ES-module CLI).
    const risky = hook('PreToolUse', {
      tool_name: 'Bash',
      tool_use_id: 'toolu_1',
      tool_input: { command: 'git reset --hard' },
    });
    assert.match(risky.stdout, /checkpoint saved/, risky.stderr);
    await waitForProcessesUnder(dir);
    const cached = readdirSync(join(home, 'cache', 'v8')).sort();
    // The background job reads the session through its agent's own bundle.
    assert.deepEqual(
      cached.map((f) => f.replace(/\.cjs-.*/, '')),
      ['agent-claude', 'hook-heavy', 'hook'],
    );
    // PreCompact's checkpoint is taken in the hook: the heavy half from the cache.
    const first = hook('PreCompact', { trigger: 'manual', custom_instructions: '' });
    assert.equal(first.status, 0, first.stderr);
    assert.deepEqual(readdirSync(join(home, 'cache', 'v8')).sort(), cached, 'kept, not rewritten');
    const second = hook('SessionEnd', { reason: 'other' });
    assert.equal(second.status, 0, second.stderr);
    // SessionEnd starts `shim gc --auto` and `shim estimate --refresh` in the background: commands,
    // which run from (and cache) dist/commands.cjs when they end.
    await waitForProcessesUnder(dir);
    assert.deepEqual(
      readdirSync(join(home, 'cache', 'v8'))
        .filter((f) => !f.startsWith('commands.cjs-'))
        .sort(),
      cached,
      'kept, not rewritten',
    );
    const list = runShim(home, ['list', '--all', '--json'], { cwd: dir });
    assert.deepEqual(
      (JSON.parse(list.stdout) as { triggeredBy: string }[]).map((c) => c.triggeredBy),
      ['session_end', 'pre_compact', 'risky_operation'],
    );
    // No ES-module loading from node_modules on this path (the redactor is shim's own, inside).
    const heavy = readFileSync(join(BIN, '..', '..', 'dist', 'hook-heavy.cjs'), 'utf8');
    assert.doesNotMatch(heavy, /require\("@secretlint\//);
    // Nothing shim wrote holds the secret: store, cursor cache, handoffs (read once the work
    // SessionEnd started in the background is done: it may still hold the store open).
    await waitForProcessesUnder(dir);
    for (const file of readdirSync(home, { recursive: true, encoding: 'utf8' })) {
      const path = join(home, file);
      if (!statSync(path, { throwIfNoEntry: false })?.isFile()) continue;
      assert.ok(!readFileSync(path).includes(key), `${file} holds the secret`);
    }
  });

  test("Gemini's AfterTool asks the quick bundle, then runs the one hook runner with Gemini's agent bundle; the heavy half only in the session's first checkpoint, taken in the background", async () => {
    const dir = makeTempDir('shim-code-cache-gemini-');
    const home = join(dir, 'shim');
    const chats = join(dir, 'home', '.gemini', 'tmp', 'project', 'chats');
    mkdirSync(chats, { recursive: true });
    const chat = join(chats, 'session-2026-11-25T12-00-cache000.jsonl');
    writeFileSync(
      chat,
      readFileSync(
        join(BIN, '..', '..', 'test', 'fixtures', 'gemini', 'resumed-compressed-0.61.0.jsonl'),
      ),
    );
    const afterTool = () =>
      runShim(home, ['gemini-hook', 'AfterTool'], {
        cwd: dir,
        env: { HOME: join(dir, 'home') },
        input: JSON.stringify({
          session_id: '071c8f8b-c20a-4dc3-b5ee-f4d826d5c890',
          transcript_path: chat,
          cwd: dir,
          hook_event_name: 'AfterTool',
          timestamp: '2026-11-25T12:00:00.000Z',
          tool_name: 'run_shell_command',
          tool_input: { command: 'ls' },
          tool_response: { llmContent: 'a.ts' },
        }),
      });
    const run = afterTool();
    assert.equal(run.status, 0, run.stderr);
    // The chat was read: its cursor is cached.
    assert.equal(readdirSync(join(home, 'cache', 'cursors')).length, 1);
    // Every bundle the launcher loads leaves its code cache: the quick answer's (the session's
    // first call has no window yet, so it hands over), the hook runner, Gemini's agent and the
    // scanner its fold requires (dist/redact.cjs: the agents' bundles carry none). The session's
    // first checkpoint is a detached job's, which runs the heavy half (read once it is done:
    // while both cores are busy it can end before the hook does, or long after).
    await waitForProcessesUnder(dir);
    const list = runShim(home, ['list', '--all', '--json'], { cwd: dir });
    assert.deepEqual(
      (JSON.parse(list.stdout) as { triggeredBy: string }[]).map((c) => c.triggeredBy),
      ['session_start'],
    );
    assert.deepEqual(
      readdirSync(join(home, 'cache', 'v8'))
        .map((f) => f.replace(/\.cjs-.*/, ''))
        .filter((name) => name !== 'commands')
        .sort(),
      ['agent-gemini', 'hook', 'hook-heavy', 'hook-quick', 'redact'],
    );
  });
});
