import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agentTaskTools } from './agent-task-tools.ts';

test("each agent's restore names its own task-list tool (adapter capabilities)", async () => {
  assert.deepEqual(await agentTaskTools('claude'), ['TodoWrite', 'TaskCreate']);
  assert.deepEqual(await agentTaskTools('codex'), ['update_plan']);
  assert.deepEqual(await agentTaskTools('gemini'), ['write_todos']);
  assert.deepEqual(await agentTaskTools(), ['TodoWrite', 'TaskCreate']);
});
