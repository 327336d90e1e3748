/**
 * A transcript path that is not a regular file — a FIFO nobody writes, a directory — as a hook's
 * payload or `shim checkpoint --transcript` names it. Opening a FIFO the usual way waits for a
 * writer for good: every hook must still return (exit 0, protocol only), no process may be left
 * blocked (the warm look goes on answering), and a command says in one line what is wrong.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { BIN, runShim } from './helpers/cli.ts';
import { makeTempDir } from './helpers/fixtures.ts';
import { waitForProcessesUnder } from './helpers/processes.ts';
import { blockedOnPipe, EVENTS, payloadFor, replaceWith } from './helpers/odd-transcript.ts';
import { SESSION_ID } from './helpers/transcript-builders.ts';
import {
  env,
  hook,
  payload,
  respond,
  session,
  stop,
  waitForWarmLook,
  warmLookStats,
} from './helpers/warm-look.ts';

/** Runs one hook; a hook still running after `limitMs` is killed and fails the test. */
function runHook(
  event: string,
  input: string,
  environment: NodeJS.ProcessEnv,
  cwd: string,
): string {
  const r = spawnSync(process.execPath, [BIN, 'hook', event], {
    input,
    encoding: 'utf8',
    env: environment,
    cwd,
    timeout: 30_000,
    killSignal: 'SIGKILL',
  });
  assert.equal(r.signal, null, `${event} did not return (killed after 30 s)`);
  assert.equal(r.status, 0, `${event}: ${r.stderr}`);
  assert.equal(r.stderr, '', `${event} wrote to stderr`);
  if (r.stdout.trim()) JSON.parse(r.stdout); // protocol, or nothing
  return r.stdout;
}

describe('a transcript path that is not a regular file', () => {
  for (const kind of ['fifo', 'directory'] as const) {
    test(`a ${kind}: every hook returns, twice over; nothing is left waiting`, async () => {
      const dir = makeTempDir(`shim-${kind}-`);
      const home = join(dir, 'shim');
      const transcript = join(dir, `${SESSION_ID}.jsonl`);
      const environment = {
        ...process.env,
        SHIM_HOME: home,
        CLAUDE_CONFIG_DIR: join(dir, 'no-claude'),
        SHIM_WARM_LOOK_IDLE_MS: '60000',
      };
      // An empty transcript first (the hooks remember its size), then the path replaced.
      writeFileSync(transcript, '');
      runHook('PostToolUse', payloadFor('PostToolUse', transcript, dir, 99), environment, dir);
      replaceWith(kind, transcript);
      // Twice: the second round finds the memory the first left.
      for (let round = 0; round < 2; round++)
        EVENTS.forEach((event, n) =>
          runHook(event, payloadFor(event, transcript, dir, round * 10 + n), environment, dir),
        );
      await waitForProcessesUnder(dir);
      assert.deepEqual(blockedOnPipe(dir), [], 'a process left waiting on a pipe');
      const s = { dir, home, transcript, calls: 0 };
      await stop(s);
    });
  }

  test('the warm look asked about a FIFO goes on answering', async () => {
    const s = session({ name: 'fifo-warm' });
    hook(s, payload(s, 'Read', respond(s, 'Read', 40_000)));
    const pid = await waitForWarmLook(s.home);
    const fifo = join(s.dir, 'other.jsonl');
    writeFileSync(fifo, '');
    runHook('PostToolUse', payloadFor('PostToolUse', fifo, s.dir, 99), env(s), s.dir);
    replaceWith('fifo', fifo);
    for (let n = 0; n < 3; n++)
      runHook('PostToolUse', payloadFor('PostToolUse', fifo, s.dir, n), env(s), s.dir);
    await waitForWarmLook(s.home, (stats) => (stats?.answered ?? 0) >= 4);
    const answered = warmLookStats(s.home)!.answered;
    hook(s, payload(s, 'Read', respond(s, 'Read', 41_000)));
    const after = await waitForWarmLook(s.home, (stats) => (stats?.answered ?? 0) > answered);
    assert.equal(after, pid, 'the same process answered: it was not left blocked');
    await stop(s);
  });

  for (const kind of ['fifo', 'directory'] as const) {
    test(`shim checkpoint --transcript <${kind}>: one line that says what to pass`, () => {
      const dir = makeTempDir(`shim-cli-${kind}-`);
      const path = join(dir, 'session.jsonl');
      if (kind === 'fifo') execFileSync('mkfifo', [path]);
      else mkdirSync(path);
      const r = spawnSync(process.execPath, [BIN, 'checkpoint', '--transcript', path], {
        encoding: 'utf8',
        env: { ...process.env, SHIM_HOME: join(dir, 'shim'), NO_COLOR: '1' },
        cwd: dir,
        timeout: 30_000,
        killSignal: 'SIGKILL',
      });
      assert.equal(r.signal, null, 'it did not return (killed after 30 s)');
      assert.equal(r.status, 1, r.stderr);
      assert.doesNotMatch(r.stderr, /unexpected|bug in shim/);
      assert.match(
        r.stderr,
        kind === 'fifo' ? /is not a regular file \(a pipe, socket or device\)/ : /is a directory/,
      );
      assert.equal(runShim(join(dir, 'shim'), ['list', '--all', '--json']).stdout.trim(), '[]');
    });
  }
});
