import assert from 'node:assert/strict';
import { chmodSync, statSync } from 'node:fs';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { CheckpointDraft } from '../../core/checkpoint/checkpoint.ts';
import { AppError } from '../../core/errors.ts';
import {
  buildFixtureDraft,
  makeDraft,
  makeHugeDraft,
  openTempStore,
  type TempStore,
} from '../../../test/helpers/store.ts';
import { getDatabasePath, openDatabase } from '../sqlite/database.ts';

const SESSION_A = 'aaaaaaaa-0000-4000-8000-000000000001';
const SESSION_B = 'bbbbbbbb-0000-4000-8000-000000000002';
const SESSION_C = 'cccccccc-0000-4000-8000-000000000003';

const at = (minute: number) => new Date(Date.UTC(2026, 1, 12, 4, minute)).toISOString();

function draftIn(
  sessionId: string,
  createdAt: string,
  cwd = '/home/dev/shim',
  overrides: Partial<CheckpointDraft> = {},
): CheckpointDraft {
  const base = makeDraft();
  return { ...base, sessionId, createdAt, source: { ...base.source, cwd }, ...overrides };
}

const SECTION_COLUMNS = {
  conversation_state: 'conversationState',
  task_state: 'taskState',
  file_state: 'fileState',
  tool_state: 'toolState',
  signals: 'signals',
  user_preferences: 'userPreferences',
} as const;

let store: TempStore;
beforeEach(() => {
  store = openTempStore();
});
afterEach(() => store.dispose());

describe('CheckpointRepository.save / getById', () => {
  test('round-trips a typical checkpoint unchanged, numbered 1', () => {
    const draft = makeDraft();
    const { checkpoint } = store.checkpoints.save(draft);
    assert.deepEqual(checkpoint, { ...draft, checkpointNumber: 1 });
    assert.deepEqual(store.checkpoints.getById(draft.id), checkpoint);
  });

  test('round-trips a checkpoint at every limit and one built from a real transcript', async () => {
    for (const draft of [makeHugeDraft(), await buildFixtureDraft()]) {
      const { checkpoint } = store.checkpoints.save(draft);
      assert.deepEqual(store.checkpoints.getById(draft.id), checkpoint);
      assert.deepEqual(checkpoint, { ...draft, checkpointNumber: checkpoint.checkpointNumber });
    }
  });

  test('round-trips empty preferences, no snapshot and no cwd', () => {
    const base = makeDraft();
    const draft: CheckpointDraft = {
      ...base,
      userPreferences: {},
      fileState: { ...base.fileState, snapshot: null },
      source: { ...base.source, cwd: null, transcriptPath: null },
      taskState: { ...base.taskState, operation: '' },
    };
    store.checkpoints.save(draft);
    assert.deepEqual(store.checkpoints.getById(draft.id), { ...draft, checkpointNumber: 1 });
    const [summary] = store.checkpoints.listBySession(draft.sessionId);
    assert.equal(summary?.snapshotRef, null);
    assert.equal(summary?.cwd, null);
    assert.equal(summary?.operation, null);
  });

  test('returns null for an unknown id', () => {
    assert.equal(store.checkpoints.getById('no-such-id'), null);
  });

  test('numbers checkpoints per session from 1, ignoring the number a caller passes', () => {
    const numbers = (sessionId: string) => {
      const numbered = { ...draftIn(sessionId, at(0)), checkpointNumber: 99 };
      return store.checkpoints.save(numbered).checkpoint.checkpointNumber;
    };
    assert.deepEqual([numbers(SESSION_A), numbers(SESSION_A), numbers(SESSION_A)], [1, 2, 3]);
    assert.equal(numbers(SESSION_B), 1);
    assert.equal(numbers(SESSION_A), 4);
    assert.equal(numbers(SESSION_B), 2);
    const stored = store.checkpoints.listBySession(SESSION_A).map((c) => c.checkpointNumber);
    assert.deepEqual(stored.sort(), [1, 2, 3, 4]);
  });

  test('a failed save (duplicate id) changes nothing and leaves no transaction open', () => {
    const draft = draftIn(SESSION_A, at(0));
    store.checkpoints.save(draft);
    assert.throws(() => store.checkpoints.save({ ...draft, createdAt: at(5) }), /UNIQUE|PRIMARY/);
    assert.equal(store.db.isTransaction, false);
    assert.equal(store.checkpoints.count(), 1);
    assert.equal(store.checkpoints.getById(draft.id)?.createdAt, at(0));
    assert.equal(store.checkpoints.save(draftIn(SESSION_A, at(6))).checkpoint.checkpointNumber, 2);
  });

  test('a draft that names no agent, or one shim does not know, is refused: no default agent', () => {
    const base = draftIn(SESSION_A, at(0));
    for (const agent of [undefined, null, '', 'cursor']) {
      const draft = { ...base, source: { ...base.source, agent } } as unknown as CheckpointDraft;
      assert.throws(
        () => store.checkpoints.save(draft),
        (e: unknown) =>
          e instanceof AppError &&
          e.code === 'CHECKPOINT_INVALID' &&
          /names no agent shim knows/.test(e.message) &&
          /claude, codex, gemini/.test(e.message),
        String(agent),
      );
    }
    assert.equal(store.checkpoints.count(), 0, 'nothing written');
    assert.equal(store.db.isTransaction, false);
  });
});

