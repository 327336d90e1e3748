import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { AppError } from '../../core/errors.ts';
import { openTempStore, type TempStore } from '../../../test/helpers/store.ts';
import { LoopRepository } from './loop-repository.ts';
import { LOOP_EVENT_DATA_MAX, parseEventData, truncateEventData } from './loop-rows.ts';
import type { LoopEventRecord, NewLoopRun } from '../ports/loops.ts';

let store: TempStore;
let repo: LoopRepository;
beforeEach(() => {
  store = openTempStore();
  repo = new LoopRepository(store.db);
});
afterEach(() => store.dispose());

const at = (minute: number) => new Date(Date.UTC(2026, 2, 1, 12, minute)).toISOString();

function newRun(overrides: Partial<NewLoopRun> = {}): NewLoopRun {
  return {
    runId: 'run-aaaa-1',
    createdAt: at(0),
    cwd: '/work/project',
    goal: 'make the tests pass',
    status: 'running',
    options: { maxIterations: 10, contextThreshold: 70 },
    ...overrides,
  };
}

function event(runId: string, seq: number, overrides: Partial<LoopEventRecord> = {}) {
  return {
    runId,
    seq,
    at: at(seq),
    name: 'loop.tool_call',
    iteration: 1,
    correlationId: null,
    fileOffset: seq * 100,
    data: JSON.stringify({ tool: 'Bash', seq }),
    ...overrides,
  } satisfies LoopEventRecord;
}

describe('LoopRepository runs', () => {
  test('createRun fills defaults and getRun reads the record back with JSON parsed', () => {
    const created = repo.createRun(newRun({ state: { phase: 'tests' }, supervisorPid: 42 }));
    assert.equal(created.updatedAt, at(0));
    assert.equal(created.iteration, 0);
    assert.equal(created.costUsd, 0);
    assert.deepEqual(repo.getRun('run-aaaa-1'), created);
    assert.deepEqual(created.options, { maxIterations: 10, contextThreshold: 70 });
    assert.deepEqual(created.state, { phase: 'tests' });
    assert.equal(created.supervisorPid, 42);
    assert.equal(repo.getRun('nope'), null);
  });

  test('updateRun changes only the given fields and sets updated_at', () => {
    repo.createRun(newRun({ sessionId: 'session-1', state: { a: 1 } }));
    const updated = repo.updateRun('run-aaaa-1', {
      status: 'waiting',
      iteration: 3,
      costUsd: 1.25,
      contextPercent: 61.5,
      waitUntil: at(90),
      state: { b: [1, 2] },
      stopReason: undefined,
    });
    assert.ok(updated);
    assert.equal(updated.status, 'waiting');
    assert.equal(updated.iteration, 3);
    assert.equal(updated.costUsd, 1.25);
    assert.equal(updated.contextPercent, 61.5);
    assert.equal(updated.waitUntil, at(90));
    assert.deepEqual(updated.state, { b: [1, 2] });
    assert.equal(updated.sessionId, 'session-1');
    assert.equal(updated.goal, 'make the tests pass');
    assert.ok(updated.updatedAt > at(0));

    const cleared = repo.updateRun('run-aaaa-1', {
      state: null,
      sessionId: null,
      updatedAt: at(5),
    });
    assert.equal(cleared?.state, null);
    assert.equal(cleared?.sessionId, null);
    assert.equal(cleared?.updatedAt, at(5));
    assert.equal(repo.updateRun('nope', { status: 'failed' }), null);
  });

  test('findRun resolves a unique prefix, returns null for none, refuses an ambiguous one', () => {
    repo.createRun(newRun({ runId: 'abc123', createdAt: at(1) }));
    repo.createRun(newRun({ runId: 'abd456', createdAt: at(2) }));
    repo.createRun(newRun({ runId: 'ab', createdAt: at(3) }));
    assert.equal(repo.findRun('abc')?.runId, 'abc123');
    assert.equal(repo.findRun('abd456')?.runId, 'abd456');
    // An exact id wins over the longer ids it is a prefix of.
    assert.equal(repo.findRun('ab')?.runId, 'ab');
    assert.equal(repo.findRun('zz'), null);
    assert.equal(repo.findRun('a%'), null);
    assert.throws(
      () => repo.findRun('a'),
      (error: unknown) => {
        assert.ok(error instanceof AppError);
        assert.equal(error.code, 'USAGE');
        assert.match(error.message, /abc123/);
        assert.match(error.message, /abd456/);
        assert.match(error.hint ?? '', /more characters/);
        return true;
      },
    );
  });

  test('listRuns and latestRun: newest first, by cwd, by status', () => {
    repo.createRun(newRun({ runId: 'r1', createdAt: at(1), cwd: '/a', status: 'completed' }));
    repo.createRun(newRun({ runId: 'r2', createdAt: at(2), cwd: '/b', status: 'interrupted' }));
    repo.createRun(newRun({ runId: 'r3', createdAt: at(3), cwd: '/a', status: 'failed' }));
    assert.deepEqual(
      repo.listRuns().map((r) => r.runId),
      ['r3', 'r2', 'r1'],
    );
    assert.deepEqual(
      repo.listRuns({ cwd: '/a' }).map((r) => r.runId),
      ['r3', 'r1'],
    );
    assert.deepEqual(
      repo.listRuns({ limit: 1 }).map((r) => r.runId),
      ['r3'],
    );
    assert.equal(repo.latestRun()?.runId, 'r3');
    assert.equal(repo.latestRun({ cwd: '/b' })?.runId, 'r2');
    assert.equal(repo.latestRun({ statuses: ['completed', 'interrupted'] })?.runId, 'r2');
    assert.equal(repo.latestRun({ cwd: '/a', statuses: ['interrupted'] }), null);
    assert.equal(repo.latestRun({ statuses: [] }), null);
  });
});

