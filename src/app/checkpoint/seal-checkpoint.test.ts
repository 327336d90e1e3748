import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { makeTypicalCheckpoint } from '../../core/checkpoint/checkpoint-fixture.test-helper.ts';
import { UNPROCESSABLE_TEXT, type CheckpointDraft } from '../../core/checkpoint/checkpoint.ts';
import { validateCheckpoint } from '../../core/checkpoint/checkpoint-limits.ts';
import { sealCheckpoint } from './seal-checkpoint.ts';

function draft(): CheckpointDraft {
  const d: CheckpointDraft & { checkpointNumber?: number } = {
    ...makeTypicalCheckpoint(),
    id: randomUUID(),
  };
  delete d.checkpointNumber;
  return d;
}

describe('sealCheckpoint', () => {
  test('a whole draft comes out whole, redacted and valid', async () => {
    const d = draft();
    d.conversationState.userRequests = [
      'deploy with GITHUB_TOKEN=ghp_' + 'a1B2c3D4e5F6g7H8i9J0'.repeat(2),
    ];
    const sealed = await sealCheckpoint(d);
    assert.deepEqual(sealed.partial, []);
    assert.equal(sealed.checkpoint.source.partial, undefined);
    assert.ok(validateCheckpoint(sealed.checkpoint).valid);
    assert.match(sealed.checkpoint.conversationState.userRequests[0]!, /\[REDACTED:/);
  });

  test('a part that cannot be limited is replaced by a marked stand-in; the rest is kept', async () => {
    const d = draft();
    // What a broken fold could hand over: a message without text.
    (d.conversationState.recentMessages as unknown[]).push({ role: 'user', content: undefined });
    d.taskState.nextSteps = ['finish the parser with sk_live_' + 'Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2'];
    const sealed = await sealCheckpoint(d);
    assert.deepEqual(
      sealed.partial.map((p) => p.section),
      ['conversationState'],
    );
    const c = sealed.checkpoint;
    assert.deepEqual(c.source.partial, ['conversationState']);
    assert.equal(c.conversationState.summary, UNPROCESSABLE_TEXT);
    assert.deepEqual(c.taskState.items, d.taskState.items);
    assert.match(c.taskState.nextSteps[0]!, /finish the parser with \[REDACTED:stripe\]/);
    assert.ok(validateCheckpoint(c).valid, validateCheckpoint(c).errors.join('; '));
  });

  test('a part that fails validation alone is replaced, and the snapshot ref survives', async () => {
    const d = draft();
    d.fileState.activeFiles = null as unknown as string[];
    d.fileState.snapshot = {
      ref: 'refs/shim/snapshots/abc',
      commit: 'a'.repeat(40),
      head: 'b'.repeat(40),
      branch: 'main',
    };
    const sealed = await sealCheckpoint(d);
    assert.deepEqual(sealed.checkpoint.source.partial, ['fileState']);
    assert.equal(sealed.checkpoint.fileState.snapshot?.commit, 'a'.repeat(40));
    assert.deepEqual(sealed.checkpoint.fileState.activeFiles, []);
    assert.equal(sealed.checkpoint.conversationState.summary, d.conversationState.summary);
  });
});
