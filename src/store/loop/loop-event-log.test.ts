import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import {
  collectWriter,
  openTempStore,
  REPO_ROOT,
  type TempStore,
} from '../../../test/helpers/store.ts';
import { compiledScript } from '../../../test/helpers/script-process.ts';
import { openDatabase } from '../sqlite/database.ts';
import { getLogPath } from '../home/log.ts';
import { LoopRepository } from './loop-repository.ts';
import { LOOP_EVENT_DATA_MAX } from './loop-rows.ts';
import {
  getCompressedEventsPath,
  getEventsPath,
  getRunDir,
  LOOP_EVENT_NAMES,
  RunEventLog,
  type LoopEvent,
} from './loop-event-log.ts';
import { followRunEvents, readRunEvents } from './loop-event-reader.ts';

let store: TempStore;
beforeEach(() => {
  store = openTempStore();
});
afterEach(() => store.dispose());

const RUN = 'run-0001';

function seqs(events: readonly { seq: number }[]): number[] {
  return events.map((e) => e.seq);
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

function writeThree(): void {
  const log = RunEventLog.open(store.home, RUN, new LoopRepository(store.db));
  log.append('loop.started', { goal: 'g' });
  log.append('loop.iteration_started', { mode: 'fresh' }, { iteration: 1, correlationId: 'c1' });
  log.append('loop.context_usage', { percent: 12.5 }, { iteration: 1 });
  log.close();
}

describe('RunEventLog', () => {
  test('appends one JSON line per event, seq from 1, and indexes each', () => {
    const log = RunEventLog.open(store.home, RUN, new LoopRepository(store.db));
    assert.equal(log.lastSeq, 0);
    assert.equal(log.repairedBytes, 0);
    const first = log.append('loop.started', { goal: 'ship it' });
    const second = log.append(
      'loop.context_usage',
      { tokens: 91_000, percent: 45.5 },
      { iteration: 3, correlationId: 'run-0001/3' },
    );
    log.close();
    log.close();
    assert.equal(first.seq, 1);
    assert.equal(second.seq, 2);
    assert.equal(log.lastSeq, 2);
    assert.throws(() => log.append('loop.stopped', {}), /closed/);

    const path = getEventsPath(store.home, RUN);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(statSync(getRunDir(store.home, RUN)).mode & 0o777, 0o700);
    const lines = readFileSync(path, 'utf8').split('\n');
    assert.equal(lines.pop(), '');
    assert.deepEqual(JSON.parse(lines[1]!), {
      seq: 2,
      at: second.at,
      run: RUN,
      name: 'loop.context_usage',
      iteration: 3,
      correlationId: 'run-0001/3',
      data: { tokens: 91_000, percent: 45.5 },
    });
    assert.match(
      lines[0]!,
      /^\{"seq":1,"at":"[^"]+","run":"run-0001","name":"loop.started","iteration":null,"correlationId":null,"data":\{"goal":"ship it"\}\}$/,
    );

    const indexed = new LoopRepository(store.db).listEvents(RUN);
    assert.deepEqual(
      indexed.map((e) => [e.seq, e.name, e.iteration, e.correlationId, e.fileOffset]),
      [
        [1, 'loop.started', null, null, 0],
        [2, 'loop.context_usage', 3, 'run-0001/3', Buffer.byteLength(lines[0]!) + 1],
      ],
    );
    assert.deepEqual(readRunEvents(store.home, RUN), [first, second]);
    assert.deepEqual(readRunEvents(store.home, RUN, { afterSeq: 1 }), [second]);
  });

  test('the index holds at most 1000 characters of data; the file holds all of it', () => {
    const log = RunEventLog.open(store.home, RUN, new LoopRepository(store.db));
    const text = 'é'.repeat(5000);
    log.append('loop.agent_error', { text });
    log.close();
    const [row] = new LoopRepository(store.db).listEvents(RUN);
    assert.equal(row?.data?.length, LOOP_EVENT_DATA_MAX);
    assert.equal(readRunEvents(store.home, RUN)[0]?.data.text, text);
  });

  test('reopening carries on the numbering', () => {
    writeThree();
    const log = RunEventLog.open(store.home, RUN, new LoopRepository(store.db));
    assert.equal(log.lastSeq, 3);
    assert.equal(log.reindexed, 0);
    assert.equal(log.append('loop.resumed', {}).seq, 4);
    log.close();
    assert.deepEqual(seqs(readRunEvents(store.home, RUN)), [1, 2, 3, 4]);
  });

  test('a torn last line is cut on open, and readers skip it', () => {
    writeThree();
    const path = getEventsPath(store.home, RUN);
    const clean = statSync(path).size;
    const torn = '{"seq":4,"at":"2026-03-01T00:00:00.000Z","run":"run-0001","name":"loop.tool';
    appendFileSync(path, torn);
    assert.deepEqual(seqs(readRunEvents(store.home, RUN)), [1, 2, 3]);

    const log = RunEventLog.open(store.home, RUN, new LoopRepository(store.db));
    assert.equal(log.repairedBytes, Buffer.byteLength(torn));
    assert.equal(statSync(path).size, clean);
    assert.equal(log.lastSeq, 3);
    assert.equal(log.append('loop.tool_call', { tool: 'Read' }).seq, 4);
    log.close();
    const events = readRunEvents(store.home, RUN);
    assert.deepEqual(seqs(events), [1, 2, 3, 4]);
    assert.equal(events[3]?.data.tool, 'Read');
    assert.ok(readFileSync(path, 'utf8').endsWith('"data":{"tool":"Read"}}\n'));
    assert.match(readFileSync(getLogPath(store.home), 'utf8'), /cut a torn last line/);
  });

  test('a complete but unparsable last line (zeros after a power cut) is cut too', () => {
    writeThree();
    const path = getEventsPath(store.home, RUN);
    const clean = statSync(path).size;
    appendFileSync(path, Buffer.from([0, 0, 0, 0, 0x0a]));
    const log = RunEventLog.open(store.home, RUN, new LoopRepository(store.db));
    assert.equal(log.repairedBytes, 5);
    assert.equal(statSync(path).size, clean);
    log.close();
  });

  test('events missing from the index are indexed on open', () => {
    writeThree();
    store.db.prepare('DELETE FROM loop_events WHERE run_id = ? AND seq >= 2').run(RUN);
    const repo = new LoopRepository(store.db);
    assert.equal(repo.maxIndexedSeq(RUN), 1);
    const log = RunEventLog.open(store.home, RUN, new LoopRepository(store.db));
    assert.equal(log.reindexed, 2);
    log.close();
    const indexed = repo.listEvents(RUN);
    assert.deepEqual(seqs(indexed), [1, 2, 3]);
    const fileEvents = readRunEvents(store.home, RUN);
    assert.equal(indexed[1]?.correlationId, 'c1');
    assert.deepEqual(JSON.parse(indexed[2]!.data!), fileEvents[2]!.data);
    // the offsets point at the lines
    const bytes = readFileSync(getEventsPath(store.home, RUN));
    for (const row of indexed)
      assert.equal(
        JSON.parse(bytes.toString('utf8', row.fileOffset, bytes.indexOf(0x0a, row.fileOffset))).seq,
        row.seq,
      );
  });

  test('an event whose indexing fails is kept in the file, logged, and indexed later', () => {
    const db = openDatabase(store.home);
    const log = RunEventLog.open(store.home, RUN, new LoopRepository(db));
    log.append('loop.started', {});
    db.close(); // the index becomes unavailable
    const event = log.append('loop.monitor_error', { error: 'boom' });
    assert.equal(event.seq, 2);
    log.close();
    assert.deepEqual(seqs(readRunEvents(store.home, RUN)), [1, 2]);
    assert.match(readFileSync(getLogPath(store.home), 'utf8'), /cannot index an event/);
    const repo = new LoopRepository(store.db);
    assert.deepEqual(seqs(repo.listEvents(RUN)), [1]);
    RunEventLog.open(store.home, RUN, new LoopRepository(store.db)).close();
    assert.deepEqual(seqs(repo.listEvents(RUN)), [1, 2]);
  });

  test('a compacted log is read from events.jsonl.gz and restored when opened for writing', () => {
    writeThree();
    const path = getEventsPath(store.home, RUN);
    const before = readRunEvents(store.home, RUN);
    writeFileSync(getCompressedEventsPath(store.home, RUN), gzipSync(readFileSync(path)));
    unlinkSync(path);
    store.db.prepare("DELETE FROM loop_events WHERE name = 'loop.context_usage'").run();
    assert.deepEqual(readRunEvents(store.home, RUN), before);

    const log = RunEventLog.open(store.home, RUN, new LoopRepository(store.db));
    assert.equal(log.restoredFromCompressed, true);
    assert.equal(log.reindexed, 1);
    assert.equal(log.append('loop.resumed', {}).seq, 4);
    log.close();
    assert.ok(!existsSync(getCompressedEventsPath(store.home, RUN)));
    assert.deepEqual(seqs(new LoopRepository(store.db).listEvents(RUN)), [1, 2, 3, 4]);
  });

  test('run ids cannot escape SHIM_HOME/loops', () => {
    for (const bad of ['../x', 'a/b', '', '.hidden'])
      assert.throws(
        () => RunEventLog.open(store.home, bad, new LoopRepository(store.db)),
        /not a valid loop run id/,
      );
  });

  test('LOOP_EVENT_NAMES are unique loop.* names', () => {
    assert.equal(new Set(LOOP_EVENT_NAMES).size, LOOP_EVENT_NAMES.length);
    for (const name of LOOP_EVENT_NAMES) assert.match(name, /^loop\.[a-z_]+$/);
  });
});

describe('followRunEvents', () => {
  test('delivers existing events after afterSeq, then complete lines as they are appended', async () => {
    writeThree();
    const controller = new AbortController();
    const seen: LoopEvent[] = [];
    let wake: () => void = () => {};
    const follower = followRunEvents(store.home, RUN, {
      afterSeq: 1,
      intervalMs: 10,
      signal: controller.signal,
      onEvent: (event) => {
        seen.push(event);
        wake();
      },
    });
    const waitFor = async (n: number) => {
      while (seen.length < n) await new Promise<void>((resolve) => (wake = resolve));
    };
    await waitFor(2);
    assert.deepEqual(seqs(seen), [2, 3]);

    // A line written in two pieces is delivered once complete.
    const path = getEventsPath(store.home, RUN);
    const line = `${JSON.stringify({ seq: 4, at: new Date().toISOString(), run: RUN, name: 'loop.tool_call', iteration: 1, correlationId: null, data: { tool: 'Edit' } })}\n`;
    appendFileSync(path, line.slice(0, 20));
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.equal(seen.length, 2);
    appendFileSync(path, line.slice(20));
    await waitFor(3);
    assert.equal(seen[2]?.data.tool, 'Edit');

    const log = RunEventLog.open(store.home, RUN, new LoopRepository(store.db));
    log.append('loop.completed', {});
    log.close();
    await waitFor(4);
    assert.deepEqual(seqs(seen), [2, 3, 4, 5]);
    controller.abort();
    await follower;
  });

  test('waits for a log that does not exist yet, and stops when aborted', async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    const follower = followRunEvents(store.home, 'not-yet', {
      intervalMs: 10,
      signal: controller.signal,
      onEvent: (event) => {
        seen.push(event.seq);
        if (seen.length === 2) controller.abort();
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const log = RunEventLog.open(store.home, 'not-yet', new LoopRepository(store.db));
    log.append('loop.started', {});
    log.append('loop.stopped', {});
    log.close();
    await follower;
    assert.deepEqual(seen, [1, 2]);
  });
});

describe('crash safety', () => {
  const KILLS = 8;

  test(`kill -9 of an appending supervisor ${KILLS} times loses no acknowledged event`, async () => {
    // The supervisor (./loop-event-appender.test-helper.ts), compiled once: no tsx per start.
    const appender = compiledScript(
      join(import.meta.dirname, 'loop-event-appender.test-helper.ts'),
    );
    const acked: number[] = [];
    for (let kill = 0; kill < KILLS; kill++) {
      const child = spawn(process.execPath, [appender, store.home, RUN], {
        cwd: REPO_ROOT,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const target = 1 + Math.floor(Math.random() * 150);
      let acks = 0;
      const result = collectWriter(child, (line) => {
        if (line.startsWith('ready')) {
          // Killing only after some appends would miss kills during start-up and open().
          if (kill % 4 === 3) child.kill('SIGKILL');
          return;
        }
        if (++acks === target) child.kill('SIGKILL');
      });
      const { lines, signal, stderr } = await result;
      assert.equal(signal, 'SIGKILL', stderr);
      acked.push(...lines.filter((l) => /^\d+$/.test(l)).map(Number));

      const log = RunEventLog.open(store.home, RUN, new LoopRepository(store.db));
      try {
        const maxAcked = acked.length ? Math.max(...acked) : 0;
        assert.ok(log.lastSeq >= maxAcked, `kill ${kill}: ${log.lastSeq} < ${maxAcked}`);
        const fileSeqs = seqs(readRunEvents(store.home, RUN));
        assert.deepEqual(fileSeqs, range(log.lastSeq), `kill ${kill}: file seqs have gaps`);
        const indexSeqs = seqs(new LoopRepository(store.db).listEvents(RUN));
        assert.deepEqual(indexSeqs, range(log.lastSeq), `kill ${kill}: index seqs`);
        assert.ok(
          readFileSync(getEventsPath(store.home, RUN)).at(-1) === 0x0a || log.lastSeq === 0,
        );
      } finally {
        log.close();
      }
    }
    // Acknowledgements from successive runs continue one numbering, without repeats.
    assert.deepEqual(
      acked,
      [...new Set(acked)].sort((a, b) => a - b),
    );
    assert.ok(acked.length > 0);
  });
});
