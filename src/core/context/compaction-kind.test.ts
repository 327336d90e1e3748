import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { classifyCompaction, type CompactionFacts } from './compaction-kind.ts';

const threshold: CompactionFacts = {
  trigger: 'auto',
  preTokens: 168_000,
  lastContextTokens: 166_500,
  inputSince: true,
  toolsPending: false,
  gapMs: 4_000,
};

describe('classifyCompaction', () => {
  test('an auto compaction right after new input is a threshold compaction', () => {
    assert.equal(classifyCompaction(threshold, 167_000), 'threshold');
  });

  test('a manual one is manual', () => {
    assert.equal(classifyCompaction({ ...threshold, trigger: 'manual' }), 'manual');
  });

  test('after an ended turn, with nothing new for minutes, it is an idle one', () => {
    const idle = { ...threshold, inputSince: false, gapMs: 30 * 60_000, lastContextTokens: 90_000 };
    assert.equal(classifyCompaction(idle, 167_000), 'idle');
    assert.equal(classifyCompaction({ ...threshold, idleMarker: true }), 'idle');
  });

  test('a long-running tool is not idleness', () => {
    const running = { ...threshold, inputSince: false, toolsPending: true, gapMs: 30 * 60_000 };
    assert.equal(classifyCompaction(running, 167_000), 'threshold');
  });

  test('a last response well past the threshold means the compaction was put off', () => {
    assert.equal(
      classifyCompaction({ ...threshold, lastContextTokens: 190_000 }, 167_000),
      'put-off',
    );
    assert.equal(
      classifyCompaction({ ...threshold, lastContextTokens: 170_000 }, 167_000),
      'threshold',
    );
  });
});
