/**
 * The warm look (src/hook/warm-look/) as Claude Code meets it: `shim hook PostToolUse` run as a
 * fresh process per call, the warm process it starts, and every way that process can be missing,
 * dead, stuck or gone. Each call's answer is compared with what the hook's own process answers
 * for the same session (a second SHIM_HOME with `warmLook: false`). Every wait is for a result
 * (a pid file, a process gone, a count written), never for a guess at a duration.
 */
import assert from 'node:assert/strict';
import {
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { waitForProcessesUnder } from './helpers/processes.ts';
import {
  callBoth,
  doctorSays,
  gone,
  hook,
  hookAsync,
  payload,
  respond,
  served,
  session,
  stop,
  twin,
  waitForWarmLook,
  warmLookDirIn,
  warmLookStats,
} from './helpers/warm-look.ts';

/** shim's log in the session's home (what the warm look said), or that there is none. */
function logOf(s: { home: string }): string {
  const path = join(s.home, 'logs', 'shim.log');
  return existsSync(path) ? readFileSync(path, 'utf8') : '(no log)';
}

/**
 * Both homes' background checkpoints (a first call's, a level's) have ended: the checkpoint the
 * next call stores is numbered after them in both, as the answers compared say its number.
 */
async function settled(s: { dir: string }, t: { dir: string }): Promise<void> {
  await waitForProcessesUnder(s.dir);
  await waitForProcessesUnder(t.dir);
}

/** The pid of the warm look that wrote 'warm look: leaving' in `home`'s log, once one did. */
async function leftByItself(home: string, limitMs = 60_000): Promise<number> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const log = join(home, 'logs', 'shim.log');
    const line = existsSync(log)
      ? readFileSync(log, 'utf8')
          .split('\n')
          .find((l) => l.includes('"warm look: leaving"'))
      : undefined;
    if (line) return (JSON.parse(line) as { pid: number }).pid;
    if (Date.now() > deadline) throw new Error(`no warm look left ${home} within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('the warm look', () => {
  test("answers every call as the hook's own process would, from the second call on", async () => {
    const s = session();
    const t = twin(s);
    // No warm process yet: the first full look is the hook's own, and it starts one.
    const first = callBoth(s, t, 'Read', 40_000);
    assert.equal(first[0], first[1]);
    const pid = await waitForWarmLook(s.home);
    await settled(s, t);
    const answers: [string, string][] = [];
    // Quiet calls, the levels one after another, a command, a failure's neighbour.
    for (const [tool, context] of [
      ['Read', 42_000],
      ['Grep', 44_000],
      ['Read', 125_000],
      ['Bash', 130_000],
      ['Read', 150_000],
      ['Edit', 152_000],
      ['Read', 162_000],
    ] as const) {
      answers.push(callBoth(s, t, tool, context));
      await settled(s, t);
    }
    for (const [warm, own] of answers) assert.equal(warm, own);
    const said = answers.map(([warm]) => warm).join('\n');
    assert.match(said, /\(L1\)/);
    assert.match(said, /\(L2\)/);
    assert.match(said, /\(L3\)/);
    // Every one of them answered by the process (its count is written once calls pause).
    await waitForWarmLook(s.home, (stats) => (stats?.answered ?? 0) >= answers.length);
    assert.equal(warmLookStats(s.home)?.pid, pid, 'one process served them all');
    assert.match(
      doctorSays(s),
      new RegExp(`^running \\(pid ${pid}, started .*, \\d+ calls answered\\)$`),
    );
    await stop(s);
    assert.equal(warmLookDirIn(s.home), null, 'its pipes leave with it');
    assert.match(
      doctorSays(s),
      /^not running: the next tool call that needs a full look starts it/,
    );
  });

  test('killed with SIGKILL: the next call looks in its own process and starts another', async () => {
    const { s, t, pid } = await served('kill');
    await settled(s, t);
    process.kill(pid, 'SIGKILL');
    await gone(pid);
    const [warm, own] = callBoth(s, t, 'Read', 150_000);
    assert.equal(warm, own);
    assert.match(warm, /\(L2\)/, 'the level is still told');
    const next = await waitForWarmLook(s.home, (_, p) => p !== pid);
    assert.notEqual(next, pid);
    const [later, laterOwn] = callBoth(s, t, 'Read', 162_000);
    assert.equal(later, laterOwn);
    await stop(s);
  });

  test('stopped (alive, not answering): the call looks itself in time and retires it', async () => {
    const { s, t, pid } = await served('stuck');
    await settled(s, t);
    process.kill(pid, 'SIGSTOP');
    try {
      const call = respond(s, 'Read', 150_000);
      respond(t, 'Read', 150_000);
      const warm = hook(s, payload(s, 'Read', call), { SHIM_WARM_LOOK_WAIT_MS: '500' });
      assert.equal(warm, hook(t, payload(t, 'Read', call)));
      assert.match(warm, /\(L2\)/);
      assert.ok(
        readdirSync(join(s.home, 'run')).some((n) => n.includes('.retired-')),
        'moved out of service',
      );
      const next = await waitForWarmLook(s.home, (_, p) => p !== pid);
      assert.notEqual(next, pid);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    // Woken, it finds its directory retired and leaves.
    await gone(pid);
    await stop(s);
    assert.deepEqual(
      readdirSync(join(s.home, 'run')).filter((n) => n.startsWith('warm-look-')),
      [],
      'no pipes left behind',
    );
  });

  test('leaves after its idle time, and when SHIM_HOME is deleted', async () => {
    const s = session({ name: 'idle' });
    hook(s, payload(s, 'Read', respond(s, 'Read', 40_000)), { SHIM_WARM_LOOK_IDLE_MS: '300' });
    // Its log line says it left (and which process): under load it may come and go between two
    // looks for its pid, so the line is what is waited on.
    const left = await leftByItself(s.home);
    await gone(left);
    assert.equal(warmLookDirIn(s.home), null);

    const d = session({ name: 'deleted' });
    hook(d, payload(d, 'Read', respond(d, 'Read', 40_000)));
    const orphan = await waitForWarmLook(d.home);
    await waitForProcessesUnder(d.dir); // the first call's background checkpoint
    rmSync(d.home, { recursive: true, force: true });
    await gone(orphan);
    assert.equal(existsSync(d.home), false, 'leaving, it writes nothing back (the log neither)');
  });

  test('parallel calls: every hook answers, the level and its checkpoint once', async () => {
    const s = session({ name: 'parallel' });
    hook(s, payload(s, 'Read', respond(s, 'Read', 40_000)));
    await waitForWarmLook(s.home);
    // One response with twelve calls, their hooks all at once (Claude Code runs them in parallel).
    const calls = Array.from({ length: 12 }, () => respond(s, 'Read', 150_000));
    const outs = await Promise.all(calls.map((call) => hookAsync(s, payload(s, 'Read', call))));
    assert.equal(outs.filter((o) => /\(L2\)/.test(o)).length, 1, outs.join('\n'));
    await stop(s);
  });

  test('reads ahead: the transcript is folded as it is written, before any hook asks', async () => {
    const s = session({ name: 'ahead' });
    hook(s, payload(s, 'Read', respond(s, 'Read', 40_000)));
    await waitForWarmLook(s.home);
    // The warm look follows a transcript once it has answered a call about it: asked until it
    // has (a call that came while it was still starting was looked at by the hook itself).
    for (let asked = 1; ; asked++) {
      hook(s, payload(s, 'Read', respond(s, 'Read', 40_000 + asked * 1_000)));
      const answered = await waitForWarmLook(s.home, (st) => (st?.answered ?? 0) >= 1, 5_000).then(
        () => true,
        () => false,
      );
      if (answered) break;
      assert.ok(asked < 5, `the warm look answered none of ${asked} calls`);
    }
    respond(s, 'Read', 50_000);
    const size = statSync(s.transcript).size;
    const cursors = join(s.home, 'cache', 'cursors');
    const offset = () =>
      readdirSync(cursors)
        .map(
          (f) => (JSON.parse(readFileSync(join(cursors, f), 'utf8')) as { offset: number }).offset,
        )
        .reduce((a, b) => Math.max(a, b), 0);
    const deadline = Date.now() + 60_000;
    while (offset() < size) {
      assert.ok(
        Date.now() < deadline,
        `the cursor never reached the new response (${offset()} of ${size} bytes); shim's log:\n${logOf(s)}`,
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await stop(s);
  });

  test('warmLook: false, or a call about no session file, starts no process; a file planted as a pipe is never written', async () => {
    const off = session({ warmLook: false, name: 'off' });
    hook(off, payload(off, 'Read', respond(off, 'Read', 40_000)));
    hook(off, payload(off, 'Read', respond(off, 'Read', 150_000)));
    assert.equal(existsSync(join(off.home, 'run')), false);

    // A payload typed by hand (`shim hook --help`'s example) names a transcript that is not there.
    const typed = session({ name: 'typed' });
    const call = respond(typed, 'Read', 40_000);
    const noFile = JSON.parse(payload(typed, 'Read', call)) as Record<string, unknown>;
    noFile.transcript_path = join(typed.dir, 'not-written.jsonl');
    hook(typed, JSON.stringify(noFile));
    assert.equal(existsSync(join(typed.home, 'run')), false, 'no warm look started for it');

    // Regular files where the pipes belong (not shim's doing): the request, which carries the
    // hook's environment, must not land in a file.
    const s = session({ name: 'planted' });
    hook(s, payload(s, 'Read', respond(s, 'Read', 40_000)));
    const pid = await waitForWarmLook(s.home);
    const dir = warmLookDirIn(s.home)!;
    await stop(s);
    mkdirSync(dir, { mode: 0o700 });
    for (let slot = 0; slot < 8; slot++) {
      writeFileSync(join(dir, `req-${slot}`), '');
      writeFileSync(join(dir, `ans-${slot}`), '');
    }
    writeFileSync(join(dir, 'pid'), String(pid));
    // Kept by a second name: the process the call starts replaces the directory.
    const planted = readdirSync(dir)
      .filter((n) => /^(req|ans)-/.test(n))
      .map((n) => {
        linkSync(join(dir, n), join(s.dir, `planted-${n}`));
        return join(s.dir, `planted-${n}`);
      });
    const out = hook(s, payload(s, 'Read', respond(s, 'Read', 150_000)), { SECRET_ENV: 'x1y2z3' });
    assert.match(out, /\(L2\)/);
    for (const path of planted) assert.equal(readFileSync(path, 'utf8'), '', path);
    // The next start replaces what a dead process left.
    const next = await waitForWarmLook(s.home, (_, p) => p !== pid);
    assert.notEqual(next, pid);
    await stop(s);
  });
});
