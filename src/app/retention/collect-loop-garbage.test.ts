import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { createStore } from '../open-store.ts';
import { AppError } from '../../core/errors.ts';
import { openTempStore, type TempStore } from '../../../test/helpers/store.ts';
import {
  getCompressedEventsPath,
  getEventsPath,
  getRunDir,
  RunEventLog,
} from '../../store/loop/loop-event-log.ts';
import { readRunEvents } from '../../store/loop/loop-event-reader.ts';
import { LoopRepository } from '../../store/loop/loop-repository.ts';
import type { LoopRunStatus } from '../../store/ports/loops.ts';
import { describeLoopGarbage } from '../../cli/format/loop-garbage-text.ts';
import { collectLoopGarbage } from './collect-loop-garbage.ts';

const DAY = 86_400_000;
const NOW = Date.parse('2026-03-31T12:00:00.000Z');
const daysAgo = (days: number) => new Date(NOW - days * DAY).toISOString();

let store: TempStore;
let repo: LoopRepository;
beforeEach(() => {
  store = openTempStore();
  repo = new LoopRepository(store.db);
});
afterEach(() => store.dispose());

/** A run with a log of 6 events (3 context_usage), two streams and two summaries. */
function makeRun(
  runId: string,
  fields: {
    status: LoopRunStatus;
    endedDaysAgo?: number | null;
    updatedDaysAgo?: number;
    pid?: number | null;
  },
): string {
  repo.createRun({
    runId,
    createdAt: daysAgo(60),
    cwd: '/work/project',
    goal: 'g',
    status: fields.status,
    options: {},
    supervisorPid: fields.pid ?? null,
  });
  const log = RunEventLog.open(store.home, runId, new LoopRepository(store.db));
  log.append('loop.started', { goal: 'g' });
  for (let i = 1; i <= 3; i++) {
    log.append('loop.context_usage', { tokens: i * 1000, pad: 'x'.repeat(2000) }, { iteration: 1 });
    log.append('loop.tool_call', { tool: 'Bash' }, { iteration: 1 });
  }
  log.close();
  const dir = getRunDir(store.home, runId);
  writeFileSync(join(dir, 'iteration-1.stdout.jsonl'), 'y'.repeat(10_000));
  writeFileSync(join(dir, 'iteration-1.stderr.log'), 'oops\n');
  writeFileSync(join(dir, 'summary.md'), '# summary\n');
  writeFileSync(join(dir, 'summary-2.md'), '# summary 2\n');
  repo.updateRun(runId, {
    endedAt: fields.endedDaysAgo == null ? null : daysAgo(fields.endedDaysAgo),
    updatedAt: daysAgo(fields.updatedDaysAgo ?? fields.endedDaysAgo ?? 0),
  });
  return dir;
}

function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ['-e', '0']);
  assert.ok(pid);
  return pid;
}

const names = (runId: string) => repo.listEvents(runId).map((e) => e.name);

