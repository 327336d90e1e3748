/**
 * A handoff at the usage limit, with the real Claude Code CLI (pinned) offline and shim's hooks:
 * a turn refused with a usage limit (HTTP 429, Claude Code's "You've hit your limit · resets …")
 * leaves a handoff that names the limit and its reset; the next session in the project gets it
 * in its first request, and the one after does not (once).
 *
 *   node scripts/build.mjs && node scripts/test.mjs test/e2e/usage-limit-handoff
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { DatabaseSync } from '@photostructure/sqlite';
import {
  claudeInstallProblem,
  createScratch,
  describeRun,
  E2E_SKIP,
  installShimHooks,
  pollUntil,
  runClaude,
} from './claude.ts';
import { startMockApi } from './mock-api.ts';

const skip = E2E_SKIP || claudeInstallProblem() || false;
const LIMIT = "You've hit your limit · resets 3pm (UTC)";
const NOTE = 'Stopped at a usage limit';

type HandoffRow = { kind: string; path: string; session_id: string; picked_up_by: string | null };

describe('handoff at a usage limit (real Claude Code CLI, shim hooks)', { skip }, () => {
  test('the next session gets it once, with the reset Claude Code named', async (t) => {
    const scratch = createScratch('shim-e2e-limit-');
    const mock = await startMockApi({
      steps: [
        {
          content: [
            { type: 'tool_use', name: 'Bash', input: { command: 'echo started > wombat.txt' } },
          ],
        },
        { error: { status: 429, type: 'rate_limit_error', message: LIMIT } },
      ],
    });
    t.after(async () => {
      await mock.close();
      scratch.cleanup();
    });
    installShimHooks(scratch);
    const shimDb = join(scratch.home, '.shim', 'shim.db');
    const handoffs = (): HandoffRow[] => {
      const db = new DatabaseSync(shimDb, { readOnly: true, timeout: 5000 });
      try {
        return db
          .prepare(
            "SELECT kind, path, session_id, picked_up_by FROM handoffs WHERE kind = 'usage_limit'",
          )
          .all() as HandoffRow[];
      } finally {
        db.close();
      }
    };
    const env = { CLAUDE_CODE_MAX_RETRIES: '0' };

    const limited = await runClaude({ scratch, mock, prompt: 'Write the WOMBAT-9 report', env });
    assert.notEqual(limited.exitCode, 0, 'the turn failed at the limit');
    const [handoff] = await pollUntil(() => (handoffs().length > 0 ? handoffs() : null), 30_000);
    assert.equal(handoff!.session_id, limited.sessionId);
    const document = readFileSync(handoff!.path, 'utf8');
    assert.match(document.split('\n')[0]!, new RegExp(`^> ${NOTE}.*resets 3pm \\(UTC\\)`));

    mock.reset({ steps: [], final: { content: [{ type: 'text', text: 'Carrying on.' }] } });
    const next = await runClaude({ scratch, mock, prompt: 'carry on', env });
    assert.equal(next.exitCode, 0, describeRun(next));
    const carrying = mock.requestsContaining(NOTE);
    assert.equal(carrying.length > 0, true, 'the next session was told about the limit');
    assert.ok(mock.requestsContaining('resets 3pm (UTC)').length > 0, 'with its reset');
    assert.ok(mock.requestsContaining('Write the WOMBAT-9 report').length > 0, 'and the work');
    assert.equal(handoffs()[0]!.picked_up_by, next.sessionId);

    mock.reset({ steps: [], final: { content: [{ type: 'text', text: 'Fresh.' }] } });
    const third = await runClaude({ scratch, mock, prompt: 'something else', env });
    assert.equal(third.exitCode, 0, describeRun(third));
    assert.deepEqual(mock.requestsContaining(NOTE), [], 'picked up once, not twice');
  });
});
