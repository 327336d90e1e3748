import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { makeDraft, openTempStore, type TempStore } from '../../../test/helpers/store.ts';
import { CheckpointWriter } from './checkpoint-writer.ts';
import type { CheckpointSighting } from '../ports/checkpoints.ts';
import { openDatabase, type Database } from '../sqlite/database.ts';
import { DEFAULT_CHAIN, readCheckpointRow, rewriteWhole } from './checkpoint-chain.ts';
import { LearnedSecrets } from './learned-secrets.ts';
import type { Row } from './checkpoint-rows.ts';
import { forgetRememberedValue, redactTextSync, SecretMemory } from '../../redact/redact.ts';
import { B62, madeUp } from '../../redact/made-up.test-helper.ts';

const SESSION = 'dddddddd-0000-4000-8000-000000000004';
const at = (minute: number) => new Date(Date.UTC(2026, 1, 12, 4, minute)).toISOString();

const sighting: CheckpointSighting = {
  session: { transcriptPath: '/t/session.jsonl', cwd: '/w/shim', cliVersion: '2.1.42', model: 'm' },
  activeAt: at(5),
};

/** What each table the writer touches holds for the session, read back from the file. */
function rowsOf(db: Database) {
  const count = (sql: string) => (db.prepare(sql).get(SESSION) as { n: number }).n;
  return {
    checkpoints: count('SELECT COUNT(*) AS n FROM checkpoints WHERE session_id = ?'),
    indexed: count(
      `SELECT COUNT(*) AS n FROM checkpoint_search_ids s JOIN checkpoints c
         ON c.id = s.checkpoint_id WHERE c.session_id = ?`,
    ),
    signals: count('SELECT COUNT(*) AS n FROM signal_history WHERE session_id = ?'),
    successes: count(
      'SELECT COUNT(*) AS n FROM resume_events WHERE session_id = ? AND success = 1',
    ),
    sessions: count('SELECT COUNT(*) AS n FROM sessions WHERE session_id = ?'),
  };
}

let store: TempStore;
beforeEach(() => {
  store = openTempStore();
  // A restore into the session, at 1 message: a checkpoint with more counts it as a success.
  const restored = makeDraft({ sessionId: 'eeeeeeee-0000-4000-8000-000000000005' });
  store.checkpoints.save(restored);
  store.resumes.record({
    checkpointId: restored.id,
    sessionId: SESSION,
    restoredAt: at(1),
    interruptionReason: 'crash',
    timeSinceCheckpoint: 60_000,
    resumeConfidence: 0.9,
    messagesAtRestore: 1,
  });
});
afterEach(() => store.dispose());

describe('CheckpointWriter.write', () => {
  test('stores the checkpoint, its signal sample, the restore outcome and the sighting', () => {
    const draft = makeDraft({ sessionId: SESSION, createdAt: at(6) });
    const { checkpoint } = new CheckpointWriter(store.db).write(draft, sighting);
    assert.equal(checkpoint.checkpointNumber, 1);
    assert.deepEqual(rowsOf(store.db), {
      checkpoints: 1,
      indexed: 1,
      signals: 1,
      successes: 1,
      sessions: 1,
    });
    const session = store.sessions.get(SESSION);
    assert.equal(session?.lastSeenAt, at(5));
    assert.equal(session?.transcriptPath, '/t/session.jsonl');
    assert.equal(session?.cliVersion, '2.1.42');
  });

  test("a session first seen through its checkpoint is the checkpoint's agent's, not Claude Code's", () => {
    const draft = makeDraft({ sessionId: SESSION, createdAt: at(6) });
    new CheckpointWriter(store.db).write(
      { ...draft, source: { ...draft.source, agent: 'codex' } },
      sighting,
    );
    assert.equal(store.sessions.get(SESSION)?.agent, 'codex');
  });

  test('a failure at its last write leaves none of its rows on disk, nor its number used', () => {
    // The session's row is the last the writer writes: refusing it fails the transaction after
    // the checkpoint, its index row, the signal sample and the restore outcome were written.
    store.db.exec(`CREATE TRIGGER refuse_session BEFORE INSERT ON sessions
      BEGIN SELECT RAISE(ABORT, 'sessions refused by the test'); END`);
    const draft = makeDraft({ sessionId: SESSION, createdAt: at(6) });
    assert.throws(
      () => new CheckpointWriter(store.db).write(draft, sighting),
      /sessions refused by the test/,
    );
    assert.equal(store.db.isTransaction, false);
    const reopened = openDatabase(store.home);
    try {
      assert.deepEqual(rowsOf(reopened), {
        checkpoints: 0,
        indexed: 0,
        signals: 0,
        successes: 0,
        sessions: 0,
      });
    } finally {
      reopened.close();
    }
    store.db.exec('DROP TRIGGER refuse_session');
    const again = new CheckpointWriter(store.db).write(draft, sighting);
    assert.equal(again.checkpoint.checkpointNumber, 1);
    assert.equal(rowsOf(store.db).checkpoints, 1);
  });

  test('joins a write transaction already open, committing with it', () => {
    const draft = makeDraft({ sessionId: SESSION, createdAt: at(6) });
    store.db.exec('BEGIN IMMEDIATE');
    new CheckpointWriter(store.db).write(draft, sighting);
    assert.equal(store.db.isTransaction, true);
    store.db.exec('ROLLBACK');
    assert.equal(rowsOf(store.db).checkpoints, 0);
  });

  test('a draft sealed before another process learned what it inherited is stored without it', () => {
    // Session B was restored from A and built its draft from A's rows as read: the value stood
    // bare there. Meanwhile A learned it and redacted B's rows. The draft reaches the write after.
    const value = madeUp(0x3a7e).gen(B62, 32);
    const learner = new SecretMemory();
    redactTextSync(`export DEPLOY_TOKEN=${value}`, learner);
    const bare = (text: string) => ({
      ...makeDraft({ sessionId: SESSION, createdAt: at(6) }).conversationState,
      userRequests: [text],
    });
    const writer = new CheckpointWriter(store.db);
    const learned = new LearnedSecrets(store.db);
    const known = learned.all().last;
    const first = writer.write(
      makeDraft({
        sessionId: SESSION,
        createdAt: at(6),
        conversationState: bare(`deploy with ${value}`),
      }),
      sighting,
    ).checkpoint;
    const draft = makeDraft({
      sessionId: SESSION,
      createdAt: at(7),
      conversationState: bare(`deploy with ${value} today`),
    });
    // The other process: the value learned for the home, the base rewritten redacted.
    learned.add('another-session', learner.saved(), at(7));
    rewriteWhole(store.db, {
      ...first,
      conversationState: { ...first.conversationState, userRequests: ['deploy with [REDACTED:x]'] },
    });
    const scrub = (sealed: typeof draft, lines: string[]) => {
      const scrubbed = forgetRememberedValue(sealed, SecretMemory.from(lines));
      return scrubbed.findings > 0 ? scrubbed.value : null;
    };
    const { checkpoint } = writer.write(
      draft,
      sighting,
      { base: first, settings: DEFAULT_CHAIN },
      { last: known, scrub },
    );
    const row = store.db
      .prepare('SELECT * FROM checkpoints WHERE id = ?')
      .get(checkpoint.id) as Row;
    const read = readCheckpointRow(store.db, row);
    assert.equal(read.broken, null, 'a change computed on the old base is not stored on the new');
    assert.equal(row.delta_of, null);
    const text = JSON.stringify(read.checkpoint);
    assert.ok(!text.includes(value), 'the value learned meanwhile is not stored');
    assert.match(text, /deploy with \[REDACTED:[\w-]+\] today/);
  });
});
