/**
 * `shim loop` under the real Claude Code CLI (pinned), offline against the mock Messages API:
 * - started from inside a Claude Code session (its markers in the environment), the agent is a
 *   session of its own: it writes its transcript, inherits none of the parent's markers, and
 *   runs with CLAUDE_CODE_FORCE_SESSION_PERSISTENCE=1;
 * - a turn that claims completion while a background task it started still runs is not a
 *   completion: the loop records `mid_work`, continues the session with a note, and completes
 *   only on a turn with nothing pending.
 *
 *   node scripts/build.mjs && node scripts/test.mjs test/e2e/loop-work-state
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { runShim, type ShimRun } from './run-shim.ts';
import {
  CLAUDE_BIN,
  claudeEnv,
  claudeInstallProblem,
  createScratch,
  E2E_SKIP,
  readJsonl,
  transcriptPathFor,
  type Scratch,
} from './claude.ts';
import { startMockApi, type MockApi, type Reply, type Scenario } from './mock-api.ts';

const skip = E2E_SKIP || claudeInstallProblem() || false;
const MARKER = 'SHIM_LOOP_COMPLETE';
const COMPLETE: Reply = { content: [{ type: 'text', text: `Done.\n${MARKER}` }] };
const PARENT_SESSION = '0a0a0a0a-1111-4222-8333-444455556666';
const PARENT_TOKEN = 'parent-messaging-token-7f3c9e';

type Ctx = { scratch: Scratch; mock: MockApi; shimHome: string; env: Record<string, string> };
type StatusJson = {
  run: { status: string; iteration: number };
  iterations: Array<{ number: number; sessionId: string | null; mode: string; outcome: string }>;
};

async function setup(t: TestContext, scenario: Scenario, extraEnv: Record<string, string> = {}) {
  const scratch = createScratch('shim-e2e-loopstate-');
  const mock = await startMockApi(scenario);
  const shimHome = join(scratch.root, 'shim-home');
  const env = claudeEnv(scratch, mock, {
    SHIM_HOME: shimHome,
    CLAUDE_CODE_DISABLE_1M_CONTEXT: '1',
    NO_COLOR: '1',
    ...extraEnv,
  });
  const ctx: Ctx = { scratch, mock, shimHome, env };
  t.after(async () => {
    writeFileSync(join(scratch.project, 'release'), '');
    await mock.close();
    scratch.cleanup();
  });
  return ctx;
}

/** `shim loop <args>`, asynchronously: the mock answering the agent lives in this process. */
function shim(ctx: Ctx, args: string[], timeoutMs: number): Promise<ShimRun> {
  return runShim(['loop', ...args], { cwd: ctx.scratch.project, env: ctx.env, timeoutMs });
}

function loopArgs(goal: string, iterationTimeout: string): string[] {
  return [
    '--claude-bin',
    CLAUDE_BIN,
    '--goal',
    goal,
    '--iteration-timeout',
    iterationTimeout,
    '--',
    '--dangerously-skip-permissions',
  ];
}

async function status(ctx: Ctx): Promise<StatusJson> {
  const r = await shim(ctx, ['status', '--json'], 30_000);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as StatusJson;
}

function eventNames(ctx: Ctx): string[] {
  const dir = join(ctx.shimHome, 'loops');
  const runId = existsSync(dir) ? readdirSync(dir)[0] : undefined;
  if (!runId) return [];
  return readJsonl<{ name: string }>(join(dir, runId, 'events.jsonl')).map((e) => e.name);
}

