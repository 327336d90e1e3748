/**
 * `shim loop` under the real Claude Code CLI (pinned 2.1.330), offline against the mock Messages
 * API: the supervisor ends an iteration whose context crossed the threshold and restarts a fresh
 * session with the loop summary; a supervisor killed with -9 is picked up by `--resume`, which
 * re-attaches to the still-running agent (or continues its session when the agent died too).
 * Each test takes several seconds; SHIM_SKIP_E2E=1 skips them.
 *
 *   node scripts/build.mjs && node scripts/test.mjs test/e2e/loop
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { DatabaseSync } from '@photostructure/sqlite';
import { BIN } from '../helpers/cli.ts';
import {
  CLAUDE_BIN,
  claudeEnv,
  claudeInstallProblem,
  createScratch,
  E2E_SKIP,
  pollUntil,
  readJsonl,
  type Scratch,
} from './claude.ts';
import {
  searchableText,
  startMockApi,
  type MockApi,
  type RecordedRequest,
  type Reply,
  type Scenario,
} from './mock-api.ts';

const skip = E2E_SKIP || claudeInstallProblem() || false;

const GOAL = 'Create the KANGAROO-77 report files one.txt and two.txt in this directory.';
const HEADING = 'Previous Session Context (Summarized)';
const MARKER = 'SHIM_LOOP_COMPLETE';
const TEST_TIMEOUT = 120_000;

const bash = (command: string): Reply => ({
  content: [{ type: 'tool_use', name: 'Bash', input: { command } }],
});
const COMPLETE: Reply = { content: [{ type: 'text', text: `Done.\n${MARKER}` }] };

type LoopEventLine = {
  seq: number;
  name: string;
  iteration: number | null;
  data: Record<string, unknown>;
};
type IterationJson = {
  number: number;
  sessionId: string | null;
  mode: string;
  outcome: string | null;
  agentPid: number | null;
  endedAt: string | null;
};
type StatusJson = {
  run: {
    runId: string;
    status: string;
    liveStatus: string;
    restarts: number;
    iteration: number;
    sessionId: string | null;
  };
  iterations: IterationJson[];
};
type Finished = {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
};

type Ctx = {
  scratch: Scratch;
  mock: MockApi;
  shimHome: string;
  env: Record<string, string>;
  /** Agent pids seen (their process groups are killed at the end). */
  agents: Set<number>;
  supervisors: Set<ChildProcess>;
};

async function setup(t: TestContext, scenario: Scenario): Promise<Ctx> {
  const scratch = createScratch('shim-e2e-loop-');
  const mock = await startMockApi(scenario);
  const shimHome = join(scratch.root, 'shim-home');
  const env = claudeEnv(scratch, mock, {
    SHIM_HOME: shimHome,
    CLAUDE_CODE_DISABLE_1M_CONTEXT: '1',
    SHIM_CLAUDE_BIN: CLAUDE_BIN,
    NO_COLOR: '1',
  });
  const ctx: Ctx = { scratch, mock, shimHome, env, agents: new Set(), supervisors: new Set() };
  t.after(async () => {
    for (const child of ctx.supervisors) signalQuietly(child.pid, 'SIGKILL');
    // Agents whose supervisor did not stop them, and anything left in their groups.
    for (const pid of agentPids(ctx)) ctx.agents.add(pid);
    for (const pid of ctx.agents) {
      signalQuietly(-pid, 'SIGKILL');
      signalQuietly(pid, 'SIGKILL');
    }
    await mock.close();
    scratch.cleanup();
  });
  return ctx;
}

