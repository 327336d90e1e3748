// test-speed: slow (kill -9 loops over real writer processes)
/**
 * Crash safety and concurrency of the store, with real processes on a real SQLite file
 * (an acknowledged checkpoint survives kill -9; concurrent writers get gap-free numbers): writers killed with SIGKILL at random moments never lose an
 * acknowledged checkpoint or corrupt the database, and many hook processes checkpointing the
 * same session at once all succeed with unique, gap-free numbers.
 * @module
 */
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Checkpoint, CheckpointDraft } from '../../core/checkpoint/checkpoint.ts';
import { makeTempDir } from '../../../test/helpers/fixtures.ts';
import {
  buildFixtureDraft,
  collectWriter,
  spawnWriter,
  type WriterResult,
} from '../../../test/helpers/store.ts';
import { CheckpointRepository } from '../checkpoints/checkpoint-repository.ts';
import { openDatabase, type Database } from './database.ts';

const KILLS = 50;
const MIN_DELAY_MS = 20;
const MAX_DELAY_MS = 400;
const CONCURRENT_WRITERS = 64;
const STARTING_AT_ONCE = 2;

let root: string;
let draft: CheckpointDraft;
let draftPath: string;

before(async () => {
  root = makeTempDir('shim-crash-');
  // A realistic checkpoint (about 24 KB of JSON), built once from a real transcript.
  draft = await buildFixtureDraft();
  draftPath = join(root, 'draft.json');
  writeFileSync(draftPath, JSON.stringify(draft));
});
after(() => rmSync(root, { recursive: true, force: true }));

function withDatabase<T>(home: string, work: (db: Database) => T): T {
  const db = openDatabase(home);
  try {
    return work(db);
  } finally {
    db.close();
  }
}

/** The checkpoint as stored, minus what differs between copies; JSON for a fast comparison. */
const contentOf = (c: Checkpoint) => JSON.stringify({ ...c, id: '', checkpointNumber: 0 });

function numberStats(db: Database, sessionId: string) {
  const row = db
    .prepare(
      `SELECT COUNT(*) AS n, MIN(checkpoint_number) AS min, MAX(checkpoint_number) AS max,
         COUNT(DISTINCT checkpoint_number) AS distinctNumbers FROM checkpoints WHERE session_id = ?`,
    )
    .get(sessionId) as {
    n: number;
    min: number | null;
    max: number | null;
    distinctNumbers: number;
  };
  return { ...row };
}

describe('crash safety', () => {
  test(`kill -9 of a checkpoint writer at ${KILLS} random moments loses no acknowledged checkpoint`, async () => {
    const started = performance.now();
    const home = join(root, 'kill-home');
    const acked: string[] = [];
    const verified = new Set<string>();
    let reference: string | null = null;
    let killsBeforeFirstAck = 0;
    let killsAfterWriting = 0;
    let maxAcksPerRun = 0;

    for (let kill = 0; kill < KILLS; kill++) {
      // Alternate a long-lived connection with a hook-like open → save → close per checkpoint,
      // so kills also land in opening (recovery after the previous kill) and closing.
      const mode = kill % 2 === 0 ? 'loop' : 'loop-reopen';
      const child = spawnWriter([mode, home, draftPath]);
      const delay = MIN_DELAY_MS + Math.random() * (MAX_DELAY_MS - MIN_DELAY_MS);
      let timer: NodeJS.Timeout | undefined;
      const result = await collectWriter(child, (line) => {
        // Start-up is excluded: the random delay counts from `ready`.
        if (line === 'ready') timer = setTimeout(() => child.kill('SIGKILL'), delay);
      });
      clearTimeout(timer);
      assert.equal(result.signal, 'SIGKILL', `run ${kill} ended by itself: ${result.stderr}`);
      assert.equal(result.lines[0], 'ready', result.stderr);
      const ids = result.lines.slice(1);
      acked.push(...ids);
      maxAcksPerRun = Math.max(maxAcksPerRun, ids.length);
      if (ids.length === 0) killsBeforeFirstAck++;
      else killsAfterWriting++;

      withDatabase(home, (db) => {
        assert.equal(
          db.prepare('PRAGMA integrity_check').get()?.integrity_check,
          'ok',
          `after kill ${kill}`,
        );
        const repository = new CheckpointRepository(db);
        for (const id of ids) {
          const stored = repository.getById(id);
          assert.ok(stored, `acknowledged ${id} missing after kill ${kill}`);
          reference ??= contentOf(stored);
          assert.equal(contentOf(stored), reference, `${id} decodes to the checkpoint written`);
          verified.add(id);
        }
        const stored = new Set(
          db
            .prepare('SELECT id FROM checkpoints')
            .all()
            .map((r) => String(r.id)),
        );
        for (const id of acked) assert.ok(stored.has(id), `acknowledged ${id} lost`);
        const stats = numberStats(db, draft.sessionId);
        assert.equal(stats.distinctNumbers, stats.n, 'no duplicate numbers');
        assert.equal(stats.max ?? 0, stats.n, 'numbers 1..n without gaps');
      });
    }

    // Every row, acknowledged or not, decodes to the checkpoint that was written: no torn rows.
    const totals = withDatabase(home, (db) => {
      assert.equal(db.prepare('PRAGMA integrity_check').get()?.integrity_check, 'ok');
      const repository = new CheckpointRepository(db);
      const ids = db
        .prepare('SELECT id FROM checkpoints')
        .all()
        .map((r) => String(r.id));
      for (const id of ids) {
        const stored = repository.getById(id);
        assert.ok(stored);
        assert.equal(contentOf(stored), reference, id);
      }
      return { rows: ids.length, stats: numberStats(db, draft.sessionId) };
    });
    assert.equal(verified.size, acked.length, 'every acknowledged id verified');
    assert.equal(new Set(acked).size, acked.length);
    assert.ok(totals.rows >= acked.length);
    assert.ok(killsAfterWriting >= KILLS / 2, `only ${killsAfterWriting} kills landed mid-writing`);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `kill -9: ${KILLS} kills (${killsAfterWriting} after writing began, ${killsBeforeFirstAck} before the first ack), ` +
        `${acked.length} acknowledged checkpoints (max ${maxAcksPerRun} in one run), ${totals.rows} rows ` +
        `(${totals.rows - acked.length} committed but not yet acknowledged), numbers 1..${totals.stats.max}, ` +
        `0 lost, 0 corrupt, integrity ok after every kill, ${seconds} s`,
    );
  });
});

