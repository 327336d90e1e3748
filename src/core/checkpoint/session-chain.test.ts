import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_CHAIN_STEPS, traceSessionChain, type RestoreLink } from './session-chain.ts';

const link = (from: string, into: string, at: string, reason: string): RestoreLink => ({
  checkpointId: `${from}-${at}`,
  fromSession: from,
  intoSession: into,
  restoredAt: `2026-11-20T10:${at}:00.000Z`,
  reason,
});

const LINKS = [
  link('a', 'a', '10', 'compaction'),
  link('a', 'b', '20', 'crash'),
  link('b', 'c', '30', 'handoff'),
  link('x', 'y', '05', 'crash'),
];

const shape = (steps: ReturnType<typeof traceSessionChain>) =>
  steps.map((s) => `${s.sessionId}${s.part}:${s.via?.reason ?? 'start'}`);

test('a compaction, a crash resume and a handoff make one chain, from any of its sessions', () => {
  const expected = ['a1:start', 'a2:compaction', 'b1:crash', 'c1:handoff'];
  for (const id of ['a', 'b', 'c']) assert.deepEqual(shape(traceSessionChain(id, LINKS)), expected);
});

test('a session nothing continues is a chain of one', () => {
  assert.deepEqual(shape(traceSessionChain('lonely', LINKS)), ['lonely1:start']);
});

test('a checkpoint restored twice continues into the first session only; cycles stop', () => {
  const links = [
    link('a', 'b', '20', 'crash'),
    link('a', 'd', '25', 'crash'),
    link('b', 'a', '30', 'handoff'),
  ];
  assert.deepEqual(shape(traceSessionChain('a', links)), ['a1:start', 'b1:crash']);
});

test('a compaction after the session was continued elsewhere is left out of the chain', () => {
  const links = [link('a', 'b', '20', 'crash'), link('a', 'a', '40', 'compaction')];
  assert.deepEqual(shape(traceSessionChain('b', links)), ['a1:start', 'b1:crash']);
});

test('links from a deleted checkpoint (no source session) are ignored', () => {
  const links: RestoreLink[] = [{ ...link('a', 'b', '20', 'crash'), fromSession: null }];
  assert.deepEqual(shape(traceSessionChain('b', links)), ['b1:start']);
});

test('a loop that restarted many times is cut at the chain limit', () => {
  const links = Array.from({ length: 400 }, (_, i) => ({
    ...link(`s${i}`, `s${i + 1}`, '00', 'loop_restart'),
    restoredAt: new Date(Date.UTC(2026, 10, 20, 0, i)).toISOString(),
  }));
  assert.equal(traceSessionChain('s0', links).length, MAX_CHAIN_STEPS);
});