describe('shim loop: whose session, and is the work done (real Claude Code CLI)', { skip }, () => {
  test(
    'started inside a Claude Code session, the agent still writes its own transcript',
    { timeout: 120_000 },
    async (t) => {
      const ctx = await setup(
        t,
        {
          steps: [
            {
              content: [
                { type: 'tool_use', name: 'Bash', input: { command: 'env > agent-env.txt' } },
              ],
            },
          ],
          final: COMPLETE,
        },
        {
          // What a Claude Code session gives every process it starts (a hook, a Bash command).
          CLAUDECODE: '1',
          CLAUDE_CODE_CHILD_SESSION: '1',
          CLAUDE_CODE_SESSION_ID: PARENT_SESSION,
          CLAUDE_CODE_ENTRYPOINT: 'cli',
          CLAUDE_CODE_MESSAGING_TOKEN: PARENT_TOKEN,
          CLAUDE_PID: '1',
        },
      );
      const run = await shim(
        ctx,
        loopArgs('Record the environment in agent-env.txt.', '90s'),
        110_000,
      );
      assert.equal(run.code, 0, `${run.stderr}\n${eventNames(ctx).join(' ')}`);
      const { run: record, iterations } = await status(ctx);
      assert.equal(record.status, 'completed');
      const sessionId = iterations[0]!.sessionId;
      assert.ok(sessionId);
      assert.notEqual(sessionId, PARENT_SESSION);
      const transcript = transcriptPathFor(ctx.scratch.home, ctx.scratch.project, sessionId);
      assert.ok(existsSync(transcript), `the agent's transcript exists: ${transcript}`);
      assert.match(readFileSync(transcript, 'utf8'), /env > agent-env\.txt/);

      // What the agent itself was given, as its Bash tool saw it.
      const agentEnv = readFileSync(join(ctx.scratch.project, 'agent-env.txt'), 'utf8');
      assert.match(agentEnv, /^CLAUDE_CODE_FORCE_SESSION_PERSISTENCE=1$/m);
      assert.ok(!agentEnv.includes(PARENT_SESSION), "the parent's session id did not reach it");
      assert.ok(!agentEnv.includes(PARENT_TOKEN), "the parent's messaging token did not reach it");
      assert.match(agentEnv, new RegExp(`^CLAUDE_CODE_SESSION_ID=${sessionId}$`, 'm'));
    },
  );

  test(
    'a turn that claims completion with a background task still running is not a completion',
    { timeout: 180_000 },
    async (t) => {
      const ctx = await setup(t, {
        steps: [
          {
            content: [
              {
                type: 'tool_use',
                name: 'Bash',
                input: {
                  command: 'sh slow-build.sh',
                  run_in_background: true,
                  description: 'slow build',
                },
              },
            ],
          },
          // The turn ends while the build still runs: Claude Code waits for it, the loop's
          // iteration timeout ends the agent.
          { content: [{ type: 'text', text: `The build runs in the background.\n${MARKER}` }] },
        ],
        final: COMPLETE,
      });
      // Runs until the test releases it (or two minutes pass): a build that outlives the turn.
      writeFileSync(
        join(ctx.scratch.project, 'slow-build.sh'),
        'i=0; while [ ! -f release ] && [ $i -lt 240 ]; do sleep 0.5; i=$((i+1)); done\n',
      );
      const run = await shim(ctx, loopArgs('Build the project.', '25s'), 170_000);
      assert.equal(run.code, 0, `${run.stderr}\n${eventNames(ctx).join(' ')}`);
      const { run: record, iterations } = await status(ctx);
      assert.equal(record.status, 'completed');
      assert.deepEqual(
        iterations.map((i) => i.outcome),
        ['mid_work', 'finished'],
        'the first turn ended mid-work; only the second completed',
      );
      assert.equal(iterations[1]!.mode, 'continue');
      assert.equal(iterations[1]!.sessionId, iterations[0]!.sessionId);
      const names = eventNames(ctx);
      assert.ok(names.includes('loop.mid_work'), names.join(' '));
      assert.equal(names.filter((n) => n === 'loop.completion_claimed').length, 1);
      // The continued session was told what was still running.
      const told = ctx.mock.requestsContaining('background work you started was still running');
      assert.ok(told.length > 0, 'the next turn carries the mid-work note');
      assert.ok(ctx.mock.requestsContaining('slow build').length > 0);
    },
  );
});
