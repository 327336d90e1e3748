// test-speed: slow (an evaluation over every real session fixture)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  fixturePath,
  listFixtures,
  listTrainingFixtures,
  trainingFixturePath,
} from '../../../test/helpers/fixtures.ts';
import { readWorkSteps, scoreCheckpointTiming } from './evaluate-checkpoint-timing.ts';
import { logOf } from '../../../test/helpers/agents.ts';

const logs = () => [
  ...listFixtures().map((f) => logOf(fixturePath(f))),
  ...listTrainingFixtures().map((f) => logOf(trainingFixturePath(f))),
];

// The real sessions, read once for both tests (reading is ~all of their CPU).
let read: ReturnType<typeof readAll> | undefined;
const readAll = () => Promise.all(logs().map(readWorkSteps));

test('a real session reads as tool calls, its file changes and where its work changed', async () => {
  const all = await (read ??= readAll());
  const steps = all.flatMap((s) => s.steps);
  assert.ok(steps.length > 1000, `tool calls: ${steps.length}`);
  assert.ok(steps.some((s) => s.edit) && steps.some((s) => !s.edit));
  const changes = steps.filter((s) => s.workChange).length;
  assert.ok(changes > 50 && changes < steps.length / 4, `work changes: ${changes}`);
});

test('leave-one-out: checkpoints at work changes, after edits, lose less than by count at no more checkpoints', async () => {
  const report = scoreCheckpointTiming(await (read ??= readAll()));
  assert.ok(report.sessions >= 20, `sessions: ${report.sessions}`);
  assert.equal(report.count.restores, report.toolCalls);
  const learned = report.workChangeAfterEdits;
  assert.ok(learned.checkpoints <= report.count.checkpoints * 1.05, `${learned.checkpoints}`);
  assert.ok(learned.lossy < report.count.lossy, `${learned.lossy} vs ${report.count.lossy}`);
});
