import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAdapter } from '../../agents/dispatch.ts';
import { AGENT_IDS } from '../../core/agent-id.ts';
import {
  CLAUDE_TARGET,
  CODEX_TARGET,
  GEMINI_TARGET,
} from '../../core/resume/restore-target.test-helper.ts';
import { loadRestoreTarget, restoreTargetOf } from './restore-target.ts';

test("each agent's restore target is its adapter's own name, hook text limit, task tools and instruction files", async () => {
  for (const id of AGENT_IDS) {
    const adapter = await loadAdapter(id);
    assert.deepEqual(await loadRestoreTarget(id), restoreTargetOf(adapter), id);
  }
  // The core's renderer tests use these: they must be what the adapters say.
  assert.deepEqual(await loadRestoreTarget('claude'), CLAUDE_TARGET);
  assert.deepEqual(await loadRestoreTarget('codex'), CODEX_TARGET);
  assert.deepEqual(await loadRestoreTarget('gemini'), GEMINI_TARGET);
});