describe('CheckpointRepository newest lookups', () => {
  test('getMostRecent is per session, by creation time, then by number', () => {
    assert.equal(store.checkpoints.getMostRecent(SESSION_A), null);
    const first = draftIn(SESSION_A, at(10));
    const earlierClock = draftIn(SESSION_A, at(5)); // saved later, but stamped earlier
    store.checkpoints.save(first);
    store.checkpoints.save(earlierClock);
    store.checkpoints.save(draftIn(SESSION_B, at(30)));
    assert.equal(store.checkpoints.getMostRecent(SESSION_A)?.id, first.id);
    const sameTime = draftIn(SESSION_A, at(10));
    store.checkpoints.save(sameTime);
    assert.equal(
      store.checkpoints.getMostRecent(SESSION_A)?.id,
      sameTime.id,
      'ties: highest number',
    );
    assert.equal(store.checkpoints.getMostRecent(SESSION_A)?.checkpointNumber, 3);
  });

  test('getMostRecentForCwd looks across sessions in that directory only', () => {
    assert.equal(store.checkpoints.getMostRecentForCwd('/home/dev/shim'), null);
    store.checkpoints.save(draftIn(SESSION_A, at(1), '/home/dev/shim'));
    const newestHere = draftIn(SESSION_B, at(2), '/home/dev/shim');
    store.checkpoints.save(newestHere);
    const elsewhere = draftIn(SESSION_C, at(3), '/home/dev/other');
    store.checkpoints.save(elsewhere);
    assert.equal(store.checkpoints.getMostRecentForCwd('/home/dev/shim')?.id, newestHere.id);
    assert.equal(store.checkpoints.getMostRecentForCwd('/home/dev/other')?.id, elsewhere.id);
    assert.equal(store.checkpoints.getMostRecentForCwd('/home/dev'), null, 'exact match only');
  });

  test('getLatest is the newest across all sessions; ties go to the later number', () => {
    assert.equal(store.checkpoints.getLatest(), null);
    store.checkpoints.save(draftIn(SESSION_A, at(1)));
    const newest = draftIn(SESSION_B, at(9));
    store.checkpoints.save(newest);
    store.checkpoints.save(draftIn(SESSION_C, at(4)));
    assert.equal(store.checkpoints.getLatest()?.id, newest.id);
    const tie = draftIn(SESSION_B, at(9));
    store.checkpoints.save(tie);
    assert.equal(store.checkpoints.getLatest()?.id, tie.id);
    assert.equal(store.checkpoints.getLatest()?.id, store.checkpoints.getMostRecent(SESSION_B)?.id);
  });
});

