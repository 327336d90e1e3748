import assert from 'node:assert/strict';
import { test } from 'node:test';
import { planLoop } from '../core/loop/loop-plan.ts';
import { reorderFirstSession } from '../core/plan/session-plan.ts';
import { describeEvent } from './describe-event.ts';

const step = (index: number, tokens: number) => ({ index, title: `step ${index}`, tokens });

test("loop.plan: the packing, the first session's reordering, a prior's estimates and a default window said as such", () => {
  const plan = planLoop({
    steps: [step(1, 70_000), step(2, 50_000), step(3, 20_000)],
    sharedTokens: 0,
    startTokens: 20_000,
    restartTokens: 120_000,
  });
  const line = describeEvent({
    name: 'loop.plan',
    iteration: 0,
    data: {
      ...plan,
      reorder: reorderFirstSession(plan),
      basis: 'prior',
      agent: 'codex',
      windowFrom: 'agent-default',
      windowTokens: 272_000,
    },
  });
  assert.match(line, /^plan: 3 open steps ≈ 140k tokens in ~2 sessions \(restart at 120k\)/);
  assert.match(
    line,
    /reorder: step 3 \(~20k\) fits in the 30k before the first restart — take it before step 2/,
  );
  assert.match(
    line,
    /estimates from shim's prior: no finished tasks of Codex CLI to learn from yet/,
  );
  // No Codex session in the directory: the window is a guess, and the line says so.
  assert.match(
    line,
    /approximate: no Codex CLI session in this directory that names its model, so sized against its default window for an unknown model \(272k\)/,
  );
  const learned = describeEvent({
    name: 'loop.plan',
    iteration: 0,
    data: { ...plan, reorder: [], basis: 'history', agent: 'gemini', windowFrom: 'session' },
  });
  assert.doesNotMatch(learned, /reorder|prior|approximate/);
});
