import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findRescuePoint, type ChainEntry } from './rescue-point.ts';

const e = (uuid: string, kind: ChainEntry['kind'], contextTokens: number): ChainEntry => ({
  uuid,
  kind,
  contextTokens,
});

const chain = [
  e('p', 'prompt', 0),
  e('c1', 'tool_call', 20_000),
  e('r1', 'tool_result', 20_000),
  e('c2', 'tool_call', 190_000),
  e('r2', 'tool_result', 190_000),
  e('x', 'refused', 190_000),
  e('late', 'answer', 1_000),
];

test('forks after the last whole step that fits, before the refusal', () => {
  assert.deepEqual(findRescuePoint(chain, 160_000), {
    uuid: 'r1',
    contextTokens: 20_000,
    entriesDropped: 4,
  });
});

test('never between a tool call and its result; nothing that fits: null', () => {
  assert.equal(findRescuePoint(chain, 200_000)?.uuid, 'r2');
  assert.equal(findRescuePoint([e('p', 'prompt', 0), e('c', 'tool_call', 5)], 100), null);
  assert.equal(findRescuePoint(chain, 10_000), null);
});
