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
});
