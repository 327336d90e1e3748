/**
 * `shim loop` figures: the supervisor's cost per iteration beyond the agent's own lifetime, and
 * its work per response line. The agent is test/loop/fake-claude.mjs (real stream-json shapes),
 * run with the loop harness's environment, which is built from scratch: NODE_EXTRA_CA_CERTS unset.
 *
 * 1. A loop of ITERATIONS iterations run in-process by startLoop (each iteration: one response
 *    writing a new file, no completion marker; maxIterations ends the run), against the same
 *    agent invocations (same argv, cwd, env, stdout to a file) spawned bare in the same run.
 * 2. Per response: IterationMonitor.accept on a captured assistant line against JSON.parse of
 *    the same line, then the durable writes that follow a context reading, in a temp SHIM_HOME.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStore } from '../src/app/open-store.ts';
import { getHeadCommit, getWorkspaceFingerprint } from '../src/capture/workspace.ts';
import { checkContextUsage } from '../src/core/loop/context-monitor.ts';
import { getRunDir, RunEventLog, type LoopEvent } from '../src/store/loop/loop-event-log.ts';
import { readRunEvents } from '../src/store/loop/loop-event-reader.ts';
import { IterationMonitor } from '../src/loop/iteration-monitor.ts';
import { parseStreamLine } from '../src/agents/claude/stream-json.ts';
import { startLoop, type LoopResult } from '../src/loop/start-loop.ts';
import type { Database } from '../src/store/sqlite/database.ts';
import { openDatabase } from '../src/store/sqlite/database.ts';
import { LoopRepository } from '../src/store/loop/loop-repository.ts';
import { makeTempDir } from '../test/helpers/fixtures.ts';
import {
  createLoopWorld,
  FAKE_CLAUDE,
  type FakeRun,
  type LoopWorld,
} from '../test/loop/loop-harness.ts';
import { testAgents } from '../test/helpers/agents.ts';

type Report = (name: string, value: string, note?: string) => void;

const ITERATIONS = 20;
const STREAM_FIXTURE = join(
  import.meta.dirname,
  '..',
  'test',
  'fixtures',
  'stream-json',
  'tool-calls.jsonl',
);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
/** Wall-clock ms with sub-ms precision, comparable to a file's mtimeMs. */
const wall = () => performance.timeOrigin + performance.now();

/** Iteration i writes its own file (the workspace changes, so it is never "stuck"). */
const scenario = (n: number): FakeRun[] =>
  Array.from({ length: n }, (_, i) => ({
    actions: [{ write: { path: `work/step-${i + 1}.txt`, content: `step ${i + 1}\n` } }],
  }));

type Instrumented = { db: Database; transactions: () => { count: number; ms: number } };

