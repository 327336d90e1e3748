import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { Checkpoint, CheckpointDraft } from '../../core/checkpoint/checkpoint.ts';
import { redactValueSync, redactTextSync, SecretMemory } from '../../redact/redact.ts';
import { B62, madeUp } from '../../redact/made-up.test-helper.ts';
import { makeDraft, openTempStore, type TempStore } from '../../../test/helpers/store.ts';
import { openDatabase } from '../sqlite/database.ts';
import { checkChains } from './checkpoint-chain.ts';
import type { ChainSettings } from '../ports/checkpoints.ts';
import { SessionRewrite } from './session-rewrite.ts';

const SESSION = 'c0ffee00-0000-4000-8000-000000000038';
const CHAIN: ChainSettings = { incremental: true, fullEvery: 10 };
const value = madeUp(3803).gen(B62, 28);

let store: TempStore;
beforeEach(() => {
  store = openTempStore();
});
afterEach(() => store.dispose());

/** A draft of the session whose summary pastes the value (nothing says it is a secret) at step 0. */
function step(n: number): CheckpointDraft {
  const base = makeDraft();
  return {
    ...base,
    id: randomUUID(),
    sessionId: SESSION,
    createdAt: new Date(Date.UTC(2026, 10, 28, 12, n)).toISOString(),
    conversationState: {
      ...base.conversationState,
      summary: `deploy with ${value} to staging`,
      currentContext: `step ${n}`,
    },
    signals: { ...base.signals, toolCallCount: 10 + n },
  };
}

const rows = () =>
  store.db
    .prepare('SELECT * FROM checkpoints WHERE session_id = ? ORDER BY checkpoint_number')
    .all(SESSION) as Array<Record<string, unknown> & { id: string; delta_of: string | null }>;

describe('a session redacted again (SessionRewrite)', () => {
  test('checkpoints stored as changes of others: rewritten whole, every one reads back', () => {
    let base: Checkpoint | null = null;
    const drafts = [0, 1, 2, 3].map(step);
    for (const draft of drafts) {
      store.checkpoints.save(draft, { base, chain: CHAIN });
      base = store.checkpoints.getById(draft.id);
    }
    assert.ok(
      rows().filter((r) => r.delta_of !== null).length >= 2,
      'later checkpoints are stored as changes',
    );
    // The session learns what the value is; the first two checkpoints are redacted again.
    const memory = new SecretMemory();
    redactTextSync(`VAULT_TOKEN=${value}`, memory);
    const rewrite = new SessionRewrite(store.db);
    const all = rewrite.checkpoints(SESSION);
    assert.equal(all.length, 4);
    const redacted = all
      .slice(0, 2)
      .map((c) => ({ ...redactValueSync(c, memory).value, checkpointNumber: c.checkpointNumber }));
    assert.equal(rewrite.replace(redacted, []), 2);

    // The later ones (changes of a rewritten one) were rewritten whole as they read before:
    // every checkpoint reads back, the chains check out.
    for (const [i, draft] of drafts.entries()) {
      const read = store.checkpoints.getById(draft.id)!;
      assert.equal(read.conversationState.currentContext, `step ${i}`);
      const summary = read.conversationState.summary;
      if (i < 2) assert.match(summary, /^deploy with \[REDACTED:[\w-]+\] to staging$/);
      else assert.equal(summary, `deploy with ${value} to staging`);
    }
    assert.deepEqual(checkChains(store.db).broken, []);
    assert.ok(rows().every((r) => r.delta_of === null));
  });

  test('every checkpoint redacted: the value is in no column of the session', () => {
    let base: Checkpoint | null = null;
    for (const draft of [0, 1, 2].map(step)) {
      store.checkpoints.save(draft, { base, chain: CHAIN });
      base = store.checkpoints.getById(draft.id);
    }
    const memory = new SecretMemory();
    redactTextSync(`VAULT_TOKEN=${value}`, memory);
    const rewrite = new SessionRewrite(store.db);
    const redacted = rewrite
      .checkpoints(SESSION)
      .map((c) => ({ ...redactValueSync(c, memory).value, checkpointNumber: c.checkpointNumber }));
    rewrite.replace(redacted, []);
    const read = rewrite.checkpoints(SESSION);
    assert.equal(read.length, 3);
    assert.ok(!JSON.stringify(read).includes(value));
    assert.deepEqual(checkChains(store.db).broken, []);
  });

  test('read and rewritten in one transaction: another process cannot write the rows between', () => {
    const rewrite = new SessionRewrite(store.db);
    store.checkpoints.save(step(0));
    const other = openDatabase(store.home);
    try {
      other.exec('PRAGMA busy_timeout = 0');
      const memory = new SecretMemory();
      redactTextSync(`VAULT_TOKEN=${value}`, memory);
      const changed = rewrite.atomically(() => {
        const read = rewrite.checkpoints(SESSION);
        // Another session's process rewriting these rows now would be undone by the write below.
        assert.throws(
          () =>
            other
              .prepare('UPDATE checkpoints SET operation = ? WHERE session_id = ?')
              .run('meanwhile', SESSION),
          /locked|busy/i,
        );
        const redacted = read.map((c) => redactValueSync(c, memory).value);
        return rewrite.replace(redacted, []);
      });
      assert.equal(changed, 1);
      assert.ok(!JSON.stringify(rewrite.checkpoints(SESSION)).includes(value));
    } finally {
      other.close();
    }
  });
});