describe('CheckpointRepository.list', () => {
  test('listBySession gives that session’s summaries, newest first', () => {
    const drafts = [at(1), at(3), at(2)].map((t) => draftIn(SESSION_A, t));
    for (const d of drafts) store.checkpoints.save(d);
    store.checkpoints.save(draftIn(SESSION_B, at(4)));
    const list = store.checkpoints.listBySession(SESSION_A);
    assert.deepEqual(
      list.map((s) => [s.createdAt, s.checkpointNumber]),
      [
        [at(3), 2],
        [at(2), 3],
        [at(1), 1],
      ],
    );
    const draft = drafts[0]!;
    const summary = list.find((s) => s.id === draft.id);
    assert.ok(summary);
    assert.equal(summary.sessionId, SESSION_A);
    assert.equal(summary.triggeredBy, draft.triggeredBy);
    assert.equal(summary.crashRisk, draft.signals.crashRisk);
    assert.equal(summary.progress, draft.taskState.progress);
    assert.equal(summary.operation, draft.taskState.operation);
    assert.equal(summary.contextWindowUsage, draft.signals.contextWindowUsage);
    assert.equal(summary.messageCount, draft.signals.messageCount);
    assert.equal(summary.toolCallCount, draft.signals.toolCallCount);
    assert.equal(summary.restoredAt, null);
    assert.equal(summary.cwd, draft.source.cwd);
    assert.equal(summary.transcriptPath, draft.source.transcriptPath);
    assert.equal(summary.snapshotRef, draft.fileState.snapshot?.ref);
    assert.ok(summary.size.compressed > 0 && summary.size.uncompressed > summary.size.compressed);
    assert.deepEqual(store.checkpoints.listBySession('unknown'), []);
  });

  test('list filters by session and cwd, together or alone, and honours the limit', () => {
    store.checkpoints.save(draftIn(SESSION_A, at(1), '/p'));
    store.checkpoints.save(draftIn(SESSION_A, at(2), '/q'));
    store.checkpoints.save(draftIn(SESSION_B, at(3), '/p'));
    store.checkpoints.save(draftIn(SESSION_C, at(4), '/q'));
    const keys = (filter: Parameters<typeof store.checkpoints.list>[0]) =>
      store.checkpoints.list(filter).map((s) => `${s.sessionId.slice(0, 1)}@${s.cwd}`);
    assert.deepEqual(keys({}), ['c@/q', 'b@/p', 'a@/q', 'a@/p']);
    assert.deepEqual(keys({ sessionId: SESSION_A }), ['a@/q', 'a@/p']);
    assert.deepEqual(keys({ cwd: '/p' }), ['b@/p', 'a@/p']);
    assert.deepEqual(keys({ sessionId: SESSION_A, cwd: '/p' }), ['a@/p']);
    assert.deepEqual(keys({ sessionId: SESSION_B, cwd: '/q' }), []);
    assert.deepEqual(keys({ limit: 2 }), ['c@/q', 'b@/p']);
    assert.deepEqual(keys({ cwd: '/q', limit: 1 }), ['c@/q']);
  });

  test('list returns 50 by default; listBySession is not capped at 50', () => {
    for (let i = 0; i < 60; i++) store.checkpoints.save(draftIn(SESSION_A, at(i)));
    assert.equal(store.checkpoints.list().length, 50);
    assert.equal(store.checkpoints.list()[0]?.createdAt, at(59));
    assert.equal(store.checkpoints.listBySession(SESSION_A).length, 60);
    assert.equal(store.checkpoints.count(), 60);
  });
});

describe('CheckpointRepository.findIdsByPrefix', () => {
  test('finds ids by prefix, sorted, up to the limit, matching literally', () => {
    const ids = [
      '3f2a0000-0000-4000-8000-000000000002',
      '3f2a0000-0000-4000-8000-000000000001',
      '3f2b0000-0000-4000-8000-000000000003',
      '3f2a9999-0000-4000-8000-000000000004',
    ];
    for (const id of ids) store.checkpoints.save({ ...draftIn(SESSION_A, at(1)), id });
    assert.deepEqual(store.checkpoints.findIdsByPrefix('3f2a'), [ids[1], ids[0], ids[3]]);
    assert.deepEqual(store.checkpoints.findIdsByPrefix('3f2a', 2), [ids[1], ids[0]]);
    assert.deepEqual(store.checkpoints.findIdsByPrefix('3f2'), [ids[1], ids[0], ids[3], ids[2]]);
    assert.deepEqual(store.checkpoints.findIdsByPrefix(ids[2]!), [ids[2]]);
    assert.deepEqual(store.checkpoints.findIdsByPrefix('3f2c'), []);
    assert.deepEqual(store.checkpoints.findIdsByPrefix('3f2_'), [], 'no LIKE wildcards');
    assert.deepEqual(store.checkpoints.findIdsByPrefix('3f2%'), [], 'no LIKE wildcards');
    assert.deepEqual(store.checkpoints.findIdsByPrefix(`${ids[2]!}0`), []);
  });
});

