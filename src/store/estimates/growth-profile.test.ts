import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { openTempStore, type TempStore } from '../../../test/helpers/store.ts';
import {
  loadGrowthProfile,
  PROFILE_SESSIONS,
  recordGrowthSteps,
  STEPS_PER_SESSION,
} from './growth-profile.ts';

describe('growth profile', () => {
  let store: TempStore;
  beforeEach(() => {
    store = openTempStore();
  });
  afterEach(() => store.dispose());

  test("a session reads the other sessions' steps, never its own", () => {
    recordGrowthSteps(store.home, { sessionId: 'a', compactions: 0 }, [100, 200], 1);
    recordGrowthSteps(store.home, { sessionId: 'b', compactions: 0 }, [30_000], 2);
    assert.deepEqual(loadGrowthProfile(store.home, 'a'), [30_000]);
    assert.deepEqual(loadGrowthProfile(store.home, 'b'), [100, 200]);
    assert.deepEqual(loadGrowthProfile(store.home, null).sort(), [100, 200, 30_000].sort());
  });

  test('a window is replaced by its newer steps; an earlier window of the session stays', () => {
    recordGrowthSteps(store.home, { sessionId: 'a', compactions: 0 }, [1, 2], 1);
    recordGrowthSteps(store.home, { sessionId: 'a', compactions: 0 }, [1, 2, 3], 2);
    recordGrowthSteps(store.home, { sessionId: 'a', compactions: 1 }, [9], 3);
    assert.deepEqual(loadGrowthProfile(store.home, 'other').sort(), [1, 2, 3, 9]);
  });

  test('bounded: the newest steps of each window, the newest windows', () => {
    const many = Array.from({ length: STEPS_PER_SESSION + 40 }, (_, i) => i);
    recordGrowthSteps(store.home, { sessionId: 'long', compactions: 0 }, many, 0);
    assert.deepEqual(loadGrowthProfile(store.home, null), many.slice(-STEPS_PER_SESSION));
    for (let i = 1; i <= PROFILE_SESSIONS; i++)
      recordGrowthSteps(store.home, { sessionId: `s${i}`, compactions: 0 }, [i], i);
    const steps = loadGrowthProfile(store.home, null).sort((a, b) => a - b);
    const expected = Array.from({ length: PROFILE_SESSIONS }, (_, i) => i + 1);
    assert.deepEqual(steps, expected, 'the oldest window made room');
  });

  test('a damaged file reads as an empty profile and is rewritten on the next record', () => {
    const path = join(store.home, 'cache', 'growth-profile.json');
    recordGrowthSteps(store.home, { sessionId: 'a', compactions: 0 }, [5], 1);
    writeFileSync(
      path,
      '{"v":1,"sessions":{"x":{"at":"no","steps":[1]},"y":{"at":2,"steps":[7,"8"]}}',
    );
    assert.deepEqual(loadGrowthProfile(store.home, null), [], 'truncated JSON');
    writeFileSync(
      path,
      '{"v":1,"sessions":{"x":{"at":"no","steps":[1]},"y":{"at":2,"steps":[7,"8"]}}}',
    );
    assert.deepEqual(loadGrowthProfile(store.home, null), [7], 'bad entries and values skipped');
    recordGrowthSteps(store.home, { sessionId: 'b', compactions: 0 }, [4.4], 3);
    assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')).sessions['b#0'].steps, [4]);
  });
});