/** The store, with its write transactions (BEGIN IMMEDIATE … COMMIT, fsync included) timed. */
function instrumentedDb(world: LoopWorld): Instrumented {
  const real = world.openDb();
  let count = 0;
  let ms = 0;
  let began = 0;
  const exec = (sql: string): void => {
    if (sql === 'BEGIN IMMEDIATE') began = performance.now();
    real.exec(sql);
    if (sql === 'COMMIT') {
      count++;
      ms += performance.now() - began;
    }
  };
  // The native object is frozen: a proxy that hands out bound methods, exec timed.
  const db = new Proxy(real, {
    get(target, prop) {
      if (prop === 'exec') return exec;
      const value: unknown = Reflect.get(target, prop);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
  return { db, transactions: () => ({ count, ms }) };
}

type LoopRun = {
  result: LoopResult;
  totalMs: number;
  started: Map<number, number>;
  finished: Map<number, number>;
  transactions: { count: number; ms: number };
};

async function runLoop(world: LoopWorld, iterations: number): Promise<LoopRun> {
  world.script(scenario(iterations));
  const { db, transactions } = instrumentedDb(world);
  const started = new Map<number, number>();
  const finished = new Map<number, number>();
  const onEvent = (event: LoopEvent): void => {
    if (event.iteration === null) return;
    if (event.name === 'loop.iteration_started') started.set(event.iteration, wall());
    if (event.name === 'loop.iteration_finished') finished.set(event.iteration, wall());
  };
  try {
    const start = performance.now();
    const result = await startLoop(world.options({ maxIterations: iterations }), {
      agents: testAgents,
      store: createStore(db),
      home: world.home,
      cwd: world.project,
      env: world.env,
      onEvent,
    });
    const totalMs = performance.now() - start;
    if (result.iterations.length !== iterations || result.run.stopReason?.includes('stuck'))
      throw new Error(`bench loop ended early: ${result.run.status} ${result.run.stopReason}`);
    return { result, totalMs, started, finished, transactions: transactions() };
  } finally {
    db.close();
  }
}

/** The loop's agent invocations replayed bare: same argv, cwd and env, stdout/stderr to files. */
async function timeBareAgents(world: LoopWorld, runId: string, iterations: number) {
  const invocations = world.invocations();
  world.script(scenario(iterations));
  const dir = makeTempDir('shim-bench-bare-');
  const times: number[] = [];
  for (const [i, call] of invocations.entries()) {
    const out = openSync(join(dir, `bare-${i}.stdout.jsonl`), 'a', 0o600);
    const err = openSync(join(dir, `bare-${i}.stderr.log`), 'a', 0o600);
    const start = performance.now();
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(FAKE_CLAUDE, call.argv, {
        cwd: world.project,
        env: { ...world.env, SHIM_LOOP_RUN_ID: runId, SHIM_LOOP_ITERATION: String(i + 1) },
        stdio: ['ignore', out, err],
        detached: true,
      });
      child.once('error', reject);
      child.once('exit', (c) => resolve(c));
    });
    times.push(performance.now() - start);
    closeSync(out);
    closeSync(err);
    if (code !== 0) throw new Error(`bare fake agent exited ${code}`);
  }
  rmSync(dir, { recursive: true, force: true });
  return times;
}

async function benchIterations(report: Report, results: Record<string, unknown>): Promise<void> {
  // Warm-up: module loading, JIT, the file cache for node and the fake agent.
  const warm = createLoopWorld();
  try {
    await runLoop(warm, 2);
  } finally {
    warm.cleanup();
  }

  const world = createLoopWorld();
  try {
    const loop = await runLoop(world, ITERATIONS);
    const runId = loop.result.run.runId;
    const bare = await timeBareAgents(world, runId, ITERATIONS);

    // Per iteration: finished(i-1) → finished(i) is one full cycle in steady state.
    const cycles: number[] = [];
    const exitToFinished: number[] = [];
    const finishedToStarted: number[] = [];
    const runDir = getRunDir(world.home, runId);
    for (let i = 1; i <= ITERATIONS; i++) {
      const fin = loop.finished.get(i)!;
      const lastOutput = statSync(join(runDir, `iteration-${i}.stdout.jsonl`)).mtimeMs;
      exitToFinished.push(fin - lastOutput);
      if (i > 1) cycles.push(fin - loop.finished.get(i - 1)!);
      if (i < ITERATIONS) finishedToStarted.push(loop.started.get(i + 1)! - fin);
    }
    const perIteration = loop.totalMs / ITERATIONS;
    const bareMs = median(bare);
    const events = readRunEvents(world.home, runId).length;

    const fingerprint: number[] = [];
    for (let i = 0; i < 10; i++) {
      const start = performance.now();
      getWorkspaceFingerprint(world.project);
      fingerprint.push(performance.now() - start);
    }
    const head: number[] = [];
    for (let i = 0; i < 10; i++) {
      const start = performance.now();
      getHeadCommit(world.project);
      head.push(performance.now() - start);
    }

    report(
      'fake agent bare: spawn → exit (same argv/env)',
      fmt(bareMs),
      `baseline; p95 ${fmt(percentile(bare, 0.95))}, ${bare.length} runs`,
    );
    report(
      `shim loop per iteration (${ITERATIONS}, in-process)`,
      fmt(perIteration),
      `${(perIteration / bareMs).toFixed(2)}× bare; total ${(loop.totalMs / 1000).toFixed(2)} s; steady cycle median ${fmt(median(cycles))}`,
    );
    report(
      'supervisor overhead per iteration (loop − bare)',
      fmt(perIteration - bareMs),
      `steady cycle − bare ${fmt(median(cycles) - bareMs)}`,
    );
    report(
      '  last agent output → iteration_finished',
      fmt(median(exitToFinished)),
      `p95 ${fmt(percentile(exitToFinished, 0.95))}; agent teardown (in bare too) + end-of-iteration writes`,
    );
    report(
      '  iteration_finished → next iteration_started',
      fmt(median(finishedToStarted)),
      `p95 ${fmt(percentile(finishedToStarted, 0.95))}; fingerprint, decide, spawn, writes`,
    );
    report(
      '  git workspace fingerprint (alone)',
      fmt(median(fingerprint)),
      `2 git processes; HEAD alone ${fmt(median(head))}`,
    );
    report(
      '  SQLite write transactions per iteration',
      fmt(loop.transactions.ms / ITERATIONS),
      `${(loop.transactions.count / ITERATIONS).toFixed(1)} commits (synchronous=FULL), ${(events / ITERATIONS).toFixed(1)} fdatasync'd events`,
    );
    results.loop = {
      iterations: ITERATIONS,
      bareAgentMs: bareMs,
      perIterationMs: perIteration,
      steadyCycleMs: median(cycles),
      overheadMs: perIteration - bareMs,
      ratio: perIteration / bareMs,
      lastOutputToFinishedMs: median(exitToFinished),
      finishedToNextStartedMs: median(finishedToStarted),
      fingerprintMs: median(fingerprint),
      transactionsPerIteration: loop.transactions.count / ITERATIONS,
      transactionMsPerIteration: loop.transactions.ms / ITERATIONS,
      eventsPerIteration: events / ITERATIONS,
    };
  } finally {
    world.cleanup();
  }
}

type Sample = {
  parse: number;
  accept: number;
  iteration: number;
  run: number;
  append: number;
};

function benchPerResponse(report: Report, results: Record<string, unknown>): void {
  const lines = readFileSync(STREAM_FIXTURE, 'utf8').split('\n').filter(Boolean);
  const init = lines.find((l) => l.includes('"subtype":"init"'))!;
  // A text response (one line per content block; a tool_use block adds a loop.tool_call event).
  const response = lines.find(
    (l) => l.includes('"type":"assistant"') && l.includes('"type":"text"'),
  )!;
  const messageId = /"id":"(msg_[^"]+)"/.exec(response)![1]!;
  const responseLine = (i: number) =>
    response.replace(`"${messageId}"`, `"msg_bench_${i.toString().padStart(6, '0')}"`);

  const home = makeTempDir('shim-bench-loop-');
  const db = openDatabase(home);
  const repo = new LoopRepository(db);
  const runId = 'bench-loop';
  const at = new Date().toISOString();
  const world = createLoopWorld();
  const options = world.options();
  world.cleanup();
  repo.createRun({
    runId,
    createdAt: at,
    cwd: home,
    goal: options.goal,
    status: 'running',
    options: options as unknown as Record<string, unknown>,
    // A state of the size a run carries after a dozen iterations (12 fingerprints).
    state: {
      nextMode: 'continue',
      pendingSummary: null,
      note: null,
      fingerprints: Array.from({ length: 12 }, (_, i) => ({
        workspace: `${i}`.padStart(40, 'f'),
        errorSignature: null,
        output: null,
      })),
      errorPatterns: [],
      testStatus: null,
      limitAttempts: 0,
      transientErrors: 0,
      consecutiveCrashes: 0,
      stuckRestarted: false,
      threshold: { compactThreshold: 167_000, windowTokens: 200_000, detail: 'bench' },
      agent: { pid: 1234, startTime: '12345' },
    },
  });
  repo.saveIteration({ runId, number: 1, mode: 'fresh', prompt: options.goal, startedAt: at });
  const log = RunEventLog.open(home, runId, new LoopRepository(db));
  const monitor = new IterationMonitor(
    70,
    () => ({ compactThreshold: 167_000, windowTokens: 200_000, detail: 'bench' }),
    null,
    parseStreamLine,
  );
  monitor.accept(init);

  let offset = 0;
  const one = (i: number): Sample => {
    const line = responseLine(i);
    const t0 = performance.now();
    JSON.parse(line);
    const t1 = performance.now();
    const signals = monitor.accept(line);
    const t2 = performance.now();
    const signal = signals.find((s) => s.kind === 'context');
    if (!signal || signal.kind !== 'context') throw new Error('no context reading');
    offset += line.length + 1;
    // What the supervisor does for a context signal (Supervisor #onSignal, then emit).
    repo.updateIteration(runId, 1, {
      streamOffset: offset,
      responses: monitor.stats.responses,
      toolCalls: monitor.stats.toolCalls,
      lastContextTokens: signal.tokens,
      peakContextTokens: monitor.stats.peakContextTokens,
      peakPercent: monitor.stats.peakPercent,
    });
    const t3 = performance.now();
    repo.updateRun(runId, { contextTokens: signal.tokens, contextPercent: signal.percent });
    const t4 = performance.now();
    log.append(
      'loop.context_usage',
      {
        tokens: signal.tokens,
        percent: signal.percent,
        compactThreshold: 167_000,
        thresholdPercent: 70,
      },
      { iteration: 1, correlationId: `${runId}/1` },
    );
    const t5 = performance.now();
    return {
      parse: t1 - t0,
      accept: t2 - t1,
      iteration: t3 - t2,
      run: t4 - t3,
      append: t5 - t4,
    };
  };

  // The pure part alone, many times (no store work in between).
  const pureParse: number[] = [];
  const pureAccept: number[] = [];
  const pure = new IterationMonitor(
    70,
    () => ({ compactThreshold: 167_000, windowTokens: 200_000, detail: 'bench' }),
    null,
    parseStreamLine,
  );
  pure.accept(init);
  for (let i = 0; i < 6000; i++) {
    const line = responseLine(1_000_000 + i);
    const t0 = performance.now();
    JSON.parse(line);
    const t1 = performance.now();
    pure.accept(line);
    const t2 = performance.now();
    if (i >= 1000) {
      pureParse.push(t1 - t0);
      pureAccept.push(t2 - t1);
    }
  }
  let sink = 0;
  const checks = 1_000_000;
  const checkStart = performance.now();
  for (let i = 0; i < checks; i++) sink += checkContextUsage(20_000 + i, 167_000, 70).percent;
  const checkMs = (performance.now() - checkStart) / checks;
  if (sink < 0) throw new Error('unreachable');

  for (let i = 0; i < 20; i++) one(i); // warm-up
  const samples: Sample[] = [];
  for (let i = 20; i < 320; i++) samples.push(one(i));
  log.close();
  db.close();
  rmSync(home, { recursive: true, force: true });

  const col = (key: keyof Sample) => samples.map((s) => s[key]);
  const totals = samples.map((s) => s.accept + s.iteration + s.run + s.append);
  const parseMs = median(pureParse);
  const line = (name: string, xs: number[], unit: (ms: number) => string, note: string) =>
    report(name, unit(median(xs)), `p95 ${unit(percentile(xs, 0.95))}${note ? `; ${note}` : ''}`);
  line('per response: JSON.parse of the line', pureParse, us, `baseline, ${response.length} B`);
  line(
    'per response: IterationMonitor.accept',
    pureAccept,
    us,
    `${(median(pureAccept) / parseMs).toFixed(2)}× JSON.parse; parse + context check`,
  );
  report(
    '  checkContextUsage alone',
    `${(checkMs * 1e6).toFixed(1)} ns`,
    'seed target < 1 ms applies to this check (and to accept)',
  );
  line('  updateIteration (SQLite commit)', col('iteration'), fmt, '');
  line('  updateRun context (SQLite commit)', col('run'), fmt, '');
  line('  RunEventLog.append (fdatasync + index)', col('append'), fmt, '');
  line(
    'per response, durable total',
    totals,
    fmt,
    `${(median(totals) / parseMs).toFixed(0)}× JSON.parse; temp SHIM_HOME under ${tmpdir()}`,
  );
  results.loopPerResponse = {
    parseUs: parseMs * 1000,
    acceptUs: median(pureAccept) * 1000,
    checkNs: checkMs * 1e6,
    updateIterationMs: median(col('iteration')),
    updateRunMs: median(col('run')),
    appendMs: median(col('append')),
    totalMs: median(totals),
    totalP95Ms: percentile(totals, 0.95),
  };
}

export async function runLoopBench(
  report: Report,
  results: Record<string, unknown>,
): Promise<void> {
  const start = performance.now();
  await benchIterations(report, results);
  benchPerResponse(report, results);
  results.loopBenchSeconds = (performance.now() - start) / 1000;
}