describe('CheckpointRepository.markRestored', () => {
  const raw = (id: string) =>
    store.db
      .prepare(
        'SELECT restored_at, restore_success, restore_fidelity FROM checkpoints WHERE id = ?',
      )
      .get(id);

  test('records when, whether and how well a checkpoint was restored', () => {
    const a = draftIn(SESSION_A, at(1));
    const b = draftIn(SESSION_A, at(2));
    store.checkpoints.save(a);
    store.checkpoints.save(b);
    store.checkpoints.markRestored(a.id, true, 0.92, at(30));
    assert.deepEqual(
      { ...raw(a.id) },
      { restored_at: at(30), restore_success: 1, restore_fidelity: 0.92 },
    );
    assert.equal(store.checkpoints.getRestoredAt(a.id), at(30));
    assert.equal(store.checkpoints.getRestoredAt(b.id), null, 'other checkpoints untouched');
    const summary = store.checkpoints.listBySession(SESSION_A).find((s) => s.id === a.id);
    assert.equal(summary?.restoredAt, at(30));

    store.checkpoints.markRestored(b.id, false, null, at(31));
    assert.deepEqual(
      { ...raw(b.id) },
      { restored_at: at(31), restore_success: 0, restore_fidelity: null },
    );
    assert.equal(store.db.isTransaction, false);
  });

  test('an unknown id is a no-op', () => {
    store.checkpoints.markRestored('no-such-id', true, 1, at(1));
    assert.equal(store.checkpoints.count(), 0);
  });
});

describe('CheckpointRepository.cleanup', () => {
  const DAY = 86_400_000;
  const now = Date.parse('2026-03-01T00:00:00.000Z');
  const daysAgo = (days: number) => new Date(now - days * DAY).toISOString();

  test('deletes old checkpoints and their resume events, keeping each session’s newest', () => {
    const save = (sessionId: string, createdAt: string, withSnapshot = true) => {
      const draft = draftIn(sessionId, createdAt, `/work/${sessionId.slice(0, 1)}`);
      const snapshot = withSnapshot
        ? { ...draft.fileState.snapshot!, ref: `refs/shim/snapshots/${draft.id}` }
        : null;
      return store.checkpoints.save({ ...draft, fileState: { ...draft.fileState, snapshot } })
        .checkpoint;
    };
    // A: three old checkpoints and a recent one. B: only old ones. C: only recent ones.
    const a1 = save(SESSION_A, daysAgo(40));
    const a2 = save(SESSION_A, daysAgo(35), false);
    const a3 = save(SESSION_A, daysAgo(31));
    const a4 = save(SESSION_A, daysAgo(2));
    const b1 = save(SESSION_B, daysAgo(60));
    const b2 = save(SESSION_B, daysAgo(50));
    const c1 = save(SESSION_C, daysAgo(20));
    const c2 = save(SESSION_C, daysAgo(1));
    const resume = (checkpointId: string, sessionId: string) =>
      store.resumes.record({
        checkpointId,
        sessionId,
        restoredAt: daysAgo(1),
        interruptionReason: 'crash',
        timeSinceCheckpoint: 1000,
        resumeConfidence: 0.8,
      });
    resume(a1.id, SESSION_A);
    resume(a1.id, SESSION_A);
    resume(b2.id, SESSION_B);
    resume(c1.id, SESSION_C);
    store.db
      .prepare(
        "INSERT INTO signal_history (id, session_id, recorded_at, signals, crash_risk) VALUES ('old', ?, ?, '{}', 'safe'), ('new', ?, ?, '{}', 'safe')",
      )
      .run(SESSION_A, daysAgo(45), SESSION_A, daysAgo(3));
    store.db
      .prepare("INSERT INTO events (at, session_id, kind) VALUES (?, ?, 'x'), (?, ?, 'y')")
      .run(daysAgo(45), SESSION_A, daysAgo(3), SESSION_A);

    const result = store.checkpoints.cleanup(30, now);

    const doomed = [a1, a2, a3, b1];
    assert.equal(result.deleted, 4);
    assert.deepEqual([...result.ids].sort(), doomed.map((c) => c.id).sort());
    assert.deepEqual(
      [...result.snapshots].sort((x, y) => x.ref.localeCompare(y.ref)),
      [a1, a3, b1]
        .map((c) => ({ checkpointId: c.id, cwd: c.source.cwd, ref: `refs/shim/snapshots/${c.id}` }))
        .sort((x, y) => x.ref.localeCompare(y.ref)),
    );
    for (const c of doomed) assert.equal(store.checkpoints.getById(c.id), null, c.id);
    for (const c of [a4, b2, c1, c2]) assert.ok(store.checkpoints.getById(c.id), c.id);
    assert.equal(store.checkpoints.getMostRecent(SESSION_B)?.id, b2.id, 'an old session keeps one');
    assert.deepEqual(store.resumes.listForCheckpoint(a1.id), []);
    assert.equal(store.resumes.listForCheckpoint(b2.id).length, 1);
    assert.equal(store.resumes.listForCheckpoint(c1.id).length, 1);
    const ids = (sql: string) =>
      store.db
        .prepare(sql)
        .all()
        .map((r) => String(r.id ?? r.kind));
    assert.deepEqual(ids('SELECT id FROM signal_history'), ['new']);
    assert.deepEqual(ids('SELECT kind FROM events'), ['y']);
    assert.deepEqual(ids('PRAGMA foreign_key_check'), []);
    assert.equal(store.db.isTransaction, false);

    // Idempotent, and the kept newest survives even long after.
    assert.equal(store.checkpoints.cleanup(30, now).deleted, 0);
    const later = store.checkpoints.cleanup(30, now + 365 * DAY);
    assert.deepEqual(later.ids, [c1.id]);
    assert.deepEqual(store.resumes.listForCheckpoint(c1.id), []);
    assert.deepEqual(
      store.checkpoints
        .list()
        .map((c) => c.id)
        .sort(),
      [a4.id, b2.id, c2.id].sort(),
    );
  });
});

