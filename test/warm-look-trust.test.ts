/**
 * What the warm look (src/hook/warm-look/) may trust under SHIM_HOME/run: a PostToolUse hook hands
 * it its whole environment and prints its answer to the model, so a directory of pipes another
 * process holds — planted as a link, as run/ itself, owned by another user, open to all — must
 * never be written to or answered from. A pid file whose pid was reused must not keep the warm
 * look off. Each case runs `shim hook PostToolUse` as Claude Code does.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runShim } from './helpers/cli.ts';
import { foreignPipes } from './helpers/foreign-pipes.ts';
import { endWarmLooksUnder } from './helpers/processes.ts';
import {
  doctorSays,
  gone,
  hook,
  payload,
  respond,
  session,
  stop,
  waitForWarmLook,
  warmLookName,
  type Session,
} from './helpers/warm-look.ts';

/** Root can hand a directory to another user; elsewhere those cases are skipped. */
const ROOT = process.getuid?.() === 0;
const NOBODY = 65534;

/** A call at L2 with a secret in the hook's environment; its stdout. */
function levelCall(s: Session): string {
  return hook(s, payload(s, 'Read', respond(s, 'Read', 150_000)), {
    SHIM_TEST_API_KEY: 'sk-test-4f9a1c2e7b',
  });
}

function assertUntouched(out: string, captured: string): void {
  assert.doesNotMatch(out, /INJECTED/, 'an answer taken from pipes shim did not make');
  assert.match(out, /\(L2\)/, "the hook's own answer");
  assert.equal(existsSync(captured) ? readFileSync(captured, 'utf8') : '', '', 'written to');
}

describe('the warm look trusts only its own directories', () => {
  test('run/warm-look-<build> a link to another process’s pipes: never asked, moved aside', async () => {
    const s = session({ name: 'link' });
    const name = await warmLookName(s);
    const { child, captured } = await foreignPipes(join(s.dir, 'elsewhere'));
    try {
      symlinkSync(join(s.dir, 'elsewhere'), join(s.home, 'run', name));
      assertUntouched(levelCall(s), captured);
      // The process that call started moved the link aside (not into it) and serves.
      const pid = await waitForWarmLook(s.home);
      assert.notEqual(pid, child.pid);
      assert.ok(readdirSync(join(s.home, 'run')).some((n) => n.startsWith(`${name}.foreign-`)));
      hook(s, payload(s, 'Read', respond(s, 'Read', 151_000)));
      await waitForWarmLook(s.home, (stats) => (stats?.answered ?? 0) >= 1);
      assert.equal(existsSync(captured) ? readFileSync(captured, 'utf8') : '', '');
    } finally {
      child.kill('SIGKILL');
      await stop(s);
    }
  });

  test('run/ itself a link: never asked, nothing written there, doctor says so', async () => {
    const s = session({ name: 'runlink' });
    const name = await warmLookName(s);
    const elsewhere = join(s.dir, 'other-run');
    const { child, captured } = await foreignPipes(join(elsewhere, name));
    try {
      renameSync(join(s.home, 'run'), join(s.dir, 'old-run'));
      symlinkSync(elsewhere, join(s.home, 'run'));
      assertUntouched(levelCall(s), captured);
      const next = hook(s, payload(s, 'Read', respond(s, 'Read', 152_000)));
      assert.doesNotMatch(next, /INJECTED/);
      assert.deepEqual(readdirSync(elsewhere), [name], 'no mark, no staging made there');
      assert.match(doctorSays(s), /^not used: .*\/run is a symbolic link/);
    } finally {
      child.kill('SIGKILL');
      await endWarmLooksUnder(s.home);
    }
  });

  test('run/ made open to all beforehand is owner-only once the warm look starts', async () => {
    const s = session({ name: 'loose' });
    mkdirSync(join(s.home, 'run'), { mode: 0o777 });
    chmodSync(join(s.home, 'run'), 0o777);
    hook(s, payload(s, 'Read', respond(s, 'Read', 40_000)));
    await waitForWarmLook(s.home);
    assert.equal(statSync(join(s.home, 'run')).mode & 0o777, 0o700);
    await stop(s);
  });

  test(
    'a directory of another user’s in run/: never asked',
    { skip: ROOT ? false : 'needs root to hand a directory to another user' },
    async () => {
      const s = session({ name: 'foreign' });
      const name = await warmLookName(s);
      const dir = join(s.home, 'run', name);
      const { child, captured } = await foreignPipes(dir);
      try {
        chownSync(dir, NOBODY, NOBODY);
        assertUntouched(levelCall(s), captured);
      } finally {
        child.kill('SIGKILL');
        await stop(s);
        // The call may start a warm look beside the foreign directory, which stop() does not see.
        await endWarmLooksUnder(s.home);
      }
    },
  );

  test(
    'doctor: a SHIM_HOME owned by another user is not “writable and owner-only”',
    { skip: ROOT ? false : 'needs root to hand a directory to another user' },
    () => {
      const s = session({ name: 'home-owner' });
      chmodSync(s.home, 0o700);
      chownSync(s.home, NOBODY, NOBODY);
      const r = runShim(s.home, ['doctor', '--json'], { cwd: s.dir });
      const home = (
        JSON.parse(r.stdout) as { checks: { id: string; status: string; detail: string }[] }
      ).checks.find((c) => c.id === 'home')!;
      assert.equal(home.status, 'fail');
      assert.match(home.detail, /owned by uid 65534, not by you/);
    },
  );

  test('a stale directory whose pid was reused: taken over, doctor tells no pid that serves nothing', async () => {
    const s = session({ name: 'reused' });
    const name = await warmLookName(s);
    // What a machine's restart leaves: the pipes, no process holding them, a pid file naming
    // a pid in use by something else since (here: pid 1, and this test's own process).
    for (const [pid, context] of [
      [1, 125_000],
      [process.pid, 150_000],
    ] as const) {
      const dir = join(s.home, 'run', name);
      mkdirSync(dir, { mode: 0o700 });
      execFileSync('mkfifo', ['-m', '600', join(dir, 'req-0'), join(dir, 'ans-0')]);
      writeFileSync(join(dir, 'pid'), String(pid));
      assert.match(doctorSays(s), /^not running/);
      // A call that crosses a level: a full look, which starts the warm look where none serves.
      hook(s, payload(s, 'Read', respond(s, 'Read', context)));
      const serving = await waitForWarmLook(s.home);
      assert.notEqual(serving, pid);
      assert.match(doctorSays(s), new RegExp(`^running \\(pid ${serving},`));
      await stop(s);
      await gone(serving);
    }
  });
});