describe('concurrency', () => {
  test(`${CONCURRENT_WRITERS} processes checkpointing the same session at once`, async () => {
    const home = join(root, 'burst-home'); // not created yet: they also race to create it
    const started = performance.now();
    // Start-up (tsx) is staggered, a few at a time, to spare 2-core machines 64 cold starts at
    // once; every writer then waits at the barrier, and all are released together.
    const children: ReturnType<typeof spawnWriter>[] = [];
    const results: Promise<WriterResult>[] = [];
    let go = 0;
    const latencies: number[] = [];
    let ready = 0;
    let release: () => void = () => {};
    let fail: (error: Error) => void = () => {};
    const allReady = new Promise<void>((resolve, reject) => {
      release = resolve;
      fail = reject;
    });
    const startNext = () => {
      if (children.length === CONCURRENT_WRITERS) return;
      const child = spawnWriter(['once', home, draftPath]);
      children.push(child);
      const result = collectWriter(child, (line) => {
        if (line !== 'ready') latencies.push(performance.now() - go);
        else if (++ready === CONCURRENT_WRITERS) release();
        else startNext();
      });
      results.push(
        result.then((r) => {
          if (go === 0) fail(new Error(`a writer exited before the start signal: ${r.stderr}`));
          return r;
        }),
      );
    };
    let outcomes: WriterResult[];
    try {
      for (let i = 0; i < STARTING_AT_ONCE; i++) startNext();
      await allReady;
      go = performance.now();
      for (const child of children) child.stdin.end('go\n');
      outcomes = await Promise.all(results);
    } finally {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    }
    const burstMs = performance.now() - go;

    const ids: string[] = [];
    for (const outcome of outcomes) {
      assert.equal(outcome.code, 0, outcome.stderr);
      assert.equal(outcome.stderr, '');
      assert.equal(outcome.lines.length, 2, outcome.lines.join('|'));
      ids.push(outcome.lines[1]!);
    }
    withDatabase(home, (db) => {
      assert.equal(db.prepare('PRAGMA integrity_check').get()?.integrity_check, 'ok');
      const rows = db
        .prepare(
          'SELECT id, checkpoint_number FROM checkpoints WHERE session_id = ? ORDER BY checkpoint_number',
        )
        .all(draft.sessionId)
        .map((r) => ({ id: String(r.id), number: Number(r.checkpoint_number) }));
      assert.equal(rows.length, CONCURRENT_WRITERS);
      assert.deepEqual(
        rows.map((r) => r.number),
        Array.from({ length: CONCURRENT_WRITERS }, (_, i) => i + 1),
      );
      assert.deepEqual(rows.map((r) => r.id).sort(), [...ids].sort());
      const repository = new CheckpointRepository(db);
      for (const { id, number } of rows)
        assert.deepEqual(repository.getById(id), { ...draft, id, checkpointNumber: number });
    });
    latencies.sort((a, b) => a - b);
    console.log(
      `burst: ${CONCURRENT_WRITERS} processes, all exit 0, ${CONCURRENT_WRITERS} rows numbered 1..${CONCURRENT_WRITERS}; ` +
        `go → ack p50 ${Math.round(latencies[Math.floor(latencies.length / 2)]!)} ms, ` +
        `max ${Math.round(latencies.at(-1)!)} ms; burst ${Math.round(burstMs)} ms, ` +
        `total with start-up ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  });
});