describe('CheckpointRepository sizes and compression', () => {
  test('records uncompressed, compressed and ratio, and stores each section as gzip level 9', async () => {
    const draft = await buildFixtureDraft();
    const { size } = store.checkpoints.save(draft);
    const row = store.db.prepare('SELECT * FROM checkpoints WHERE id = ?').get(draft.id) as Record<
      string,
      unknown
    >;
    let uncompressed = 0;
    let compressed = 0;
    for (const [column, field] of Object.entries(SECTION_COLUMNS)) {
      const blob = row[column];
      assert.ok(blob instanceof Uint8Array, `${column} is a blob`);
      assert.deepEqual([blob[0], blob[1], blob[2]], [0x1f, 0x8b, 8], `${column}: gzip, deflate`);
      assert.equal(blob[8], 2, `${column}: gzip header XFL=2 (maximum compression)`);
      const json = gunzipSync(blob);
      assert.deepEqual(JSON.parse(json.toString('utf8')), draft[field], column);
      assert.deepEqual(
        Buffer.from(blob),
        gzipSync(Buffer.from(JSON.stringify(draft[field])), { level: 9 }),
        `${column}: byte-identical to gzip level 9`,
      );
      assert.notDeepEqual(
        Buffer.from(blob),
        gzipSync(Buffer.from(JSON.stringify(draft[field])), { level: 1 }),
      );
      uncompressed += json.length;
      compressed += blob.length;
    }
    assert.deepEqual(size, {
      uncompressed,
      compressed,
      compressionRatio: Math.round((uncompressed / compressed) * 100) / 100,
      stored: compressed,
    });
    assert.equal(row.uncompressed_size, uncompressed);
    assert.equal(row.compressed_size, compressed);
    assert.equal(row.compression_ratio, size.compressionRatio);
    assert.ok(size.compressionRatio > 2, `ratio ${size.compressionRatio}`);
    assert.deepEqual(store.checkpoints.listBySession(draft.sessionId)[0]?.size, size);
  });
});

describe('store permissions', () => {
  test('SHIM_HOME is created 0700 and the database files are 0600', () => {
    store.checkpoints.save(makeDraft());
    const mode = (path: string) => statSync(path).mode & 0o777;
    assert.equal(mode(store.home), 0o700);
    const path = getDatabasePath(store.home);
    assert.equal(mode(path), 0o600);
    assert.equal(mode(`${path}-wal`), 0o600);
    assert.equal(mode(`${path}-shm`), 0o600);
  });

  test('a database file loosened by someone else is owner-only again after the next open', () => {
    const path = getDatabasePath(store.home);
    store.db.close();
    chmodSync(path, 0o644);
    openDatabase(store.home).close();
    assert.equal(statSync(path).mode & 0o777, 0o600);
  });
});

describe('CheckpointRepository.list: the agent of each row', () => {
  test("names each checkpoint's agent; rows without one are Claude Code's", () => {
    const geminiDraft = draftIn(SESSION_A, at(1));
    store.checkpoints.save({ ...geminiDraft, source: { ...geminiDraft.source, agent: 'gemini' } });
    store.checkpoints.save(draftIn(SESSION_B, at(2)));
    const byAgent = new Map(store.checkpoints.list().map((s) => [s.sessionId, s.agent]));
    assert.equal(byAgent.get(SESSION_A), 'gemini');
    assert.equal(byAgent.get(SESSION_B), 'claude');
  });
});
