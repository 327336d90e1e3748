import assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { DatabaseSync } from '@photostructure/sqlite';
import { AppError } from '../../core/errors.ts';
import { makeTempDir } from '../../../test/helpers/fixtures.ts';
import { collectWriter, makeDraft, spawnWriter } from '../../../test/helpers/store.ts';
import { CheckpointRepository } from '../checkpoints/checkpoint-repository.ts';
import { getDatabasePath, getSchemaVersion, openDatabase, type Database } from './database.ts';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from './migrations.ts';
import { ResumeRepository } from '../checkpoints/resume-repository.ts';

/**
 * A checkpoint as the specified model has it (docs/specification.md): none of the fields shim added beyond the specification
 * (user requests, task items, git facts, compact-threshold signals, source).
 */
function omit<T extends object, K extends keyof T>(value: T, ...keys: K[]): Omit<T, K> {
  const copy: Partial<T> = { ...value };
  for (const key of keys) delete copy[key];
  return copy as Omit<T, K>;
}

function makeSeedCheckpoint(sessionId: string, checkpointNumber: number, createdAt: string) {
  const d = makeDraft();
  return {
    id: d.id,
    sessionId,
    checkpointNumber,
    createdAt,
    triggeredBy: d.triggeredBy,
    conversationState: omit(d.conversationState, 'userRequests'),
    taskState: omit(d.taskState, 'items'),
    fileState: omit(d.fileState, 'repoRoot', 'branch', 'head', 'snapshot'),
    toolState: d.toolState,
    signals: omit(d.signals, 'compactThresholdUsage', 'tokensUntilCompact'),
    userPreferences: d.userPreferences,
  };
}
type SeedCheckpoint = ReturnType<typeof makeSeedCheckpoint>;

/**
 * Inserts a checkpoint the way a version-1 repository does: each section gzipped (level 9), as
 * a blob or as base64 text (the specified repository stores `compressed.toString('base64')`), no v2 columns.
 */
