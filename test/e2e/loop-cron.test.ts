/**
 * `shim loop` and Claude Code's scheduled prompts, under the real CLI (pinned), offline against
 * the mock Messages API. CronCreate and CronDelete are deferred tools in 2.1.332: the model loads
 * them with ToolSearch (`select:…`) first, as a real one would.
 * - a turn that schedules a prompt and claims completion is `mid_work`; the session is continued
 *   with a note naming the prompt; the resumed CLI still has the job (CronList lists it), so a
 *   turn that claims completion without deleting it is `mid_work` again; the run completes on
 *   the turn that deletes it by the id CronCreate returned;
 * - a CronCreate the CLI refuses (an invalid expression) schedules nothing: the turn completes;
 * - a one-shot job (its result says "task", not "job") deleted in the same turn leaves nothing.
 *
 *   node scripts/build.mjs && node scripts/test.mjs test/e2e/loop-cron
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
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
  type Scratch,
} from './claude.ts';
import {
  searchableText,
  startMockApi,
  type MessagesBody,
  type MockApi,
  type Reply,
  type Scenario,
} from './mock-api.ts';

const skip = E2E_SKIP || claudeInstallProblem() || false;
const MARKER = 'SHIM_LOOP_COMPLETE';
const NIGHTLY = { cron: '*/5 * * * *', prompt: 'check the nightly build' };
const MID_WORK_NOTE = 'background work you started was still running';

type Ctx = { scratch: Scratch; mock: MockApi; shimHome: string; env: Record<string, string> };
type StatusJson = {
  run: { status: string };
  iterations: Array<{ number: number; sessionId: string | null; mode: string; outcome: string }>;
};
type LoopEvent = { name: string; iteration: number | null; data: Record<string, unknown> };

const call = (
  name: string,
  input: Record<string, unknown> | ((n: string, b: MessagesBody) => Record<string, unknown>),
): Reply => ({
  content: [{ type: 'tool_use', name, input }],
});
const load = (tools: string): Reply => call('ToolSearch', { query: `select:${tools}` });
const claim = (text: string): Reply => ({
  content: [{ type: 'text', text: `${text}\n${MARKER}` }],
});

/** The id the conversation's CronCreate result named ("Scheduled recurring job 7150f4aa (…)"). */
function jobIdIn(body: MessagesBody, kind: 'recurring job' | 'one-shot task'): string {
  const id = new RegExp(`Scheduled ${kind} (\\S+) \\(`).exec(searchableText(body))?.[1];
  assert.ok(id, `the conversation carries a CronCreate result naming the ${kind}`);
  return id;
}

async function setup(t: TestContext, scenario: Scenario): Promise<Ctx> {
  const scratch = createScratch('shim-e2e-loopcron-');
  const mock = await startMockApi(scenario);
  const shimHome = join(scratch.root, 'shim-home');
  const env = claudeEnv(scratch, mock, {
    SHIM_HOME: shimHome,
    CLAUDE_CODE_DISABLE_1M_CONTEXT: '1',
    NO_COLOR: '1',
  });
  t.after(async () => {
    await mock.close();
    scratch.cleanup();
  });
  return { scratch, mock, shimHome, env };
}

/** `shim loop <args>`, asynchronously: the mock answering the agent lives in this process. */
function shim(ctx: Ctx, args: string[], timeoutMs: number): Promise<ShimRun> {
  return runShim(['loop', ...args], { cwd: ctx.scratch.project, env: ctx.env, timeoutMs });
}

/** Runs the loop to its end and returns what `shim loop status --json` and the journal say. */
async function runLoop(
  ctx: Ctx,
  goal: string,
): Promise<{ status: StatusJson; events: LoopEvent[] }> {
  const run = await shim(
    ctx,
    [
      '--claude-bin',
      CLAUDE_BIN,
      '--goal',
      goal,
      '--iteration-timeout',
      '90s',
      '--max-iterations',
      '5',
      '--',
      '--dangerously-skip-permissions',
    ],
    170_000,
  );
  const journal = loopEvents(ctx);
  assert.equal(run.code, 0, `${run.stderr}\n${journal.map((e) => e.name).join(' ')}`);
  const shown = await shim(ctx, ['status', '--json'], 30_000);
  assert.equal(shown.code, 0, shown.stderr);
  return { status: JSON.parse(shown.stdout) as StatusJson, events: journal };
}

function loopEvents(ctx: Ctx): LoopEvent[] {
  const dir = join(ctx.shimHome, 'loops');
  const runId = existsSync(dir) ? readdirSync(dir)[0] : undefined;
  return runId ? readJsonl<LoopEvent>(join(dir, runId, 'events.jsonl')) : [];
}

/** Structured tool results (`tool_use_result`) of one iteration's stream-json, as the CLI wrote it. */
function toolResults(ctx: Ctx, iteration: number): Array<Record<string, unknown>> {
  const dir = join(ctx.shimHome, 'loops');
  const runId = readdirSync(dir)[0]!;
  return readJsonl<{ type: string; tool_use_result?: unknown }>(
    join(dir, runId, `iteration-${iteration}.stdout.jsonl`),
  )
    .map((line) => line.tool_use_result)
    .filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null);
}