describe('LoopRepository iterations', () => {
  test('saveIteration upserts, updateIteration patches, getIterations orders by number', () => {
    repo.createRun(newRun());
    const first = repo.saveIteration({
      runId: 'run-aaaa-1',
      number: 1,
      mode: 'fresh',
      prompt: 'goal…',
      startedAt: at(1),
      agentPid: 1234,
    });
    assert.equal(first.responses, 0);
    assert.equal(first.streamOffset, 0);
    assert.equal(first.endedAt, null);
    repo.saveIteration({
      runId: 'run-aaaa-1',
      number: 2,
      mode: 'continue',
      prompt: 'go on',
      startedAt: at(2),
    });
    // Upsert: the same number again replaces the row.
    repo.saveIteration({ ...first, sessionId: 'session-1', responses: 4 });
    assert.equal(repo.getIteration('run-aaaa-1', 1)?.sessionId, 'session-1');
    assert.equal(repo.getIteration('run-aaaa-1', 1)?.responses, 4);

    const patched = repo.updateIteration('run-aaaa-1', 1, {
      endedAt: at(3),
      outcome: 'context_exhaustion',
      exitCode: 0,
      costUsd: 0.5,
      peakContextTokens: 140_000,
      peakPercent: 70.2,
      streamOffset: 98_765,
      resultText: 'done',
      checkpointId: 'cp-1',
    });
    assert.equal(patched?.outcome, 'context_exhaustion');
    assert.equal(patched?.agentPid, 1234);
    assert.equal(patched?.responses, 4);
    assert.equal(patched?.streamOffset, 98_765);
    assert.equal(repo.updateIteration('run-aaaa-1', 9, { outcome: 'x' }), null);
    assert.deepEqual(
      repo.getIterations('run-aaaa-1').map((i) => [i.number, i.mode]),
      [
        [1, 'fresh'],
        [2, 'continue'],
      ],
    );
    assert.equal(repo.getIteration('run-aaaa-1', 3), null);
  });
});

