import assert from 'node:assert/strict';
import { test } from 'node:test';
import { handoffStamp, timeToLevel } from './project-state.ts';

test('time to L2 at the current pace: minutes, hours, now, or unknown without growth', () => {
  const at = (contextTokens: number) => ({ contextTokens, compactThreshold: 100_000 });
  assert.equal(timeToLevel(at(70_000), 85, 1_000), '15m');
  assert.equal(timeToLevel(at(10_000), 85, 500), '2h30m');
  assert.equal(timeToLevel(at(90_000), 85, 1_000), 'now');
  assert.equal(timeToLevel(at(70_000), 85, null), null);
  assert.equal(timeToLevel(at(70_000), 85, 0), null);
});

test('handoff names are YYYY-MM-DD-HHMM in UTC', () => {
  assert.equal(handoffStamp(new Date('2026-01-07T10:45:59.999Z')), '2026-01-07-1045');
});
