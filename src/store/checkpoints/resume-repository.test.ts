import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { makeDraft, openTempStore, type TempStore } from '../../../test/helpers/store.ts';
import type { ResumeEventInput } from '../ports/resumes.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 1, 12, 4, minute)).toISOString();

let store: TempStore;
let checkpointId: string;
let sessionId: string;
beforeEach(() => {
  store = openTempStore();
  const draft = makeDraft({ createdAt: at(0) });
  store.checkpoints.save(draft);
  checkpointId = draft.id;
  sessionId = draft.sessionId;
});
afterEach(() => store.dispose());

const event = (overrides: Partial<ResumeEventInput> = {}): ResumeEventInput => ({
  checkpointId,
  sessionId,
  restoredAt: at(10),
  interruptionReason: 'crash',
  timeSinceCheckpoint: 600_000.4,
  resumeConfidence: 0.85,
  ...overrides,
});

const checkpointColumns = () =>
  ({
    ...store.db
      .prepare(
        'SELECT restored_at, restore_success, restore_fidelity FROM checkpoints WHERE id = ?',
      )
      .get(checkpointId),
  }) as Record<string, unknown>;

describe('ResumeRepository.record', () => {
  test('inserts the event and marks the checkpoint restored', () => {
    const recorded = store.resumes.record(event({ success: true, notes: 'via shim resume' }));
    assert.match(recorded.id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(store.resumes.listForCheckpoint(checkpointId), [
      {
        id: recorded.id,
        checkpointId,
        sessionId,
        restoredAt: at(10),
        interruptionReason: 'crash',
        timeSinceCheckpoint: 600_000,
        resumeConfidence: 0.85,
        success: true,
        notes: 'via shim resume',
        fidelityScore: null,
        claudeFidelityScore: null,
        userConfirmed: null,
        messagesAtRestore: null,
      },
    ]);
    assert.deepEqual(checkpointColumns(), {
      restored_at: at(10),
      restore_success: 1,
      restore_fidelity: null,
    });
    assert.equal(store.checkpoints.getRestoredAt(checkpointId), at(10));
    assert.equal(store.db.isTransaction, false);
  });

  test('unknown success is stored as null; a failed restore marks restore_success 0', () => {
    store.resumes.record(event());
    store.resumes.record(event({ restoredAt: at(20), success: false, notes: null }));
    const events = store.resumes.listForCheckpoint(checkpointId);
    assert.deepEqual(
      events.map((e) => [e.restoredAt, e.success, e.notes]),
      [
        [at(10), null, null],
        [at(20), false, null],
      ],
    );
    // The first restore time is kept; the outcome is the latest one.
    assert.equal(checkpointColumns().restored_at, at(10));
    assert.equal(checkpointColumns().restore_success, 0);
  });

  test('events are listed per checkpoint, oldest first', () => {
    const other = makeDraft({ sessionId });
    store.checkpoints.save(other);
    store.resumes.record(event({ restoredAt: at(30) }));
    store.resumes.record(event({ restoredAt: at(15) }));
    store.resumes.record(event({ checkpointId: other.id, restoredAt: at(20) }));
    assert.deepEqual(
      store.resumes.listForCheckpoint(checkpointId).map((e) => e.restoredAt),
      [at(15), at(30)],
    );
    assert.equal(store.resumes.listForCheckpoint(other.id).length, 1);
    assert.deepEqual(store.resumes.listForCheckpoint('unknown'), []);
  });

  test('an event for an unknown checkpoint is refused (foreign key) and nothing is written', () => {
    assert.throws(
      () => store.resumes.record(event({ checkpointId: 'no-such-checkpoint' })),
      /FOREIGN KEY/,
    );
    assert.equal(store.db.prepare('SELECT COUNT(*) AS n FROM resume_events').get()?.n, 0);
    assert.equal(store.db.isTransaction, false);
  });

  test('is one transaction: if marking the checkpoint fails, the event is not kept', () => {
    store.db.exec(
      `CREATE TEMP TRIGGER refuse_restore BEFORE UPDATE OF restored_at ON main.checkpoints
       BEGIN SELECT RAISE(ABORT, 'refused by test'); END`,
    );
    assert.throws(() => store.resumes.record(event({ success: true })), /refused by test/);
    assert.equal(store.db.isTransaction, false);
    assert.equal(store.db.prepare('SELECT COUNT(*) AS n FROM resume_events').get()?.n, 0);
    assert.equal(checkpointColumns().restored_at, null);

    store.db.exec('DROP TRIGGER refuse_restore');
    store.resumes.record(event({ success: true }));
    assert.equal(store.resumes.listForCheckpoint(checkpointId).length, 1);
    assert.equal(checkpointColumns().restored_at, at(10));
  });
});

describe('ResumeRepository.markOutcome', () => {
  const outcome = () =>
    store.resumes.listForCheckpoint(checkpointId).map((e) => [e.messagesAtRestore, e.success]);

  test('a restored session that grew since the restore went on working', () => {
    store.resumes.record(
      event({ messagesAtRestore: 40, fidelityScore: 1, claudeFidelityScore: 0.5 }),
    );
    store.resumes.markOutcome(sessionId, 40, false);
    assert.deepEqual(outcome(), [[40, null]]);
    store.resumes.markOutcome(sessionId, 43, false);
    assert.deepEqual(outcome(), [[40, true]]);
    const [stored] = store.resumes.listForCheckpoint(checkpointId);
    assert.deepEqual([stored!.fidelityScore, stored!.claudeFidelityScore], [1, 0.5]);
  });

  test('one that ended without a new message did not', () => {
    store.resumes.record(event({ messagesAtRestore: 0 }));
    store.resumes.markOutcome(sessionId, 0, true);
    assert.deepEqual(outcome(), [[0, false]]);
    store.resumes.markOutcome(sessionId, 5, false);
    assert.deepEqual(outcome(), [[0, false]], 'a decided outcome stays');
  });

  test('restores recorded without a message count are left alone', () => {
    store.resumes.record(event());
    store.resumes.markOutcome(sessionId, 10, true);
    assert.deepEqual(outcome(), [[null, null]]);
  });
});

describe('a restore into a new session (a crash or a handoff picked up at startup)', () => {
  test('gets its outcome once the session works, and its fidelity and who asked are written', () => {
    store.resumes.record(
      event({
        sessionId: 'new-session',
        messagesAtRestore: 0,
        fidelityScore: 0.75,
        userConfirmed: false,
      }),
    );
    store.resumes.markOutcome('new-session', 3, false);
    const [stored] = store.resumes.listForCheckpoint(checkpointId);
    assert.equal(stored!.success, true);
    assert.equal(stored!.userConfirmed, false);
    const row = store.db
      .prepare('SELECT restore_fidelity FROM checkpoints WHERE id = ?')
      .get(checkpointId) as { restore_fidelity: number };
    assert.equal(row.restore_fidelity, 0.75);
  });
});
