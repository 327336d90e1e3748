import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { Checkpoint, CheckpointDraft } from '../../core/checkpoint/checkpoint.ts';
import { assessSession } from '../../core/context/assess.ts';
import { buildCheckpoint } from '../../core/checkpoint/build-checkpoint.ts';
import { applyCheckpointLimits } from '../../core/checkpoint/checkpoint-limits.ts';
import { readCompressedTranscript } from '../../agents/claude/transcript-reader.ts';
import { claudeRuleFor } from '../../agents/claude/threshold.test-helper.ts';
import { makeDraft, openTempStore, type TempStore } from '../../../test/helpers/store.ts';
import { FIXTURES_MISSING, gzFixturePath } from '../../../test/helpers/fixtures.ts';
import { checkChains } from './checkpoint-chain.ts';
import type { ChainSettings } from '../ports/checkpoints.ts';
import { sameState, stateOf } from './checkpoint-delta.ts';
import { forgetRows, planForget } from './forget-rows.ts';

const SESSION = 'c0ffee00-0000-4000-8000-000000000001';
const CHAIN: ChainSettings = { incremental: true, fullEvery: 10 };

let store: TempStore;
beforeEach(() => {
  store = openTempStore();
});
afterEach(() => store.dispose());

/** The session's checkpoints as the hooks take them: every 5 tool calls of a real transcript. */
async function realDrafts(limit: number): Promise<CheckpointDraft[]> {
  const path = gzFixturePath('entire-ed51f6581660-auto-compact-v2.1.42.jsonl');
  const drafts: CheckpointDraft[] = [];
  let last = 0;
  await readCompressedTranscript(path, {
    onEntry: (_entry, _line, state) => {
      if (drafts.length >= limit || state.toolCalls === last || state.toolCalls % 5 !== 0) return;
      last = state.toolCalls;
      const now = state.lastActivityAt ?? 0;
      drafts.push(
        applyCheckpointLimits(
          buildCheckpoint({
            id: randomUUID(),
            sessionId: SESSION,
            createdAt: new Date(now).toISOString(),
            trigger: 'tool_call_interval',
            reason: null,
            agent: { id: 'claude', name: 'Claude Code' },
            state,
            assessment: assessSession(state, { threshold: claudeRuleFor(state), now }),
            git: null,
            transcriptPath: path,
          }),
        ),
      );
    },
  });
  return drafts;
}

/** Stores the drafts in order, each against the previous as read back (what the writer does). */
function storeChain(drafts: CheckpointDraft[], chain = CHAIN) {
  let base: Checkpoint | null = null;
  return drafts.map((draft) => {
    const stored = store.checkpoints.save(draft, { base, chain });
    base = store.checkpoints.getById(draft.id);
    return stored;
  });
}

/** A synthetic draft of the session whose state differs from `makeDraft` by `n`. */
function step(n: number, createdAt = new Date(Date.UTC(2026, 1, 12, 4, n)).toISOString()) {
  const base = makeDraft();
  return {
    ...base,
    id: randomUUID(),
    sessionId: SESSION,
    createdAt,
    conversationState: { ...base.conversationState, currentContext: `step ${n}` },
    signals: { ...base.signals, toolCallCount: 10 + n },
  } satisfies CheckpointDraft;
}

const row = (id: string) =>
  store.db
    .prepare('SELECT delta_of, chain_depth, stored_size FROM checkpoints WHERE id = ?')
    .get(id) as { delta_of: string | null; chain_depth: number; stored_size: number };

