import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { classifyIterationEnd, type IterationEvidence } from './iteration-end.ts';

const quiet: IterationEvidence = {
  termination: null,
  usageLimit: false,
  result: null,
  apiError: false,
  orphaned: false,
};
const end = (patch: Partial<IterationEvidence>) => classifyIterationEnd({ ...quiet, ...patch });

describe('classifyIterationEnd', () => {
  test('a turn refused as too long for the window is an overflow, not a transient API error', () => {
    assert.equal(
      end({ result: { isError: true }, apiError: true, contextOverflow: true }),
      'context_overflow',
    );
    assert.equal(end({ result: { isError: true }, apiError: true }), 'api_error');
  });

  test('a clean result is a finished turn', () => {
    assert.equal(end({ result: { isError: false } }), 'finished');
  });

  test('a clean result after the supervisor stopped at the threshold counts as the threshold', () => {
    assert.equal(
      end({ result: { isError: false }, termination: 'threshold' }),
      'context_threshold',
    );
  });

  test('a clean result that raced the timeout is still finished', () => {
    assert.equal(end({ result: { isError: false }, termination: 'timeout' }), 'finished');
  });

  test('a clean result with background work still running is mid-work, not finished', () => {
    assert.equal(end({ result: { isError: false }, pendingWork: true }), 'mid_work');
    assert.equal(
      end({ result: { isError: false }, pendingWork: true, termination: 'timeout' }),
      'mid_work',
    );
    assert.equal(
      end({ result: { isError: false }, pendingWork: true, termination: 'threshold' }),
      'context_threshold',
    );
    assert.equal(end({ result: { isError: false }, pendingWork: false }), 'finished');
  });

  test('a usage limit wins over everything else', () => {
    assert.equal(end({ usageLimit: true, result: { isError: false } }), 'usage_limit');
    assert.equal(end({ usageLimit: true, termination: 'timeout' }), 'usage_limit');
  });

  test('stopped by the supervisor without a clean result: its reason', () => {
    assert.equal(end({ termination: 'threshold' }), 'context_threshold');
    assert.equal(end({ termination: 'timeout', apiError: true }), 'timeout');
    assert.equal(end({ termination: 'timeout', result: { isError: true } }), 'timeout');
  });

  test('an API error the agent stopped on by itself', () => {
    assert.equal(end({ apiError: true, result: { isError: true } }), 'api_error');
  });

  test('gone when a resumed supervisor looked, without a result: orphaned', () => {
    assert.equal(end({ orphaned: true }), 'orphaned');
    assert.equal(end({ orphaned: true, result: { isError: true } }), 'crashed');
  });

  test('exited with nothing to show: crashed', () => {
    assert.equal(end({}), 'crashed');
    assert.equal(end({ result: { isError: true } }), 'crashed');
  });
});
