/**
 * The warm look (src/hook/warm-look/) killed with SIGKILL in the middle of the call that crosses
 * into a level: the level's checkpoint, which the process had claimed but not stored (L2, L3) or
 * started (L1, built in the background) yet, must still be taken — by the hook, which then looks
 * in its own process — and the level told with it. The kill lands the moment the process takes
 * the claim (seen by inotify on the hooks' memory directory), before the work it guards is done.
 */
import assert from 'node:assert/strict';
import { watch } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runShim } from './helpers/cli.ts';
import { waitForProcessesUnder } from './helpers/processes.ts';
import { SESSION_ID } from './helpers/transcript-builders.ts';
import {
  hook,
  hookAsync,
  payload,
  respond,
  session,
  stop,
  waitForWarmLook,
} from './helpers/warm-look.ts';

type Row = { triggeredBy: string };

describe('the warm look killed at a level', () => {
  for (const [level, context, trigger] of [
    ['L1', 120_000, 'warning_zone'],
    ['L2', 150_000, 'danger_zone'],
    ['L3', 162_000, 'danger_zone'],
  ] as const) {
    test(`killed as it claims ${level}'s checkpoint: the hook takes it and says so`, async () => {
      const s = session({ name: `kill-${level}` });
      hook(s, payload(s, 'Read', respond(s, 'Read', 40_000)));
      const pid = await waitForWarmLook(s.home);
      await waitForProcessesUnder(s.dir); // the first call's background checkpoint
      let killed = false;
      const watcher = watch(join(s.home, 'cache', 'hooks'), (_, name) => {
        if (!killed && name && name.endsWith(`-${trigger}`) && name.includes('.ckpt-')) {
          killed = true;
          process.kill(pid, 'SIGKILL');
        }
      });
      let out: string;
      try {
        out = await hookAsync(s, payload(s, 'Read', respond(s, 'Read', context)));
      } finally {
        watcher.close();
      }
      assert.ok(killed, 'the warm look took the claim');
      assert.match(out, new RegExp(`\\(${level}\\)`));
      // L1's checkpoint is built in the background; L2's and L3's before the answer.
      assert.match(out, level === 'L1' ? /A checkpoint is being saved/ : /Checkpoint #\d+ saved/);
      await waitForProcessesUnder(s.dir);
      const rows = JSON.parse(
        runShim(s.home, ['list', '--session', SESSION_ID, '--json'], { cwd: s.dir }).stdout,
      ) as Row[];
      const stored = rows.filter((r) => r.triggeredBy === trigger).length;
      // Taken, by the hook if not before. The kill is sent when the claim file appears, but
      // lands when this process gets to it: on a loaded machine that can be after the warm look
      // stored the checkpoint (L2, L3) or started it (L1) and before it settled the claim, and
      // the hook, finding the claim of a dead owner, takes it again: twice, nothing lost (a
      // claim file and a store row cannot be written as one; seen at load ~15, 2026-11-29).
      assert.ok(stored === 1 || stored === 2, `stored ${stored}×`);
      await stop(s);
    });
  }

  // The notice is decided after the checkpoint: killed once it has claimed it, and before its
  // answer is out, the warm look has told nobody — the hook, looking itself, tells it.
  test("killed as it claims L1's notice: the hook tells it", async () => {
    const s = session({ name: 'kill-notice' });
    hook(s, payload(s, 'Read', respond(s, 'Read', 40_000)));
    const pid = await waitForWarmLook(s.home);
    await waitForProcessesUnder(s.dir);
    let killed = false;
    const watcher = watch(join(s.home, 'cache', 'hooks'), (_, name) => {
      if (!killed && name && name.includes('.alert-') && name.includes('-L1')) {
        killed = true;
        process.kill(pid, 'SIGKILL');
      }
    });
    let out: string;
    try {
      out = await hookAsync(s, payload(s, 'Read', respond(s, 'Read', 120_000)));
    } finally {
      watcher.close();
    }
    assert.ok(killed, 'the warm look took the claim');
    assert.match(out, /\(L1\)/);
    await waitForProcessesUnder(s.dir);
    await stop(s);
  });
});