describe('shim loop: a scheduled prompt is pending work (real Claude Code CLI)', { skip }, () => {
  test(
    'a turn that schedules a prompt is mid-work until a turn deletes the job',
    { timeout: 180_000 },
    async (t) => {
      const ctx = await setup(t, {
        steps: [
          // Iteration 1: schedule, then claim completion.
          load('CronCreate,CronDelete,CronList'),
          call('CronCreate', NIGHTLY),
          claim('The nightly build check is scheduled.'),
          // Iteration 2 (the session resumed): look, and claim completion with the job still set.
          load('CronList'),
          call('CronList', {}),
          claim('The check runs every five minutes.'),
          // Iteration 3: delete the job by the id CronCreate returned, then claim completion.
          load('CronDelete'),
          call('CronDelete', (_name, body) => ({ id: jobIdIn(body, 'recurring job') })),
          claim('The nightly build check is cancelled.'),
        ],
      });
      const { status, events } = await runLoop(ctx, 'Set up the nightly build check.');
      assert.equal(status.run.status, 'completed');
      assert.deepEqual(
        status.iterations.map((i) => [i.mode, i.outcome]),
        [
          ['fresh', 'mid_work'],
          ['continue', 'mid_work'],
          ['continue', 'finished'],
        ],
        events.map((e) => e.name).join(' '),
      );
      // The CLI ended each turn by itself (it does not wait for a job), not the loop's timeout.
      assert.ok(!events.some((e) => e.name === 'loop.agent_timeout'));
      const session = status.iterations[0]!.sessionId;
      assert.ok(session);
      assert.ok(
        status.iterations.every((i) => i.sessionId === session),
        'one session throughout',
      );

      // The job as the real CLI returned it: the id in the structured result and the text alike.
      const created = toolResults(ctx, 1).find((r) => r.humanSchedule !== undefined);
      assert.ok(created, 'iteration 1 has a CronCreate result');
      const jobId = String(created.id);
      assert.match(jobId, /^[0-9a-f]{8}$/);
      assert.equal(created.recurring, true);
      assert.equal(created.durable, false);

      // Each mid-work iteration named the scheduled prompt, and the next turn was told it.
      const pending = `scheduled "${NIGHTLY.cron}: ${NIGHTLY.prompt}" (job ${jobId})`;
      const midWork = events.filter((e) => e.name === 'loop.mid_work');
      assert.deepEqual(
        midWork.map((e) => [e.iteration, e.data.pending, e.data.markerSeen]),
        [
          [1, [pending], true],
          [2, [pending], true],
        ],
      );
      const told = ctx.mock.requestsContaining(`${MID_WORK_NOTE} (${pending})`);
      assert.ok(told.length > 0, 'the next turn was told which job is pending');
      assert.ok(told.every((r) => searchableText(r.body).includes('CronDelete with its id')));
      assert.equal(events.filter((e) => e.name === 'loop.completion_claimed').length, 1);

      // The resumed CLI still had the job (so iteration 2 was rightly not done), and the delete
      // by its id succeeded.
      assert.ok(
        ctx.mock.requestsContaining(`${jobId} — Every 5 minutes (recurring) [session-only]`)
          .length > 0,
        'CronList in the resumed session lists the job',
      );
      assert.deepEqual(
        toolResults(ctx, 3).filter((r) => Object.keys(r).join() === 'id'),
        [{ id: jobId }],
        'CronDelete returned the job it cancelled',
      );
      assert.ok(ctx.mock.requestsContaining(`Cancelled job ${jobId}.`).length > 0);
    },
  );

  test('a CronCreate the CLI refuses schedules nothing', { timeout: 120_000 }, async (t) => {
    const ctx = await setup(t, {
      steps: [
        load('CronCreate'),
        call('CronCreate', { cron: 'every morning', prompt: 'check the nightly build' }),
        claim('No schedule after all.'),
      ],
    });
    const { status, events } = await runLoop(ctx, 'Set up the nightly build check.');
    assert.equal(status.run.status, 'completed');
    assert.deepEqual(
      status.iterations.map((i) => i.outcome),
      ['finished'],
      events.map((e) => e.name).join(' '),
    );
    assert.ok(
      ctx.mock.requestsContaining("Invalid cron expression 'every morning'").length > 0,
      'the real CLI refused the call',
    );
    assert.ok(!events.some((e) => e.name === 'loop.mid_work'));
  });

  test(
    'a one-shot job deleted in the same turn leaves nothing pending',
    { timeout: 120_000 },
    async (t) => {
      const ctx = await setup(t, {
        steps: [
          load('CronCreate,CronDelete'),
          call('CronCreate', { cron: '17 3 * * *', prompt: 'send the report', recurring: false }),
          call('CronDelete', (_name, body) => ({ id: jobIdIn(body, 'one-shot task') })),
          claim('The report reminder was not needed.'),
        ],
      });
      const { status, events } = await runLoop(ctx, 'Decide about the report reminder.');
      assert.equal(status.run.status, 'completed');
      assert.deepEqual(
        status.iterations.map((i) => i.outcome),
        ['finished'],
        events.map((e) => e.name).join(' '),
      );
      const [created, deleted] = toolResults(ctx, 1).filter((r) => typeof r.id === 'string');
      assert.equal(created?.recurring, false);
      assert.deepEqual(deleted, { id: created?.id });
    },
  );
});
