import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { redactTextSync, SecretMemory } from '../../redact/redact.ts';
import { B62, madeUp } from '../../redact/made-up.test-helper.ts';
import { makeDraft, openTempStore, type TempStore } from '../../../test/helpers/store.ts';
import { createStore } from '../open-store.ts';
import { redactStoredSession } from './redact-stored-session.ts';

const SESSION = 'c0ffee00-0000-4000-8000-000000003838';
const value = madeUp(3838).gen(B62, 32);

let temp: TempStore;
beforeEach(() => {
  temp = openTempStore();
});
afterEach(() => temp.dispose());

const payloads = () =>
  (
    temp.db
      .prepare('SELECT tracker, status, payload FROM sync_outbox WHERE session_id = ? ORDER BY id')
      .all(SESSION) as Array<{ tracker: string; status: string; payload: string }>
  ).map((r) => ({ ...r, payload: JSON.parse(r.payload) as Record<string, string> }));

describe('a session redacted again (redactStoredSession)', () => {
  test('what it queued for issue trackers, sent or not, no longer holds a value it learned later', () => {
    const store = createStore(temp.db);
    const draft = makeDraft({ sessionId: SESSION });
    store.checkpoints.save(draft);
    // Queued while nothing said the value is a secret: the comment and the observation quote it.
    const issue = { tracker: 'github' as const, key: '38', repo: 'acme/deploy' };
    store.outbox.enqueue(
      [
        {
          dedupeKey: `comment:${draft.id}`,
          issue,
          action: 'comment',
          payload: { body: `Deployed to staging with ${value}.`, marker: `shim:${draft.id}` },
          sessionId: SESSION,
          checkpointId: draft.id,
        },
        {
          dedupeKey: `observation:${draft.id}`,
          issue,
          action: 'observation',
          payload: {
            title: 'deploy',
            text: 'staging',
            metadata: JSON.stringify({ requests: [`deploy with ${value}`] }),
          },
          sessionId: SESSION,
          checkpointId: draft.id,
        },
      ],
      draft.createdAt,
    );
    const sent = store.outbox.claim('test', new Date(Date.parse(draft.createdAt) + 1000), 60_000)!;
    store.outbox.delivered(sent.id, '101', draft.createdAt);

    // Later in the session a line shows what the value is.
    const memory = new SecretMemory();
    redactTextSync(`VAULT_TOKEN=${value}`, memory);
    assert.ok(redactStoredSession(store, SESSION, memory) >= 2);

    const after = payloads();
    assert.equal(after.length, 2);
    assert.deepEqual(
      after.map((r) => r.status),
      ['delivered', 'pending'],
    );
    assert.ok(!JSON.stringify(after).includes(value), JSON.stringify(after));
    assert.match(after[0]!.payload.body!, /^Deployed to staging with \[REDACTED:[\w-]+\]\.$/);
    assert.equal(after[0]!.payload.marker, `shim:${draft.id}`);
    const metadata = JSON.parse(after[1]!.payload.metadata!) as { requests: string[] };
    assert.match(metadata.requests[0]!, /^deploy with \[REDACTED:[\w-]+\]$/);
    // Nothing of the old payloads is left in the database's files.
    temp.db.close();
    for (const file of ['shim.db', 'shim.db-wal']) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(join(temp.home, file));
      } catch {
        continue;
      }
      assert.ok(!bytes.includes(value), `${file} holds the value`);
    }
  });

  test('a session restored from it, and one restored from that, no longer hold the value either', () => {
    const store = createStore(temp.db);
    const at = '2026-02-01T10:00:00.000Z';
    const asked = (sessionId: string, requests: string[]) => {
      const draft = makeDraft({ sessionId, createdAt: at });
      return store.checkpoints.save({
        ...draft,
        conversationState: { ...draft.conversationState, userRequests: requests },
      }).checkpoint;
    };
    // The value is asked about before anything says what it is; a session started meanwhile is
    // restored from that checkpoint and carries the request in its own (core/checkpoint/lineage.ts),
    // and a third session is restored from the second.
    const first = asked(SESSION, [`next we deploy with ${value} as well`]);
    const second = 'c0ffee00-0000-4000-8000-000000003839';
    store.sessions.setResumedFrom(second, { sessionId: SESSION, checkpointId: first.id }, at);
    const carried = asked(second, [`next we deploy with ${value} as well`, 'continue']);
    const third = 'c0ffee00-0000-4000-8000-000000003840';
    store.sessions.setResumedFrom(third, { sessionId: second, checkpointId: carried.id }, at);
    asked(third, [`next we deploy with ${value} as well`, 'continue', 'go on']);
    // Another session that never restored from it is not the first session's to rewrite.
    const other = 'c0ffee00-0000-4000-8000-000000003841';
    asked(other, ['unrelated']);

    // The first session learns what the value is.
    const memory = new SecretMemory();
    redactTextSync(`VAULT_TOKEN=${value}`, memory);
    assert.equal(redactStoredSession(store, SESSION, memory), 3);
    for (const sessionId of [SESSION, second, third]) {
      const stored = JSON.stringify(store.checkpoints.getMostRecent(sessionId));
      assert.ok(!stored.includes(value), `${sessionId} still holds the value`);
      assert.match(stored, /next we deploy with \[REDACTED:[\w-]+\] as well/);
    }
    assert.deepEqual(store.checkpoints.getMostRecent(other)!.conversationState.userRequests, [
      'unrelated',
    ]);
  });
});
