import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { parseStreamLine } from '../agents/claude/stream-json.ts';
import { openTempStore, type TempStore } from '../../test/helpers/store.ts';
import { LoopRepository } from '../store/loop/loop-repository.ts';
import type { Loops } from '../store/ports/loops.ts';
import { IterationMonitor, type MonitorSignal } from './iteration-monitor.ts';
import { RunJournal } from './run-journal.ts';
import { StreamRecorder } from './stream-recorder.ts';

const THRESHOLD = { compactThreshold: 167_000, windowTokens: 200_000, detail: 'test' };
const RUN = 'run-recorder-1';

let store: TempStore;
let repo: LoopRepository;
beforeEach(() => {
  store = openTempStore();
  repo = new LoopRepository(store.db);
  repo.createRun({
    runId: RUN,
    createdAt: new Date(0).toISOString(),
    cwd: '/work/project',
    goal: 'make the tests pass',
    status: 'running',
    options: {},
  });
  repo.saveIteration({
    runId: RUN,
    number: 1,
    mode: 'fresh',
    prompt: 'go',
    startedAt: new Date(0).toISOString(),
  });
});
afterEach(() => store.dispose());

/**
 * A supervisor whose process ends right after its store saved the iteration's stream offset: the
 * offset write goes through, then the recording stops there, as a kill -9 would stop it.
 */
function killedAfterOffsetSave(): RunJournal {
  const updateIteration: Loops['updateIteration'] = (runId, number, patch) => {
    const row = repo.updateIteration(runId, number, patch);
    if (patch.streamOffset !== undefined) throw new Error('killed');
    return row;
  };
  const dying = new Proxy(repo, {
    get: (target, key) =>
      key === 'updateIteration'
        ? updateIteration
        : (Reflect.get(target, key) as unknown) instanceof Function
          ? (Reflect.get(target, key) as (...args: unknown[]) => unknown).bind(target)
          : Reflect.get(target, key),
  });
  return new RunJournal(
    { store: { loops: dying }, home: store.home, now: Date.now },
    repo.getRun(RUN)!,
  );
}

function recorderFor(journal: RunJournal): StreamRecorder {
  const monitor = new IterationMonitor(70, () => THRESHOLD, null, parseStreamLine);
  return new StreamRecorder(journal, repo.getIteration(RUN, 1)!, monitor, {});
}

describe('StreamRecorder: what a line tells is written before the offset past it', () => {
  test("the agent's session: the run keeps it when the supervisor dies at the offset", () => {
    const journal = killedAfterOffsetSave();
    const signal: MonitorSignal = {
      kind: 'session',
      sessionId: 'sess-1',
      model: 'claude-test',
      cliVersion: '2.1.332',
    };
    assert.throws(() => recorderFor(journal).record(signal, 120), /killed/);
    journal.close();
    // A resumed supervisor follows from the saved offset: past this line, never re-read. The run
    // must already hold the session that --resume continues.
    assert.equal(repo.getIteration(RUN, 1)!.streamOffset, 120);
    assert.equal(repo.getRun(RUN)!.sessionId, 'sess-1');
  });

  test('a context reading: the run row has it when the supervisor dies at the offset', () => {
    const journal = killedAfterOffsetSave();
    const signal: MonitorSignal = {
      kind: 'context',
      tokens: 90_000,
      percent: 53.9,
      crossed: false,
    };
    assert.throws(() => recorderFor(journal).record(signal, 480), /killed/);
    journal.close();
    assert.equal(repo.getIteration(RUN, 1)!.streamOffset, 480);
    assert.equal(repo.getRun(RUN)!.contextTokens, 90_000);
  });
});
