import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MISSING_AFTER_CALLS,
  STALLED_AFTER_CALLS,
  watchTranscript,
  type TranscriptWatch,
} from './transcript-watch.ts';

function feed(sizes: Array<number | null>): Array<string | null> {
  let watch: TranscriptWatch | null = null;
  return sizes.map((size) => {
    const step = watchTranscript(watch, size);
    watch = step.watch;
    return step.alarm;
  });
}

test('a growing transcript never alarms', () => {
  assert.deepEqual(feed([100, 200, 300, 400, 500, 600, 700, 800, 900]).filter(Boolean), []);
});

test('a missing transcript alarms once the first write is overdue', () => {
  const alarms = feed([null, null, null, null]);
  assert.equal(alarms[MISSING_AFTER_CALLS - 2], null);
  assert.equal(alarms[MISSING_AFTER_CALLS - 1], 'missing');
});

test('a transcript that stops growing alarms after enough calls, not before', () => {
  const sizes = [100, 200, ...Array<number>(STALLED_AFTER_CALLS + 1).fill(300)];
  const alarms = feed(sizes);
  assert.equal(alarms.at(-2), null);
  assert.equal(alarms.at(-1), 'stalled');
});

test('growth resets the count', () => {
  const sizes = [100, ...Array<number>(STALLED_AFTER_CALLS - 1).fill(100), 150, 150];
  assert.deepEqual(feed(sizes).filter(Boolean), []);
});

test('calls the transcript holds (one response, run in parallel) do not alarm', () => {
  let watch: TranscriptWatch | null = watchTranscript(null, 300).watch;
  for (let i = 0; i < STALLED_AFTER_CALLS + 4; i++) {
    const step = watchTranscript(watch, 300, true);
    assert.equal(step.alarm, null);
    watch = step.watch;
  }
});
