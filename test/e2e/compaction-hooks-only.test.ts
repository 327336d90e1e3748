/**
 * The compaction scenario with shim's command hooks only (no mod: what a user gets when `claude`
 * was not on PATH at install), under the real Claude Code CLI (pinned 2.1.330) offline against
 * the mock Messages API: no level note, level checkpoint or level handoff after the compaction
 * that rests on the context before it, and the restore headed as a compaction. Run twice: as the
 * mock streams normally, and with each tool-calling response's end held back, which makes
 * Claude Code run the tool (and PostToolUse) before the response is in the transcript
 * (docs/claude-code.md, "The transcript lags the hooks").
 *
 *   node scripts/build.mjs && node scripts/test.mjs test/e2e/compaction-hooks-only
 *   SHIM_E2E_REPEAT=5 …   runs each scenario five times
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { DatabaseSync } from '@photostructure/sqlite';
import {
  claudeInstallProblem,
  createScratch,
  describeRun,
  E2E_SKIP,
  installShimHooks,
  readJsonl,
  runClaude,
} from './claude.ts';
import { startMockApi, type MockApi, type Reply } from './mock-api.ts';

const skip = E2E_SKIP || claudeInstallProblem() || false;
const REPEAT = Math.max(1, Number(process.env.SHIM_E2E_REPEAT ?? 1) || 1);

const COMPACTION_HEAD = '# Continuing after compaction (shim checkpoint #';
/** What shim's level notices and notes say (core/context/alerts.ts, the Stop and prompt notes). */
const LEVEL_TEXT = /of the auto-compact threshold \(L[0-3]\)/;

/** A Bash call from a response whose context is `context` tokens (200k window: T = 167,000). */
const bashAt = (command: string, context: number, endDelayMs: number): Reply => ({
  content: [{ type: 'tool_use', name: 'Bash', input: { command } }],
  usage: { input_tokens: 1000, cache_read_input_tokens: context - 1000, output_tokens: 100 },
  ...(endDelayMs > 0 ? { endDelayMs } : {}),
});

type Entry = {
  type?: string;
  subtype?: string;
  compactMetadata?: { trigger?: string };
  attachment?: { type?: string; hookEvent?: string; content?: unknown };
};

type Outcome = { scratch: ReturnType<typeof createScratch>; mock: MockApi; transcript: Entry[] };

async function runScenario(endDelayMs: number): Promise<Outcome & { cleanup(): Promise<void> }> {
  const scratch = createScratch('shim-e2e-compact-hooks-');
  const mock = await startMockApi({
    steps: [
      bashAt('echo one', 11_000, endDelayMs), // L0
      bashAt('echo two', 145_000, endDelayMs), // 87%: L2
      bashAt('echo three', 169_900, endDelayMs), // 102%: Claude Code compacts before the next request
      bashAt('echo four', 31_000, endDelayMs), // 19% after the compaction
      bashAt('echo five', 33_000, endDelayMs),
    ],
    final: {
      content: [{ type: 'text', text: 'Finished after compaction.' }],
      usage: { input_tokens: 1000, cache_read_input_tokens: 34_000, output_tokens: 100 },
    },
    summary: {
      content: [
        { type: 'text', text: '<analysis>ok</analysis>\n<summary>Ran commands.</summary>' },
      ],
    },
  });
  installShimHooks(scratch);
  const run = await runClaude({
    scratch,
    mock,
    prompt: 'Please build the ZEBRA-42 importer and keep the CSV parser strict.',
    env: { CLAUDE_CODE_DISABLE_1M_CONTEXT: '1' },
  });
  assert.equal(run.exitCode, 0, describeRun(run));
  return {
    scratch,
    mock,
    transcript: readJsonl<Entry>(run.transcriptPath),
    cleanup: async () => {
      await mock.close();
      scratch.cleanup();
    },
  };
}

function levelRowsAfter(
  shimHome: string,
  since: number,
): { checkpoints: string[]; handoffs: string[] } {
  const path = join(shimHome, 'shim.db');
  if (!existsSync(path)) return { checkpoints: [], handoffs: [] };
  const db = new DatabaseSync(path, { readOnly: true, timeout: 5000 });
  try {
    const after = new Date(since).toISOString();
    const checkpoints = (
      db
        .prepare(
          "SELECT triggered_by FROM checkpoints WHERE triggered_by = 'danger_zone' AND created_at > ?",
        )
        .all(after) as Array<{ triggered_by: string }>
    ).map((r) => r.triggered_by);
    const handoffs = (
      db
        .prepare("SELECT kind FROM handoffs WHERE kind LIKE 'level_%' AND created_at > ?")
        .all(after) as Array<{ kind: string }>
    ).map((r) => r.kind);
    return { checkpoints, handoffs };
  } finally {
    db.close();
  }
}

function checkOutcome({ scratch, mock, transcript }: Outcome): void {
  const boundary = transcript.findIndex(
    (e) => e.subtype === 'compact_boundary' && e.compactMetadata?.trigger === 'auto',
  );
  assert.ok(boundary >= 0, 'Claude Code auto-compacted');

  // No level notice for the user after the boundary (the hooks' messages are in the transcript).
  const notices = transcript
    .slice(boundary)
    .filter((e) => e.type === 'attachment' && e.attachment?.type === 'hook_system_message')
    .map((e) => String(e.attachment?.content ?? ''));
  assert.deepEqual(
    notices.filter((n) => LEVEL_TEXT.test(n)),
    [],
    'no level notice after the compaction',
  );

  // No level note in any request after the compaction; the first one carries the restore,
  // headed as a compaction.
  const summary = mock.requests.find((r) => r.kind === 'summary');
  assert.ok(summary, 'a summary request');
  const after = mock.requests.filter(
    (r) => r.index > summary.index && (r.kind === 'step' || r.kind === 'final'),
  );
  assert.ok(after.length > 0, 'requests followed the compaction');
  const text = (r: (typeof after)[number]) => JSON.stringify(r.body?.messages ?? []);
  for (const request of after) {
    assert.ok(
      !text(request).includes('[shim] Context is at'),
      `a level note in request ${request.index}`,
    );
  }

  assert.ok(text(after[0]!).includes(COMPACTION_HEAD), 'the restore, headed as a compaction');

  // No level checkpoint or handoff taken once the compaction began.
  const rows = levelRowsAfter(join(scratch.home, '.shim'), summary.at);
  assert.deepEqual(rows, { checkpoints: [], handoffs: [] });
}

describe('hooks only: the compaction scenario under the real CLI', { skip }, () => {
  for (const [name, endDelayMs] of [
    ['as the mock streams', 0],
    ['each response ending 600 ms after its tool call (the hooks run before it is written)', 600],
  ] as const) {
    test(`${name}: no stale level note, no level checkpoint or handoff after the compaction; the restore headed as one (${REPEAT}×)`, async () => {
      for (let i = 0; i < REPEAT; i++) {
        const outcome = await runScenario(endDelayMs);
        try {
          checkOutcome(outcome);
        } catch (error) {
          (error as Error).message = `run ${i + 1} of ${REPEAT}: ${(error as Error).message}`;
          throw error;
        } finally {
          await outcome.cleanup();
        }
      }
    });
  }
});