function insertV1Checkpoint(
  db: Database,
  c: SeedCheckpoint,
  encoding: 'blob' | 'base64',
  extra: { userPreferences?: boolean; restoredAt?: string } = {},
): void {
  const sections = [
    c.conversationState,
    c.taskState,
    c.fileState,
    c.toolState,
    c.signals,
    c.userPreferences,
  ].map((value) => {
    const json = Buffer.from(JSON.stringify(value));
    return { json, gz: gzipSync(json, { level: 9 }) };
  });
  const encoded = sections.map((s) => (encoding === 'blob' ? s.gz : s.gz.toString('base64')));
  const uncompressed = sections.reduce((n, s) => n + s.json.length, 0);
  const compressed = sections.reduce((n, s) => n + s.gz.length, 0);
  db.prepare(
    `INSERT INTO checkpoints (id, session_id, checkpoint_number, created_at, triggered_by,
       conversation_state, task_state, file_state, tool_state, signals, user_preferences,
       crash_risk, progress, operation, context_window_usage, message_count, tool_call_count,
       uncompressed_size, compressed_size, compression_ratio, restored_at, restore_success, restore_fidelity)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    c.id,
    c.sessionId,
    c.checkpointNumber,
    c.createdAt,
    c.triggeredBy,
    encoded[0]!,
    encoded[1]!,
    encoded[2]!,
    encoded[3]!,
    encoded[4]!,
    extra.userPreferences === false ? null : encoded[5]!,
    c.signals.crashRisk,
    c.taskState.progress,
    c.taskState.operation,
    c.signals.contextWindowUsage,
    c.signals.messageCount,
    c.signals.toolCallCount,
    uncompressed,
    compressed,
    Math.round((uncompressed / compressed) * 100) / 100,
    extra.restoredAt ?? null,
    extra.restoredAt ? 1 : null,
    extra.restoredAt ? 0.9 : null,
  );
}

const SESSION_1 = '11111111-0000-4000-8000-000000000001';
const SESSION_2 = '22222222-0000-4000-8000-000000000002';
const at = (minute: number) => new Date(Date.UTC(2026, 0, 9, 12, minute)).toISOString();

type Seeded = { checkpoints: SeedCheckpoint[]; resumeEventIds: string[] };

/** Fills a version-1 database with seed-shaped checkpoints, resume events and signal history. */
function seedV1(db: Database): Seeded {
  assert.equal(getSchemaVersion(db), 1);
  const checkpoints = [
    makeSeedCheckpoint(SESSION_1, 1, at(1)),
    makeSeedCheckpoint(SESSION_1, 2, at(2)),
    makeSeedCheckpoint(SESSION_1, 3, at(3)),
    makeSeedCheckpoint(SESSION_2, 1, at(4)),
  ];
  insertV1Checkpoint(db, checkpoints[0]!, 'blob', { restoredAt: at(10) });
  insertV1Checkpoint(db, checkpoints[1]!, 'base64');
  insertV1Checkpoint(db, checkpoints[2]!, 'blob', { userPreferences: false });
  insertV1Checkpoint(db, checkpoints[3]!, 'base64');
  const resumeEventIds = ['resume-1', 'resume-2'];
  const insertEvent = db.prepare(
    `INSERT INTO resume_events (id, checkpoint_id, session_id, restored_at, interruption_reason,
       time_since_checkpoint, resume_confidence, user_confirmed, success, fidelity_score, notes)
     VALUES (?, ?, ?, ?, 'crash', 540000, 0.85, 1, 1, 0.9, ?)`,
  );
  insertEvent.run(resumeEventIds[0]!, checkpoints[0]!.id, SESSION_1, at(10), 'first restore');
  insertEvent.run(resumeEventIds[1]!, checkpoints[0]!.id, SESSION_1, at(11), null);
  const insertSignals = db.prepare(
    'INSERT INTO signal_history (id, session_id, recorded_at, signals, crash_risk) VALUES (?, ?, ?, ?, ?)',
  );
  for (const c of checkpoints)
    insertSignals.run(
      `sig-${c.id}`,
      c.sessionId,
      c.createdAt,
      JSON.stringify(c.signals),
      'warning',
    );
  return { checkpoints, resumeEventIds };
}

const dump = (db: Database, table: string) =>
  db
    .prepare(`SELECT * FROM ${table} ORDER BY rowid`)
    .all()
    .map((r) => ({ ...r }));

const columns = (db: Database, table: string) =>
  db
    .prepare(`PRAGMA table_info(${table})`)
    .all()
    .map((r) => String(r.name));

const tables = (db: Database) =>
  db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all()
    .map((r) => String(r.name));

let root: string;
let home: string;
beforeEach(() => {
  root = makeTempDir('shim-migrations-');
  home = join(root, 'home');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('migrations', () => {
  test('are numbered 1..N in order, and version 1 is the specified schema', () => {
    assert.deepEqual(
      MIGRATIONS.map((m) => m.version),
      Array.from({ length: MIGRATIONS.length }, (_, i) => i + 1),
    );
    assert.equal(LATEST_SCHEMA_VERSION, 13);
    const db = openDatabase(home, { migrateTo: 1 });
    try {
      assert.deepEqual(tables(db), [
        'checkpoints',
        'resume_events',
        'schema_version',
        'signal_history',
      ]);
      assert.ok(!columns(db, 'checkpoints').includes('source'));
      assert.deepEqual(
        db
          .prepare('SELECT version FROM schema_version')
          .all()
          .map((r) => r.version),
        [1],
      );
    } finally {
      db.close();
    }
  });

  test('a version-1 database migrates to the latest with every row still readable', () => {
    const v1 = openDatabase(home, { migrateTo: 1 });
    const seeded = seedV1(v1);
    const before = {
      resume_events: dump(v1, 'resume_events'),
      signal_history: dump(v1, 'signal_history'),
      checkpoints: v1.prepare('SELECT COUNT(*) AS n FROM checkpoints').get()?.n,
    };
    v1.close();

    const db = openDatabase(home);
    try {
      assert.equal(getSchemaVersion(db), LATEST_SCHEMA_VERSION);
      assert.deepEqual(
        db
          .prepare('SELECT version FROM schema_version ORDER BY version')
          .all()
          .map((r) => r.version),
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13],
      );
      for (const column of ['source', 'cwd', 'transcript_path', 'snapshot_ref'])
        assert.ok(columns(db, 'checkpoints').includes(column), column);
      assert.ok(tables(db).includes('sessions') && tables(db).includes('events'));
      for (const table of ['loop_runs', 'loop_iterations', 'loop_events'])
        assert.ok(tables(db).includes(table), table);
      // Every old row and value is there; version 6 adds two columns, empty for old restores.
      assert.deepEqual(
        dump(db, 'resume_events').map((row) => {
          const { messages_at_restore, claude_fidelity_score, ...rest } = row as Record<
            string,
            unknown
          >;
          assert.deepEqual([messages_at_restore, claude_fidelity_score], [null, null]);
          return rest;
        }),
        before.resume_events,
      );
      assert.deepEqual(dump(db, 'signal_history'), before.signal_history);
      assert.equal(
        db.prepare('SELECT COUNT(*) AS n FROM checkpoints').get()?.n,
        before.checkpoints,
      );

      const repository = new CheckpointRepository(db);
      for (const seed of seeded.checkpoints) {
        const stored = repository.getById(seed.id);
        assert.ok(stored, seed.id);
        // Everything the specified schema stored comes back as it was…
        assert.deepEqual(stored.conversationState, {
          ...seed.conversationState,
          userRequests: [],
        });
        assert.deepEqual(stored.taskState, { ...seed.taskState, items: [] });
        assert.deepEqual(stored.fileState, {
          ...seed.fileState,
          repoRoot: null,
          branch: null,
          head: null,
          snapshot: null,
        });
        assert.deepEqual(stored.toolState, seed.toolState);
        assert.deepEqual(stored.signals, {
          ...seed.signals,
          compactThresholdUsage: 0,
          tokensUntilCompact: 0,
        });
        assert.deepEqual(
          stored.userPreferences,
          seed === seeded.checkpoints[2] ? {} : seed.userPreferences,
        );
        assert.equal(stored.checkpointNumber, seed.checkpointNumber);
        assert.equal(stored.createdAt, seed.createdAt);
        // …and what it did not have gets a default.
        assert.deepEqual(stored.source, {
          transcriptPath: null,
          transcriptLine: 0,
          cwd: null,
          model: null,
          cliVersion: null,
          contextTokens: 0,
          compactThreshold: 0,
          level: 'L0',
          reason: null,
          // Rows from before agents were recorded are Claude Code's (migration 10).
          agent: 'claude',
        });
      }
      assert.equal(repository.getMostRecent(SESSION_1)?.id, seeded.checkpoints[2]!.id);
      const summaries = repository.listBySession(SESSION_1);
      assert.deepEqual(
        summaries.map((s) => s.checkpointNumber),
        [3, 2, 1],
      );
      assert.equal(summaries[2]?.restoredAt, at(10));
      assert.equal(summaries[2]?.cwd, null);
      assert.equal(summaries[2]?.snapshotRef, null);
      assert.ok(summaries.every((s) => s.size.compressed > 0));
      assert.deepEqual(
        new ResumeRepository(db)
          .listForCheckpoint(seeded.checkpoints[0]!.id)
          .map((e) => [e.id, e.notes]),
        [
          ['resume-1', 'first restore'],
          ['resume-2', null],
        ],
      );
      // New checkpoints carry on the v1 session's numbering.
      const next = repository.save({ ...makeDraft(), sessionId: SESSION_1, createdAt: at(30) });
      assert.equal(next.checkpoint.checkpointNumber, 4);
      assert.equal(db.prepare('PRAGMA integrity_check').get()?.integrity_check, 'ok');
      assert.deepEqual(db.prepare('PRAGMA foreign_key_check').all(), []);
    } finally {
      db.close();
    }
  });

  test('a database another implementation of the specified schema created (rollback journal) is adopted', () => {
    mkdirSync(home, { recursive: true, mode: 0o700 });
    const seedDb = new DatabaseSync(getDatabasePath(home));
    seedDb.exec(MIGRATIONS[0]!.sql);
    seedDb.exec(
      `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL);
       INSERT INTO schema_version (version, applied_at) VALUES (1, datetime('now'));`,
    );
    const seeded = seedV1(seedDb);
    assert.equal(seedDb.prepare('PRAGMA journal_mode').get()?.journal_mode, 'delete');
    seedDb.close();

    const db = openDatabase(home);
    try {
      assert.equal(getSchemaVersion(db), LATEST_SCHEMA_VERSION);
      assert.equal(db.prepare('PRAGMA journal_mode').get()?.journal_mode, 'wal');
      const repository = new CheckpointRepository(db);
      for (const seed of seeded.checkpoints)
        assert.deepEqual(repository.getById(seed.id)?.toolState, seed.toolState);
    } finally {
      db.close();
    }
  });

  test('re-opening a migrated database changes nothing', () => {
    const v1 = openDatabase(home, { migrateTo: 1 });
    seedV1(v1);
    v1.close();
    openDatabase(home).close();

    const snapshot = (db: Database) => ({
      versions: dump(db, 'schema_version'),
      schemaCookie: db.prepare('PRAGMA schema_version').get()?.schema_version,
      sql: db.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY name').all(),
      checkpoints: dump(db, 'checkpoints'),
    });
    const first = openDatabase(home);
    const before = snapshot(first);
    first.close();
    for (let i = 0; i < 3; i++) {
      const db = openDatabase(home);
      try {
        assert.deepEqual(snapshot(db), before);
      } finally {
        db.close();
      }
    }
    assert.equal(before.versions.length, 13);
  });

  test('migrateTo stops at the requested version, and a later open finishes the job', () => {
    openDatabase(home, { migrateTo: 1 }).close();
    const db = openDatabase(home, { migrateTo: 1 });
    assert.equal(getSchemaVersion(db), 1);
    db.close();
    const latest = openDatabase(home);
    assert.equal(getSchemaVersion(latest), LATEST_SCHEMA_VERSION);
    latest.close();
  });

  test('a database newer than this shim is refused with a clear AppError, untouched', () => {
    const db = openDatabase(home);
    db.prepare('INSERT INTO schema_version (version, applied_at) VALUES (?, ?)').run(
      LATEST_SCHEMA_VERSION + 1,
      at(0),
    );
    db.close();
    assert.throws(
      () => openDatabase(home),
      (error: unknown) => {
        assert.ok(error instanceof AppError);
        assert.equal(error.code, 'STORE_UNAVAILABLE');
        assert.match(
          error.message,
          new RegExp(
            `schema version ${LATEST_SCHEMA_VERSION + 1}, newer than this shim knows \\(${LATEST_SCHEMA_VERSION}\\)`,
          ),
        );
        assert.match(error.hint ?? '', /upgrade shim/);
        return true;
      },
    );
    const check = new DatabaseSync(getDatabasePath(home));
    try {
      assert.deepEqual(
        check
          .prepare('SELECT version FROM schema_version ORDER BY version')
          .all()
          .map((r) => r.version),
        Array.from({ length: LATEST_SCHEMA_VERSION + 1 }, (_, i) => i + 1),
      );
    } finally {
      check.close();
    }
  });
});

describe('concurrent migration', () => {
  /** Starts `count` processes that each open (and so migrate) the database at the same moment. */
  async function openConcurrently(count: number): Promise<void> {
    const children = Array.from({ length: count }, () => spawnWriter(['open', home]));
    let ready = 0;
    let release: () => void = () => {};
    const allReady = new Promise<void>((resolve) => (release = resolve));
    const results = children.map((child) =>
      collectWriter(child, (line) => {
        if (line === 'ready' && ++ready === count) release();
      }),
    );
    await allReady;
    for (const child of children) child.stdin.end('go\n');
    for (const result of await Promise.all(results)) {
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(result.lines, ['ready', 'opened'], result.stderr);
    }
  }

  const versions = () => {
    const db = openDatabase(home);
    try {
      return db
        .prepare('SELECT version FROM schema_version ORDER BY version')
        .all()
        .map((r) => r.version);
    } finally {
      db.close();
    }
  };

  test('8 processes upgrading the same version-1 database at once all succeed', async () => {
    const v1 = openDatabase(home, { migrateTo: 1 });
    const seeded = seedV1(v1);
    v1.close();
    await openConcurrently(8);
    assert.deepEqual(versions(), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    const db = openDatabase(home);
    try {
      const repository = new CheckpointRepository(db);
      for (const seed of seeded.checkpoints) assert.ok(repository.getById(seed.id), seed.id);
      assert.equal(db.prepare('PRAGMA integrity_check').get()?.integrity_check, 'ok');
    } finally {
      db.close();
    }
  });

  test('8 processes creating the database at once all succeed, 3 rounds', async () => {
    for (let round = 0; round < 3; round++) {
      rmSync(home, { recursive: true, force: true });
      await openConcurrently(8);
      assert.deepEqual(versions(), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13], `round ${round}`);
    }
  });
});
