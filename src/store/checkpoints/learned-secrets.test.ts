import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { openTempStore, type TempStore } from '../../../test/helpers/store.ts';
import { withWriteTransaction } from '../sqlite/database.ts';
import { LEARNED_KEPT, LearnedSecrets } from './learned-secrets.ts';

const AT = '2026-11-29T07:00:00.000Z';
/** A memory's saved line (redact/secret-memory.ts: rule, length, two hashes). */
const line = (n: number) => `generic:40:${n.toString(36)}:${(n * 7919).toString(36)}`;

let store: TempStore;
beforeEach(() => {
  store = openTempStore();
});
afterEach(() => store.dispose());

describe('learned secrets are bounded', () => {
  test('the newest lines are kept, the oldest give way, a line kept twice counts once', () => {
    const learned = new LearnedSecrets(store.db, { kept: 3 });
    assert.equal(learned.add('session-a', [line(1), line(2)], AT), 2);
    const before = learned.all().last;
    assert.equal(learned.add('session-b', [line(3), line(4), line(1)], AT), 2);
    assert.deepEqual(learned.all().lines, [line(2), line(3), line(4)]);
    // A writer that read up to `before` still gets what came after it.
    assert.deepEqual(learned.since(before).lines, [line(3), line(4)]);
  });

  test(`a home keeps ${LEARNED_KEPT} lines at most`, () => {
    const learned = new LearnedSecrets(store.db);
    const lines = Array.from({ length: LEARNED_KEPT + 25 }, (_, n) => line(n));
    // In one transaction, as its caller adds (app/checkpoint/redact-stored-session.ts): one
    // commit, not one fsync'd commit per line.
    withWriteTransaction(store.db, () => learned.add('session-a', lines, AT));
    const kept = learned.all().lines;
    assert.equal(kept.length, LEARNED_KEPT);
    assert.equal(kept[0], line(25));
    assert.equal(kept.at(-1), line(LEARNED_KEPT + 24));
  });
});
