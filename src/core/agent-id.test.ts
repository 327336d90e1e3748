import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agentLabel, toAgentId } from './agent-id.ts';
import { AppError } from './errors.ts';
import { validateCheckpoint } from './checkpoint/checkpoint-limits.ts';
import { makeTypicalCheckpoint } from './checkpoint/checkpoint-fixture.test-helper.ts';

test('a stored agent this shim does not know is said, not read as Claude Code', () => {
  assert.equal(toAgentId('codex'), 'codex');
  assert.throws(
    () => toAgentId('cursor'),
    (error: unknown) =>
      error instanceof AppError &&
      error.code === 'AGENT_UNKNOWN' &&
      error.message.includes('"cursor"') &&
      error.hint === 'upgrade shim to the version that wrote it',
  );
  assert.throws(() => toAgentId(undefined), AppError);
  assert.equal(agentLabel('gemini'), 'Gemini CLI');
  assert.equal(agentLabel('cursor'), 'cursor (an agent this shim does not know)');
});

test('a checkpoint of an unknown agent is refused at the door', () => {
  const c = makeTypicalCheckpoint();
  assert.deepEqual(validateCheckpoint(c).errors, []);
  const other = { ...c, source: { ...c.source, agent: 'cursor' } } as unknown as typeof c;
  assert.deepEqual(validateCheckpoint(other).errors, [
    'unknown agent "cursor" (this shim knows claude, codex, gemini)',
  ]);
});
