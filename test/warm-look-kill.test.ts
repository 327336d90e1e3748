/**
 * The warm look (src/hook/warm-look/) killed with SIGKILL in the middle of the call that crosses
 * into a level: the level's checkpoint, which the process had claimed but not stored yet, must
 * still be stored — by the hook, which then looks in its own process — and the level told with
 * it. The kill lands the moment the process takes the claim (seen by inotify on the hooks'
 * memory directory), before the checkpoint it guards is written.
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
  for (const [level, context] of [
    ['L2', 150_000],
    ['L3', 162_000],
  ] as const) {
    test(`killed as it stores ${level}'s checkpoint: the hook stores it and says so`, async () => {
      const s = session({ name: `kill-${level}` });
      hook(s, payload(s, 'Read', respond(s, 'Read', 40_000)));
      const pid = await waitForWarmLook(s.home);
      await waitForProcessesUnder(s.dir); // the first call's background checkpoint
      let killed = false;
      const watcher = watch(join(s.home, 'cache', 'hooks'), (_, name) => {
        if (!killed && name && /ckpt-.*danger_zone$/.test(name)) {
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
      assert.match(out, /Checkpoint #\d+ saved/);
      const rows = JSON.parse(
        runShim(s.home, ['list', '--session', SESSION_ID, '--json'], { cwd: s.dir }).stdout,
      ) as Row[];
      assert.equal(rows.filter((r) => r.triggeredBy === 'danger_zone').length, 1, 'stored once');
      await waitForProcessesUnder(s.dir);
      await stop(s);
    });
  }
});