function signalQuietly(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

/** Whether `pid` runs (and is not a zombie). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return !existsSync('/proc/self/stat');
  }
}

/** `shim loop <args>` as a child process, in the project, with the loop's environment. */
function startShim(ctx: Ctx, args: string[]): { child: ChildProcess; done: Promise<Finished> } {
  const child = spawn(process.execPath, [BIN, 'loop', ...args], {
    cwd: ctx.scratch.project,
    env: ctx.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  ctx.supervisors.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<Finished>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      ctx.supervisors.delete(child);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, done };
}

/** Waits for `shim loop …` to exit, killing it after `timeoutMs`. */
async function finish(run: { child: ChildProcess; done: Promise<Finished> }, timeoutMs = 90_000) {
  const timer = setTimeout(() => signalQuietly(run.child.pid, 'SIGKILL'), timeoutMs);
  try {
    return await run.done;
  } finally {
    clearTimeout(timer);
  }
}

function loopArgs(goal: string): string[] {
  return [
    '--claude-bin',
    CLAUDE_BIN,
    '--goal',
    goal,
    '--iteration-timeout',
    '60s',
    '--',
    '--dangerously-skip-permissions',
  ];
}

function shimJson<T>(ctx: Ctx, args: string[]): T {
  const result = spawnSync(process.execPath, [BIN, 'loop', ...args], {
    cwd: ctx.scratch.project,
    env: ctx.env,
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(result.status, 0, `shim loop ${args.join(' ')}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

const status = (ctx: Ctx): StatusJson => shimJson<StatusJson>(ctx, ['status', '--json']);

/** The (single) run's id, once its directory exists. */
function runIdOf(ctx: Ctx): string | null {
  const dir = join(ctx.shimHome, 'loops');
  if (!existsSync(dir)) return null;
  return readdirSync(dir)[0] ?? null;
}

function events(ctx: Ctx, runId: string): LoopEventLine[] {
  return readJsonl<LoopEventLine>(join(ctx.shimHome, 'loops', runId, 'events.jsonl'));
}

/** The iterations' agent session ids in the store (none while the store does not exist). */
function sessionsOf(ctx: Ctx): (string | null)[] {
  if (!existsSync(join(ctx.shimHome, 'shim.db'))) return [];
  try {
    return query<{ session_id: string | null }>(ctx, 'SELECT session_id FROM loop_iterations').map(
      (r) => r.session_id,
    );
  } catch {
    return []; // the store is being made
  }
}

/** Agent pids recorded in the store (best effort: the store may not exist yet). */
function agentPids(ctx: Ctx): number[] {
  const path = join(ctx.shimHome, 'shim.db');
  if (!existsSync(path)) return [];
  try {
    return query<{ agent_pid: number | null }>(ctx, 'SELECT agent_pid FROM loop_iterations')
      .map((r) => r.agent_pid ?? 0)
      .filter((pid) => pid > 0);
  } catch {
    return [];
  }
}

function query<T>(ctx: Ctx, sql: string, ...params: Array<string | number>): T[] {
  const db = new DatabaseSync(join(ctx.shimHome, 'shim.db'), { readOnly: true, timeout: 5000 });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

function describeFinished(run: Finished, ctx: Ctx, runId: string | null): string {
  const names = runId ? events(ctx, runId).map((e) => `${e.seq}:${e.name}`) : [];
  return [
    `exit=${run.code} signal=${run.signal}`,
    `stderr=${run.stderr.slice(-2000)}`,
    `events=${names.join(' ')}`,
    `requests=${describeRequests(ctx.mock)}`,
  ].join('\n');
}

/** `index:kind[step]@session` for each request, for diagnostics. */
function describeRequests(mock: MockApi): string {
  return mock.requests
    .map((r) => `${r.index}:${r.kind}${r.stepIndex ?? ''}@${(sessionOf(r) ?? '?').slice(0, 8)}`)
    .join(' ');
}

/** Seqs in events.jsonl are 1..N without gaps, and every one is indexed in loop_events. */
function assertEventLogIntact(ctx: Ctx, runId: string): LoopEventLine[] {
  const lines = events(ctx, runId);
  assert.deepEqual(
    lines.map((e) => e.seq),
    lines.map((_, i) => i + 1),
    'events.jsonl seqs are 1..N',
  );
  const indexed = new Set(
    query<{ seq: number }>(ctx, 'SELECT seq FROM loop_events WHERE run_id = ?', runId).map(
      (r) => r.seq,
    ),
  );
  const missing = lines.filter((e) => !indexed.has(e.seq)).map((e) => e.seq);
  assert.deepEqual(missing, [], 'every event of the file is in loop_events');
  return lines;
}

/** The text blocks (or string content) of a request's first message, a user message. */
function firstUserTexts(request: RecordedRequest): string[] {
  const message = request.body?.messages?.[0];
  if (message?.role !== 'user') return [];
  if (typeof message.content === 'string') return [message.content];
  return message.content.flatMap((block) =>
    block.type === 'text' && typeof block.text === 'string' ? [block.text] : [],
  );
}

const sessionOf = (request: RecordedRequest): string | undefined =>
  request.headers['x-claude-code-session-id'];
const isMain = (request: RecordedRequest): boolean =>
  request.kind === 'step' || request.kind === 'final';

describe('shim loop under the real Claude Code CLI', { skip }, () => {
  test(
    '1. crosses the threshold, restarts fresh with the summary, completes',
    { timeout: TEST_TIMEOUT },
    async (t) => {
      const ctx = await setup(t, {
        steps: [
          bash('echo one > one.txt'),
          // 125,000 tokens: 75% of the 167,000 auto-compact threshold (restart at 70%).
          {
            ...bash('echo two > two.txt'),
            usage: { input_tokens: 1000, cache_read_input_tokens: 124_000, output_tokens: 50 },
          },
          // Requested by the first session after the tool result, while the supervisor stops it
          // (then `final` answers the fresh session); or, had the stop come before the request,
          // the fresh session's first answer. Completion either way.
          { ...COMPLETE, delayMs: 5_000 },
        ],
        final: COMPLETE,
      });
      const started = Date.now();
      const run = await finish(startShim(ctx, loopArgs(GOAL)));
      const runId = runIdOf(ctx);
      assert.equal(run.code, 0, describeFinished(run, ctx, runId));
      assert.ok(runId);
      t.diagnostic(`loop finished in ${Date.now() - started} ms`);
      t.diagnostic(`requests: ${describeRequests(ctx.mock)}`);

      const { run: record, iterations } = status(ctx);
      assert.equal(record.status, 'completed');
      assert.equal(record.restarts, 1);
      assert.equal(iterations.length, 2);
      const [first, second] = iterations as [IterationJson, IterationJson];
      assert.equal(first.outcome, 'context_threshold');
      assert.equal(first.mode, 'fresh');
      assert.equal(second.mode, 'fresh');
      assert.equal(second.outcome, 'finished');
      assert.ok(first.sessionId && second.sessionId);
      assert.notEqual(second.sessionId, first.sessionId, 'a fresh session');
      assert.ok(existsSync(join(ctx.scratch.project, 'one.txt')));

      // The fresh session's first model request starts with the summary, then the goal.
      const requests = ctx.mock.messageRequests();
      const boundary = requests.find((r) => sessionOf(r) === second.sessionId);
      assert.ok(boundary, `requests carry x-claude-code-session-id ${second.sessionId}`);
      assert.ok(
        requests
          .filter((r) => sessionOf(r) === first.sessionId)
          .every((r) => r.index < boundary.index),
        'the first session made no request after the fresh one began',
      );
      const withSummary = ctx.mock.requestsContaining(HEADING);
      assert.ok(withSummary[0], 'a request carries the loop summary');
      assert.ok(
        withSummary.every((r) => r.index >= boundary.index),
        'no request before the restart carries the summary',
      );
      const firstMain = requests.find((r) => isMain(r) && sessionOf(r) === second.sessionId);
      assert.ok(firstMain);
      assert.ok(
        withSummary.some((r) => r.index === firstMain.index),
        'the first model request of the fresh session carries the summary',
      );
      assert.ok(
        firstUserTexts(firstMain).some((block) => block.startsWith(`## ${HEADING}\n`)),
        'the prompt begins with the summary heading',
      );
      const text = searchableText(firstMain.body);
      assert.ok(
        text.includes(`## ${HEADING}\n## Goal\n${GOAL}`),
        'the summary opens with the goal',
      );
      assert.match(
        text,
        /## Files Modified\n(?:- .*\n)*- one\.txt\n/,
        'one.txt is listed as modified',
      );
      assert.ok(text.includes(`## Goal\n${GOAL}`));
      assert.ok(text.indexOf(HEADING) < text.lastIndexOf(`## Goal\n${GOAL}`));

      // The checkpoint of the first session, taken for the restart.
      const checkpoints = query<{ session_id: string; triggered_by: string }>(
        ctx,
        "SELECT session_id, triggered_by FROM checkpoints WHERE triggered_by = 'loop_restart'",
      );
      assert.equal(checkpoints.length, 1);
      assert.equal(checkpoints[0]!.session_id, first.sessionId);

      const lines = assertEventLogIntact(ctx, runId);
      const names = lines.map((e) => e.name);
      const order = [
        'loop.context_exhaustion_warning',
        'loop.checkpoint',
        'loop.summary_written',
        'loop.context_exhaustion_restart',
        'loop.completed',
      ];
      for (const name of order) assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
      const positions = order.map((name) => names.indexOf(name));
      assert.deepEqual(
        positions,
        [...positions].sort((a, b) => a - b),
        'in this order',
      );
      const warning = lines.find((e) => e.name === 'loop.context_exhaustion_warning')!;
      assert.equal(warning.iteration, 1);
      assert.equal(warning.data.tokens, 125_000);
      const summary = lines.find((e) => e.name === 'loop.summary_written')!;
      assert.ok(Number(summary.data.chars) <= 2000);
    },
  );

  test(
    '2. the supervisor is killed with kill -9 mid-run and --resume finishes it',
    { timeout: TEST_TIMEOUT },
    async (t) => {
      const ctx = await setup(t, {
        steps: [{ ...bash('echo resumed > resumed.txt'), delayMs: 4_000 }],
        final: COMPLETE,
      });
      const started = Date.now();
      const first = startShim(ctx, loopArgs(GOAL));
      const runId = await pollUntil(() => {
        const id = runIdOf(ctx);
        return id && events(ctx, id).some((e) => e.name === 'loop.agent_session') ? id : null;
      }, 45_000);
      first.child.kill('SIGKILL');
      const killed = await finish(first);
      assert.equal(killed.signal, 'SIGKILL');

      const before = status(ctx);
      assert.equal(before.run.status, 'running', 'the run was left as it was');
      assert.equal(before.iterations.length, 1);
      const agentPid = before.iterations[0]!.agentPid;
      assert.ok(agentPid);
      ctx.agents.add(agentPid);
      assert.ok(isAlive(agentPid), 'the agent survived its supervisor');
      assert.equal(before.run.liveStatus, 'orphaned');
      assert.ok(
        !events(ctx, runId).some((e) => e.name === 'loop.tool_call'),
        'the supervisor died while the agent was in its first request',
      );

      const resumed = await finish(startShim(ctx, ['--resume']));
      assert.equal(resumed.code, 0, describeFinished(resumed, ctx, runId));
      t.diagnostic(`kill -9 and resume finished in ${Date.now() - started} ms`);
      t.diagnostic(`requests: ${describeRequests(ctx.mock)}`);

      const { run, iterations } = status(ctx);
      assert.equal(run.status, 'completed');
      assert.equal(run.restarts, 0);
      assert.equal(iterations.length, 1, 'the resumed supervisor followed the same agent');
      assert.equal(iterations[0]!.outcome, 'finished');
      assert.equal(iterations[0]!.agentPid, agentPid);
      assert.ok(existsSync(join(ctx.scratch.project, 'resumed.txt')));

      const lines = assertEventLogIntact(ctx, runId);
      const resumedEvent = lines.find((e) => e.name === 'loop.resumed');
      assert.ok(resumedEvent, 'loop.resumed is logged');
      const names = lines.map((e) => e.name);
      assert.ok(names.includes('loop.completed'));
      // Nothing the agent said while unsupervised was lost: its tool call and its answer.
      assert.ok(
        lines.some(
          (e) => e.name === 'loop.tool_call' && String(e.data.input).includes('resumed.txt'),
        ),
        names.join(', '),
      );
      assert.ok(names.includes('loop.completion_claimed'));
    },
  );

  test(
    '3. supervisor and agent both killed: --resume continues the same session and completes',
    { timeout: TEST_TIMEOUT },
    async (t) => {
      const ctx = await setup(t, {
        steps: [{ ...bash('echo lost > lost.txt'), delayMs: 8_000 }],
        final: COMPLETE,
      });
      const first = startShim(ctx, loopArgs(GOAL));
      // The session is known once the iteration's row holds it (written after its event and
      // the run's row: src/loop/stream-recorder.ts).
      const runId = await pollUntil(() => {
        const id = runIdOf(ctx);
        return id && sessionsOf(ctx).some(Boolean) ? id : null;
      }, 45_000);
      // Wait until the agent is in its (delayed) first request, then kill both.
      await pollUntil(() => ctx.mock.requests.some(isMain), 30_000);
      first.child.kill('SIGKILL');
      await finish(first);
      const before = status(ctx);
      const agentPid = before.iterations[0]!.agentPid!;
      const sessionId = before.iterations[0]!.sessionId;
      assert.ok(agentPid && sessionId);
      ctx.agents.add(agentPid);
      signalQuietly(-agentPid, 'SIGKILL');
      await pollUntil(() => !isAlive(agentPid), 10_000);

      const resumed = await finish(startShim(ctx, ['--resume']));
      assert.equal(resumed.code, 0, describeFinished(resumed, ctx, runId));

      const { run, iterations } = status(ctx);
      assert.equal(run.status, 'completed');
      assert.equal(iterations.length, 2);
      assert.equal(iterations[0]!.outcome, 'orphaned');
      assert.equal(iterations[1]!.mode, 'continue');
      assert.equal(iterations[1]!.sessionId, sessionId, 'the same session continued');
      assert.equal(iterations[1]!.outcome, 'finished');

      // The second invocation's model request carries the first one's prompt (the session's past).
      const second = ctx.mock
        .messageRequests()
        .filter((r) => r.kind === 'final')
        .find((r) =>
          searchableText(r.body).includes('Continue working on the goal of this session'),
        );
      assert.ok(second, 'the continue prompt reached the model');
      assert.ok(searchableText(second.body).includes(`## Goal\n${GOAL}`), 'with the first prompt');

      const names = assertEventLogIntact(ctx, runId).map((e) => e.name);
      assert.ok(names.includes('loop.resumed'));
      assert.ok(names.includes('loop.completed'));
    },
  );
});