describe('collectLoopGarbage', () => {
  test('compacts finished runs after hotDays, deletes them after retentionDays, spares live ones', () => {
    makeRun('hot', { status: 'completed', endedDaysAgo: 3 });
    const coldDir = makeRun('cold', { status: 'completed', endedDaysAgo: 10 });
    const oldDir = makeRun('old', { status: 'failed', endedDaysAgo: 40 });
    makeRun('live', { status: 'running', updatedDaysAgo: 40, pid: process.pid });
    makeRun('dead-supervisor', { status: 'running', updatedDaysAgo: 12, pid: deadPid() });
    makeRun('no-pid', { status: 'waiting', updatedDaysAgo: 40, pid: null });
    const coldEvents = readRunEvents(store.home, 'cold');

    const result = collectLoopGarbage({ store: createStore(store.db), home: store.home, now: NOW });
    assert.deepEqual(result.compacted.sort(), ['cold', 'dead-supervisor']);
    assert.deepEqual(result.deleted, ['old']);
    assert.ok(result.freedBytes > 2 * 10_000);

    // cold: the log gzipped, streams gone, summaries kept, context_usage rows dropped.
    assert.deepEqual(readdirSync(coldDir).sort(), [
      'events.jsonl.gz',
      'summary-2.md',
      'summary.md',
    ]);
    assert.deepEqual(readRunEvents(store.home, 'cold'), coldEvents);
    assert.deepEqual(names('cold'), [
      'loop.started',
      'loop.tool_call',
      'loop.tool_call',
      'loop.tool_call',
    ]);
    const cold = repo.getRun('cold')!;
    assert.equal(cold.compactedAt, new Date(NOW).toISOString());
    assert.equal(cold.updatedAt, daysAgo(10));

    // old: gone entirely.
    assert.ok(!existsSync(oldDir));
    assert.equal(repo.getRun('old'), null);
    assert.deepEqual(repo.listEvents('old'), []);

    // untouched
    for (const runId of ['hot', 'live', 'no-pid']) {
      assert.ok(existsSync(getEventsPath(store.home, runId)), runId);
      assert.equal(repo.getRun(runId)?.compactedAt, null, runId);
      assert.equal(names(runId).length, 7, runId);
    }

    // A second pass has nothing left to do.
    assert.deepEqual(
      collectLoopGarbage({ store: createStore(store.db), home: store.home, now: NOW }),
      {
        compacted: [],
        deleted: [],
        freedBytes: 0,
      },
    );
    // …until the compacted run ages past the retention.
    const later = collectLoopGarbage({
      store: createStore(store.db),
      home: store.home,
      now: NOW + 28 * DAY,
    });
    assert.deepEqual(later.deleted.sort(), ['cold', 'dead-supervisor', 'hot']);
    assert.ok(!existsSync(coldDir));
  });

  test('dryRun reports the same and changes nothing', () => {
    const coldDir = makeRun('cold', { status: 'stopped', endedDaysAgo: 10 });
    const oldDir = makeRun('old', { status: 'interrupted', endedDaysAgo: 31 });
    const before = readdirSync(coldDir).sort();
    const dry = collectLoopGarbage({
      store: createStore(store.db),
      home: store.home,
      now: NOW,
      dryRun: true,
    });
    assert.deepEqual(dry.compacted, ['cold']);
    assert.deepEqual(dry.deleted, ['old']);
    assert.deepEqual(readdirSync(coldDir).sort(), before);
    assert.ok(existsSync(oldDir));
    assert.equal(names('cold').length, 7);
    assert.equal(repo.getRun('cold')?.compactedAt, null);
    assert.match(describeLoopGarbage(dry, true), /would compact 1 run, would delete 1 run/);

    const real = collectLoopGarbage({ store: createStore(store.db), home: store.home, now: NOW });
    assert.deepEqual(real.compacted, dry.compacted);
    assert.deepEqual(real.deleted, dry.deleted);
    assert.equal(real.freedBytes, dry.freedBytes);
    assert.match(describeLoopGarbage(real), /^loop runs: compacted 1 run, deleted 1 run, freed/);
    assert.equal(
      describeLoopGarbage({ compacted: [], deleted: [], freedBytes: 0 }),
      'loop runs: nothing to collect',
    );
  });

  test('an interrupted compaction (both logs present) is finished by the next pass', () => {
    const dir = makeRun('cold', { status: 'completed', endedDaysAgo: 10 });
    const events = readRunEvents(store.home, 'cold');
    // Killed after writing the .gz, before removing the plain log and marking the run.
    writeFileSync(
      getCompressedEventsPath(store.home, 'cold'),
      gzipSync(readFileSync(getEventsPath(store.home, 'cold'))),
    );
    const result = collectLoopGarbage({ store: createStore(store.db), home: store.home, now: NOW });
    assert.deepEqual(result.compacted, ['cold']);
    assert.ok(!existsSync(getEventsPath(store.home, 'cold')));
    assert.deepEqual(readRunEvents(store.home, 'cold'), events);
    assert.deepEqual(readdirSync(dir).sort(), ['events.jsonl.gz', 'summary-2.md', 'summary.md']);
  });

  test('a compacted run that was resumed (plain log again) is compacted again later', () => {
    makeRun('cold', { status: 'interrupted', endedDaysAgo: 10 });
    collectLoopGarbage({ store: createStore(store.db), home: store.home, now: NOW });
    const log = RunEventLog.open(store.home, 'cold', new LoopRepository(store.db));
    assert.equal(log.restoredFromCompressed, true);
    log.append('loop.resumed', {});
    log.close();
    repo.updateRun('cold', { status: 'stopped', endedAt: daysAgo(8) });
    const result = collectLoopGarbage({ store: createStore(store.db), home: store.home, now: NOW });
    assert.deepEqual(result.compacted, ['cold']);
    assert.deepEqual(
      readRunEvents(store.home, 'cold').map((e) => e.seq),
      [1, 2, 3, 4, 5, 6, 7, 8],
    );
    assert.ok(!existsSync(getEventsPath(store.home, 'cold')));
  });

  test('orphan run directories are removed once older than the retention', () => {
    const old = join(store.home, 'loops', 'orphan-old');
    const fresh = join(store.home, 'loops', 'orphan-new');
    for (const dir of [old, fresh]) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'events.jsonl'), '{}\n');
    }
    const past = new Date(NOW - 40 * DAY);
    utimesSync(old, past, past);
    const result = collectLoopGarbage({ store: createStore(store.db), home: store.home, now: NOW });
    assert.deepEqual(result.deleted, ['orphan-old']);
    assert.ok(!existsSync(old));
    assert.ok(existsSync(fresh));
  });

  test('rejects negative or non-numeric days', () => {
    for (const bad of [-1, Number.NaN])
      assert.throws(
        () =>
          collectLoopGarbage({
            store: createStore(store.db),
            home: store.home,
            now: NOW,
            retentionDays: bad,
          }),
        (error: unknown) => error instanceof AppError && error.code === 'USAGE',
      );
  });
});
