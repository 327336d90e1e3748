/**
 * `shim loop logs --follow` on a run that ended between the moment its row was read (running) and
 * the moment its log was: the end is among the events read, so the follow must end there.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import { LoopRepository } from '../../src/store/loop/loop-repository.ts';
import { RunEventLog } from '../../src/store/loop/loop-event-log.ts';
import { BIN } from '../helpers/cli.ts';
import { makeTempDir } from '../helpers/fixtures.ts';

test('a run whose log already holds its end: --follow prints it and ends', () => {
  const home = join(makeTempDir('shim-follow-'), 'home');
  const db = openDatabase(home);
  const repo = new LoopRepository(db);
  const runId = 'run-follow-1';
  // The row still says running, supervised by a live shim-like process (this test's own): as a
  // follower sees it in the instant before the supervisor writes the run's end into the row.
  repo.createRun({
    runId,
    createdAt: new Date().toISOString(),
    cwd: home,
    goal: 'Write the report',
    status: 'running',
    options: {},
    supervisorPid: process.pid,
  });
  const log = RunEventLog.open(home, runId, repo);
  log.append('loop.started', { goal: 'Write the report' });
  log.append('loop.completed', { reason: 'the agent reported completion' });
  log.close();
  db.close();
  const follow = spawnSync(process.execPath, [BIN, 'loop', 'logs', runId, '--follow'], {
    env: { ...process.env, SHIM_HOME: home },
    encoding: 'utf8',
    timeout: 30_000, // a follow that never ends is the failure: killed here, it fails below
  });
  assert.equal(follow.signal, null, 'the follow ended by itself');
  assert.equal(follow.status, 0, follow.stderr);
  assert.match(follow.stdout, /started/);
  assert.match(follow.stdout, /completed/);
});
