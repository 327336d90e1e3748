import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AGENT_IDS } from '../../core/agent-id.ts';
import {
  CLAUDE_TARGET,
  CODEX_TARGET,
  GEMINI_TARGET,
} from '../../core/resume/restore-target.test-helper.ts';
import { testAgents } from '../../../test/helpers/agents.ts';
import { restoreTargetOf } from './restore-target.ts';

test("each agent's restore target is its own name, hook text limit, task tools and instruction files", async () => {
  const targets = Object.fromEntries(
    await Promise.all(
      AGENT_IDS.map(async (id) => [id, restoreTargetOf(await testAgents.agent(id))] as const),
    ),
  );
  // The core's renderer tests use these: they must be what the agents say.
  assert.deepEqual(targets.claude, CLAUDE_TARGET);
  assert.deepEqual(targets.codex, CODEX_TARGET);
  assert.deepEqual(targets.gemini, GEMINI_TARGET);
});