describe('incremental checkpoints (chains)', () => {
  test(
    'real checkpoints store what changed, and every one reads back byte for byte',
    { skip: FIXTURES_MISSING },
    async () => {
      const drafts = await realDrafts(24);
      assert.ok(drafts.length >= 20, `${drafts.length} checkpoints`);
      const stored = storeChain(drafts);
      let whole = 0;
      let added = 0;
      for (const [i, draft] of drafts.entries()) {
        const read = store.checkpoints.getById(draft.id)!;
        assert.equal(read.id, draft.id);
        assert.ok(sameState(stateOf(read), stateOf(draft)), `checkpoint ${i + 1} rebuilt exactly`);
        const r = row(draft.id);
        assert.equal(r.stored_size, stored[i]!.size.stored);
        assert.ok(r.chain_depth <= CHAIN.fullEvery);
        if (r.delta_of === null) whole++;
        else assert.ok(stored[i]!.size.stored < stored[i]!.size.compressed);
        added += stored[i]!.size.stored;
      }
      const compressed = stored.reduce((sum, s) => sum + s.size.compressed, 0);
      const wanted = Math.ceil(drafts.length / (CHAIN.fullEvery + 1));
      assert.ok(whole >= wanted, `a whole one at least every ${CHAIN.fullEvery + 1} (${whole})`);
      assert.ok(added < compressed * 0.7, `${added} bytes stored of ${compressed} whole`);
      assert.deepEqual(checkChains(store.db).broken, []);
    },
  );

  test('an unchanged checkpoint adds a few bytes, not its whole size again', () => {
    const first = step(1);
    const again = {
      ...first,
      id: randomUUID(),
      createdAt: new Date(Date.UTC(2026, 1, 12, 5)).toISOString(),
    };
    const [a, b] = storeChain([first, again]);
    assert.equal(a!.size.stored, a!.size.compressed);
    assert.ok(b!.size.stored < 40, `${b!.size.stored} bytes for no change`);
    assert.equal(row(again.id).delta_of, first.id);
    assert.ok(sameState(stateOf(store.checkpoints.getById(again.id)!), stateOf(again)));
  });

  test('a whole checkpoint every fullEvery steps; none chained when incremental is off', () => {
    const drafts = Array.from({ length: 7 }, (_, i) => step(i));
    storeChain(drafts, { incremental: true, fullEvery: 2 });
    assert.deepEqual(
      drafts.map((d) => row(d.id).chain_depth),
      [0, 1, 2, 0, 1, 2, 0],
    );
    const more = Array.from({ length: 3 }, (_, i) => ({ ...step(20 + i), sessionId: 'other' }));
    storeChain(more, { incremental: false, fullEvery: 10 });
    assert.deepEqual(
      more.map((d) => row(d.id).delta_of),
      [null, null, null],
    );
  });

  test('a checkpoint of another session, or a base deleted meanwhile, is not chained to', () => {
    const mine = step(1);
    const theirs = { ...step(2), sessionId: 'someone-else' };
    store.checkpoints.save(mine);
    store.checkpoints.save(theirs, { base: store.checkpoints.getById(mine.id), chain: CHAIN });
    assert.equal(row(theirs.id).delta_of, null);
    const base = store.checkpoints.getById(mine.id);
    store.db.prepare('DELETE FROM checkpoints WHERE id = ?').run(mine.id);
    const next = step(3);
    store.checkpoints.save(next, { base, chain: CHAIN });
    assert.equal(row(next.id).delta_of, null, 'its base is gone: stored whole');
    assert.ok(sameState(stateOf(store.checkpoints.getById(next.id)!), stateOf(next)));
  });

  test('a missing link is found, reported, and read around: never a wrong state', () => {
    const drafts = Array.from({ length: 5 }, (_, i) => step(i));
    storeChain(drafts);
    // Someone deletes the third checkpoint by hand: the fourth and fifth lose their base.
    store.db.prepare('DELETE FROM checkpoints WHERE id = ?').run(drafts[2]!.id);
    const read = store.checkpoints.readChecked(drafts[4]!.id)!;
    assert.equal(read.broken?.reason, 'missing link');
    assert.equal(read.broken?.at, drafts[3]!.id);
    assert.equal(read.broken?.fellBackTo, drafts[1]!.id);
    assert.equal(read.checkpoint?.id, drafts[1]!.id);
    assert.ok(sameState(stateOf(read.checkpoint!), stateOf(drafts[1]!)));
    assert.equal(store.checkpoints.getMostRecent(SESSION)?.id, drafts[1]!.id);
    const report = checkChains(store.db);
    assert.equal(report.broken.length, 1);
    assert.equal(report.broken[0]!.at, drafts[3]!.id);
  });

  test('a row rewritten under a chain is noticed by the state hash', () => {
    const drafts = Array.from({ length: 3 }, (_, i) => step(i));
    storeChain(drafts);
    // The whole first checkpoint's task state replaced (as a rewrite that forgot its chain would).
    const other = store.db
      .prepare('SELECT task_state FROM checkpoints WHERE id = ?')
      .get(drafts[0]!.id) as { task_state: Uint8Array };
    store.db
      .prepare('UPDATE checkpoints SET conversation_state = ? WHERE id = ?')
      .run(other.task_state, drafts[0]!.id);
    const read = store.checkpoints.readChecked(drafts[2]!.id)!;
    assert.equal(read.broken?.reason, 'state mismatch');
    assert.equal(read.checkpoint?.id, drafts[0]!.id, 'the newest that reads exactly');
    assert.equal(checkChains(store.db).broken[0]?.reason, 'state mismatch');
  });

  test('gc and forget make what is kept whole before deleting what it was a change of', () => {
    const drafts = Array.from({ length: 6 }, (_, i) => step(i));
    storeChain(drafts);
    // gc: the first four go (older than the cut-off), the last two stay.
    const now = Date.UTC(2026, 1, 12, 4, 4) + 30 * 86_400_000;
    const planned = store.checkpoints.planCleanup({ retentionDays: 30, now });
    assert.deepEqual(
      planned.map((p) => p.id),
      drafts.slice(0, 4).map((d) => d.id),
    );
    store.checkpoints.deleteCheckpoints(
      planned.map((p) => p.id),
      now,
      30,
    );
    assert.equal(row(drafts[4]!.id).delta_of, null, 'made whole');
    for (const draft of drafts.slice(4))
      assert.ok(sameState(stateOf(store.checkpoints.getById(draft.id)!), stateOf(draft)));
    assert.deepEqual(checkChains(store.db).broken, []);
    // forget: the middle of a chain goes; the one after it is made whole, the rest still read.
    const more = Array.from({ length: 4 }, (_, i) => step(10 + i));
    storeChain(more);
    forgetRows(store.db, planForget(store.db, { kind: 'checkpoint', id: more[1]!.id })!);
    assert.equal(store.checkpoints.getById(more[1]!.id), null);
    assert.equal(row(more[2]!.id).delta_of, null);
    for (const draft of [more[0]!, more[2]!, more[3]!])
      assert.ok(sameState(stateOf(store.checkpoints.getById(draft.id)!), stateOf(draft)));
    assert.deepEqual(checkChains(store.db).broken, []);
  });
});