describe('LoopRepository events', () => {
  test('indexEvents ignores duplicates, cuts data, and listEvents filters', () => {
    repo.createRun(newRun());
    const big = JSON.stringify({ text: 'x'.repeat(5000) });
    assert.equal(
      repo.indexEvents([
        event('run-aaaa-1', 1, { name: 'loop.started', iteration: null }),
        event('run-aaaa-1', 2, { name: 'loop.context_usage', data: big }),
        event('run-aaaa-1', 3),
        event('run-aaaa-1', 4, { iteration: 2, correlationId: 'c-1' }),
      ]),
      4,
    );
    assert.equal(repo.indexEvents([event('run-aaaa-1', 3), event('run-aaaa-1', 5)]), 1);
    assert.equal(repo.maxIndexedSeq('run-aaaa-1'), 5);
    assert.equal(repo.maxIndexedSeq('other'), 0);

    const all = repo.listEvents('run-aaaa-1');
    assert.deepEqual(
      all.map((e) => e.seq),
      [1, 2, 3, 4, 5],
    );
    assert.equal(all[1]!.data?.length, LOOP_EVENT_DATA_MAX);
    assert.equal(parseEventData(all[1]!), null);
    assert.deepEqual(parseEventData(all[2]!), { tool: 'Bash', seq: 3 });
    assert.equal(all[3]!.correlationId, 'c-1');
    assert.equal(all[0]!.iteration, null);
    assert.deepEqual(
      repo.listEvents('run-aaaa-1', { afterSeq: 2, limit: 2 }).map((e) => e.seq),
      [3, 4],
    );
    assert.deepEqual(
      repo
        .listEvents('run-aaaa-1', { names: ['loop.started', 'loop.context_usage'] })
        .map((e) => e.seq),
      [1, 2],
    );
    assert.deepEqual(
      repo.listEvents('run-aaaa-1', { iteration: 2 }).map((e) => e.seq),
      [4],
    );
    assert.deepEqual(repo.listEvents('run-aaaa-1', { names: [] }), []);
  });

  test('truncateEventData never splits a surrogate pair', () => {
    const text = `${'a'.repeat(LOOP_EVENT_DATA_MAX - 1)}😀`;
    assert.equal(truncateEventData(text), 'a'.repeat(LOOP_EVENT_DATA_MAX - 1));
    assert.equal(truncateEventData('{}'), '{}');
    assert.equal(truncateEventData(null), null);
  });

  test('markCompacted drops the named rows and keeps updated_at; deleteRun removes everything', () => {
    repo.createRun(newRun());
    repo.createRun(newRun({ runId: 'other' }));
    repo.saveIteration({
      runId: 'run-aaaa-1',
      number: 1,
      mode: 'fresh',
      prompt: 'p',
      startedAt: at(1),
    });
    repo.indexEvents([
      event('run-aaaa-1', 1, { name: 'loop.context_usage' }),
      event('run-aaaa-1', 2),
      event('other', 1, { name: 'loop.context_usage' }),
    ]);
    const before = repo.getRun('run-aaaa-1')!;
    assert.equal(repo.markCompacted('run-aaaa-1', at(50), ['loop.context_usage']), 1);
    const after = repo.getRun('run-aaaa-1')!;
    assert.equal(after.compactedAt, at(50));
    assert.equal(after.updatedAt, before.updatedAt);
    assert.deepEqual(
      repo.listEvents('run-aaaa-1').map((e) => e.seq),
      [2],
    );
    assert.equal(repo.listEvents('other').length, 1);

    assert.equal(repo.deleteRun('run-aaaa-1'), true);
    assert.equal(repo.getRun('run-aaaa-1'), null);
    assert.deepEqual(repo.getIterations('run-aaaa-1'), []);
    assert.deepEqual(repo.listEvents('run-aaaa-1'), []);
    assert.equal(repo.deleteRun('run-aaaa-1'), false);
    assert.ok(repo.getRun('other'));
  });
});
