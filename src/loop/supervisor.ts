/**
 * The loop supervisor: runs the agent in iterations until the goal is met, restarts it with a
 * fresh session (and a summary) before its context runs out, waits out usage limits, recovers
 * from hangs and crashes, and survives its own death.
 *
 * Every fact is written as it happens: the run and iteration rows in SQLite, every event in the
 * run's append-only events.jsonl (indexed in SQLite), the agent's own output in a file the agent
 * writes directly. A supervisor killed with -9 leaves nothing that `--resume` cannot pick up.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { collectLoopGarbage } from '../app/collect-loop-garbage.ts';
import { createCheckpoint } from '../app/create-checkpoint.ts';
import { getHistorySamples } from '../app/status.ts';
import {
  getHeadCommit,
  getWorkspaceFingerprint,
  listChangedFilesSince,
} from '../capture/workspace.ts';
import { resolveCompactThreshold } from '../core/compact-threshold.ts';
import { AppError } from '../core/errors.ts';
import { hasCompletionMarker } from '../core/loop/completion.ts';
import {
  LOOP_SUMMARY_MAX_CHARS,
  renderLoopSummary,
  type LoopSummaryInput,
} from '../core/loop/loop-summary.ts';
import { composeContinuePrompt, composeFreshPrompt } from '../core/loop/loop-prompt.ts';
import { decideNextStep, type IterationEnd, type NextStep } from '../core/loop/next-step.ts';
import {
  detectStuck,
  errorSignature,
  hashText,
  type IterationFingerprint,
} from '../core/loop/stuck.ts';
import { truncate } from '../core/truncate.ts';
import { redactText, redactTextSync } from '../redact/redact.ts';
import { loadConfig, type ShimConfig } from '../store/config.ts';
import { writeFileSafely } from '../store/safe-file.ts';
import type { Database } from '../store/database.ts';
import type { Env } from '../store/home.ts';
import { appendLog } from '../store/log.ts';
import {
  LoopRepository,
  parseEventData,
  type LoopIterationRecord,
  type LoopRunRecord,
} from '../store/loop-repository.ts';
import { followAgentOutput, launchAgent, stopAgent, type FollowResult } from './agent-run.ts';
import { describeEvent } from './describe-event.ts';
import {
  getRunDir,
  readRunEvents,
  RunEventLog,
  type LoopEvent,
  type LoopEventName,
} from './event-log.ts';
import { IterationMonitor, type MonitorSignal, type ThresholdInfo } from './iteration-monitor.ts';
import type { LoopOptions } from './options.ts';
import { isProcessAlive } from '../capture/process-tree.ts';
import { runTestCommand, type TestRun } from './test-command.ts';

export type LoopStatus = 'running' | 'waiting' | 'completed' | 'stopped' | 'failed' | 'interrupted';

/** What the supervisor keeps between iterations (run.state, JSON). */
export type LoopState = {
  nextMode: 'fresh' | 'continue';
  /** The summary a fresh session gets ahead of the goal. */
  pendingSummary: string | null;
  /** A note for the next continue prompt (a failed test, an interruption). */
  note: string | null;
  fingerprints: IterationFingerprint[];
  errorPatterns: Array<{ signature: string; count: number; example: string }>;
  testStatus: { command: string; passed: boolean | null; outputTail: string } | null;
  limitAttempts: number;
  transientErrors: number;
  consecutiveCrashes: number;
  stuckRestarted: boolean;
  threshold: ThresholdInfo | null;
  /** The agent process of the iteration in flight (pid reuse is told by its start time). */
  agent: { pid: number; startTime: string | null } | null;
};

export type SupervisorDeps = {
  db: Database;
  home: string;
  cwd: string;
  /** The environment the agent and the test command get. */
  env: Env;
  now?: () => number;
  /** Called with every event as it is written (progress output). */
  onEvent?: (event: LoopEvent) => void;
  /** Aborts the run (SIGINT/SIGTERM): the agent is stopped and the run left resumable. */
  signal?: AbortSignal;
};

export type LoopResult = {
  run: LoopRunRecord;
  iterations: LoopIterationRecord[];
  /** 0 completed, 1 stopped or failed, 130 interrupted. */
  exitCode: number;
};

const FINGERPRINT_HISTORY = 12;
const RECENT_LOG_LINES = 14;

function initialState(): LoopState {
  return {
    nextMode: 'fresh',
    pendingSummary: null,
    note: null,
    fingerprints: [],
    errorPatterns: [],
    testStatus: null,
    limitAttempts: 0,
    transientErrors: 0,
    consecutiveCrashes: 0,
    stuckRestarted: false,
    threshold: null,
    agent: null,
  };
}

/** "3fa9c2-20261122-041753": random first, so a few characters name a run (like a git hash). */
export function newRunId(now: number): string {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${randomBytes(3).toString('hex')}-${stamp}`;
}

type IterationResult = {
  end: IterationEnd;
  monitor: IterationMonitor;
  follow: FollowResult | null;
};

class Supervisor {
  readonly #deps: SupervisorDeps;
  readonly #repo: LoopRepository;
  readonly #now: () => number;
  #run: LoopRunRecord;
  #options: LoopOptions;
  #state: LoopState;
  #log!: RunEventLog;
  /** `name@offset` of stream events a killed supervisor had logged past its saved offset. */
  #alreadyLogged: Set<string> | null = null;

  readonly #config: ShimConfig;

  constructor(
    deps: SupervisorDeps,
    run: LoopRunRecord,
    options: LoopOptions,
    state: LoopState,
    config: ShimConfig,
  ) {
    this.#deps = deps;
    this.#config = config;
    this.#repo = new LoopRepository(deps.db);
    this.#now = deps.now ?? Date.now;
    this.#run = run;
    this.#options = options;
    this.#state = state;
  }

  get runId(): string {
    return this.#run.runId;
  }

  openLog(): void {
    this.#log = RunEventLog.open(this.#deps.home, this.runId, this.#deps.db);
  }

  close(): void {
    this.#log?.close();
  }

  emit(name: LoopEventName, data: Record<string, unknown>, iteration: number | null = null): void {
    let event: LoopEvent;
    try {
      event = this.#log.append(name, name === 'loop.context_usage' ? data : redactStrings(data), {
        iteration,
        correlationId: iteration === null ? this.runId : `${this.runId}/${iteration}`,
      });
    } catch (error) {
      appendLog(this.#deps.home, 'error', 'loop: could not write an event', {
        run: this.runId,
        name,
        error: String(error),
      });
      return;
    }
    // Context readings have their own columns; one row write per response is enough.
    if (name !== 'loop.context_usage') this.#saveRun({ lastEvent: describeEvent(event) });
    try {
      this.#deps.onEvent?.(event);
    } catch {
      // progress output must not stop the loop
    }
  }

  #saveRun(patch: Partial<LoopRunRecord>): void {
    this.#run = { ...this.#run, ...patch };
    try {
      this.#repo.updateRun(this.runId, patch);
    } catch (error) {
      appendLog(this.#deps.home, 'error', 'loop: could not update the run', {
        run: this.runId,
        error: String(error),
      });
    }
  }

  #saveState(): void {
    this.#saveRun({ state: this.#state as unknown as Record<string, unknown> });
  }

  /** The main loop; `resumeIteration` is an iteration found in flight by --resume. */
  async run(resumeIteration: LoopIterationRecord | null): Promise<LoopResult> {
    try {
      let pending = resumeIteration;
      if (!pending && this.#run.status === 'waiting' && this.#run.waitUntil) {
        const ok = await this.#waitUntil(Date.parse(this.#run.waitUntil), 'resuming the wait');
        if (!ok) return this.#interrupted();
      }
      for (;;) {
        if (this.#deps.signal?.aborted) return this.#interrupted();
        const result = pending ? await this.#reattach(pending) : await this.#startIteration();
        pending = null;
        if (result === null) return this.#interrupted();
        const step = await this.#afterIteration(result);
        if (step === null) return this.#interrupted();
        if (step.kind === 'complete' || step.kind === 'stop') return this.#finish(step);
      }
    } catch (error) {
      this.emit('loop.stopped', {
        status: 'failed',
        reason: 'supervisor_error',
        detail: String(error),
      });
      this.#saveRun({
        status: 'failed',
        stopReason: `supervisor error: ${String(error)}`,
        endedAt: this.#iso(),
      });
      throw error;
    }
  }

  #iso(): string {
    return new Date(this.#now()).toISOString();
  }

  #resolveThreshold = (model: string | null, cliVersion: string | null): ThresholdInfo => {
    try {
      const threshold = resolveCompactThreshold({
        model,
        cliVersion,
        env: this.#deps.env,
        samples: getHistorySamples(this.#deps.home, this.#deps.env, this.#config),
      });
      const info = {
        compactThreshold: threshold.compactThreshold,
        windowTokens: threshold.windowTokens,
        detail: threshold.detail,
      };
      this.#state.threshold = info;
      return info;
    } catch {
      // fail safe: the documented default for a 200k window
      return {
        compactThreshold: 167_000,
        windowTokens: 200_000,
        detail: 'default (could not resolve)',
      };
    }
  };

  async #startIteration(): Promise<IterationResult | null> {
    const number = this.#run.iteration + 1;
    const continuing = this.#state.nextMode === 'continue' && this.#run.sessionId !== null;
    const options = this.#options;
    const prompt = continuing
      ? composeContinuePrompt({
          goal: options.goal,
          marker: options.completionMarker,
          testCommand: options.testCommand,
          note: this.#state.note,
        })
      : composeFreshPrompt({
          goal: options.goal,
          summary: this.#state.pendingSummary,
          marker: options.completionMarker,
          testCommand: options.testCommand,
        });
    const sessionId = continuing ? this.#run.sessionId : null;
    const args = [
      '-p',
      prompt,
      '--output-format',
      'stream-json',
      '--verbose',
      ...(sessionId ? ['--resume', sessionId] : []),
      ...options.agentArgs,
    ];
    const dir = getRunDir(this.#deps.home, this.runId);
    const stdoutPath = join(dir, `iteration-${number}.stdout.jsonl`);
    const agent = await launchAgent({
      bin: options.claudeBin,
      args,
      cwd: this.#run.cwd,
      env: {
        ...this.#deps.env,
        SHIM_LOOP_RUN_ID: this.runId,
        SHIM_LOOP_ITERATION: String(number),
      },
      stdoutPath,
      stderrPath: join(dir, `iteration-${number}.stderr.log`),
    });
    // The repository fills in everything not known yet (outcome, usage, offsets…).
    const record = this.#repo.saveIteration({
      runId: this.runId,
      number,
      sessionId,
      mode: continuing ? 'continue' : 'fresh',
      prompt,
      startedAt: this.#iso(),
      agentPid: agent.pid,
    });
    this.#state.agent = { pid: agent.pid, startTime: agent.startTime };
    this.#state.note = null;
    this.#saveRun({ iteration: number, status: 'running', waitUntil: null });
    this.#saveState();
    this.emit(
      'loop.iteration_started',
      {
        mode: record.mode,
        sessionId,
        pid: agent.pid,
        promptChars: prompt.length,
        summaryInjected: !continuing && this.#state.pendingSummary !== null,
      },
      number,
    );
    const monitor = new IterationMonitor(
      options.thresholdPercent,
      this.#resolveThreshold,
      sessionId,
    );
    return this.#follow(
      record,
      monitor,
      agent.pid,
      agent.startTime,
      agent.exited,
      0,
      Date.parse(record.startedAt),
    );
  }

  /** Picks up an iteration a killed supervisor left in flight. */
  async #reattach(record: LoopIterationRecord): Promise<IterationResult | null> {
    const monitor = new IterationMonitor(
      this.#options.thresholdPercent,
      this.#resolveThreshold,
      record.sessionId,
    );
    const stdoutPath = join(
      getRunDir(this.#deps.home, this.runId),
      `iteration-${record.number}.stdout.jsonl`,
    );
    // Rebuild the monitor's state from what was already consumed, without repeating events.
    await replayConsumed(stdoutPath, record.streamOffset, monitor);
    this.#alreadyLogged = new Set(
      readRunEvents(this.#deps.home, this.runId)
        .filter((e) => e.iteration === record.number && Number(e.data.line) > record.streamOffset)
        .map((e) => `${e.name}@${Number(e.data.line)}`),
    );
    const agent = this.#state.agent;
    const alive = agent !== null && isProcessAlive(agent.pid, agent.startTime);
    this.emit(
      'loop.resumed',
      {
        iteration: record.number,
        agentAlive: alive,
        sessionId: record.sessionId,
        offset: record.streamOffset,
      },
      record.number,
    );
    return this.#follow(
      record,
      monitor,
      agent?.pid ?? 0,
      agent?.startTime ?? null,
      undefined,
      record.streamOffset,
      Date.parse(record.startedAt),
      !alive,
    );
  }

  async #follow(
    record: LoopIterationRecord,
    monitor: IterationMonitor,
    pid: number,
    startTime: string | null,
    exited: Promise<{ code: number | null; signal: string | null }> | undefined,
    fromOffset: number,
    startedAt: number,
    orphaned = false,
  ): Promise<IterationResult | null> {
    const number = record.number;
    const stdoutPath = join(
      getRunDir(this.#deps.home, this.runId),
      `iteration-${number}.stdout.jsonl`,
    );
    let stopReason: 'threshold' | 'timeout' | null = null;
    let stopping: Promise<void> | null = null;
    const stop = (why: 'threshold' | 'timeout'): void => {
      if (stopping || pid <= 0) return;
      stopReason = why;
      stopping = stopAgent(pid, startTime);
    };
    const remaining = Math.max(0, startedAt + this.#options.iterationTimeoutMs - this.#now());
    const timeout = setTimeout(() => {
      this.emit('loop.agent_timeout', { timeoutMs: this.#options.iterationTimeoutMs, pid }, number);
      stop('timeout');
    }, remaining);
    let drainTimer: NodeJS.Timeout | null = null;
    const abort = new AbortController();
    const onAbort = (): void => abort.abort();
    this.#deps.signal?.addEventListener('abort', onAbort, { once: true });

    const onLine = (line: string, endOffset: number): void => {
      let signals: MonitorSignal[] = [];
      try {
        signals = monitor.accept(line);
      } catch (error) {
        this.emit('loop.monitor_error', { error: String(error) }, number); // fail safe: carry on
      }
      for (const signal of signals) {
        try {
          this.#onSignal(signal, monitor, record, endOffset);
        } catch (error) {
          this.emit('loop.monitor_error', { error: String(error) }, number);
        }
        if (signal.kind === 'context' && signal.crossed) {
          drainTimer = setTimeout(() => stop('threshold'), this.#options.safePointWaitMs);
        }
        if (signal.kind === 'safe_point') stop('threshold');
      }
      record.streamOffset = endOffset;
    };

    let follow: FollowResult;
    try {
      follow = await followAgentOutput({
        stdoutPath,
        fromOffset,
        pid: orphaned ? 0 : pid,
        startTime,
        ...(exited ? { exited } : {}),
        onLine,
        signal: abort.signal,
      });
    } finally {
      clearTimeout(timeout);
      if (drainTimer) clearTimeout(drainTimer);
      this.#deps.signal?.removeEventListener('abort', onAbort);
    }
    if (stopping) await stopping;
    if (follow.aborted) {
      await stopAgent(pid, startTime);
      this.#repo.updateIteration(this.runId, number, {
        streamOffset: record.streamOffset,
        outcome: 'interrupted',
      });
      return null;
    }
    const stats = monitor.stats;
    let end: IterationEnd;
    if (stats.limit) end = 'usage_limit';
    else if (stats.result && !stats.result.isError)
      end = stopReason === 'threshold' ? 'context_threshold' : 'finished';
    else if (stopReason === 'threshold') end = 'context_threshold';
    else if (stopReason === 'timeout') end = 'timeout';
    else if (stats.apiError) end = 'api_error';
    else if (orphaned && !stats.result) end = 'orphaned';
    else end = 'crashed';
    return { end, monitor, follow };
  }

  /**
   * Events read from the agent's stream carry the byte offset of their line. A resumed
   * supervisor re-reads lines past the last saved offset; what it had already logged from them
   * is skipped, so a kill -9 neither loses nor repeats an event.
   */
  #emitFromStream(
    endOffset: number,
    name: LoopEventName,
    data: Record<string, unknown>,
    iteration: number,
  ): void {
    const key = `${name}@${endOffset}`;
    if (this.#alreadyLogged?.delete(key)) return;
    this.emit(name, { ...data, line: endOffset }, iteration);
  }

  #onSignal(
    signal: MonitorSignal,
    monitor: IterationMonitor,
    record: LoopIterationRecord,
    endOffset: number,
  ): void {
    const number = record.number;
    switch (signal.kind) {
      case 'session':
        if (record.sessionId !== signal.sessionId) {
          record.sessionId = signal.sessionId;
          this.#repo.updateIteration(this.runId, number, {
            sessionId: signal.sessionId,
            streamOffset: endOffset,
          });
          this.#saveRun({ sessionId: signal.sessionId });
        }
        this.#emitFromStream(
          endOffset,
          'loop.agent_session',
          { sessionId: signal.sessionId, model: signal.model, cliVersion: signal.cliVersion },
          number,
        );
        return;
      case 'context': {
        const threshold = monitor.threshold;
        this.#repo.updateIteration(this.runId, number, {
          streamOffset: endOffset,
          responses: monitor.stats.responses,
          toolCalls: monitor.stats.toolCalls,
          lastContextTokens: signal.tokens,
          peakContextTokens: monitor.stats.peakContextTokens,
          peakPercent: monitor.stats.peakPercent,
        });
        this.#run = { ...this.#run, contextTokens: signal.tokens, contextPercent: signal.percent };
        this.#repo.updateRun(this.runId, {
          contextTokens: signal.tokens,
          contextPercent: signal.percent,
        });
        this.#emitFromStream(
          endOffset,
          'loop.context_usage',
          {
            tokens: signal.tokens,
            percent: signal.percent,
            compactThreshold: threshold?.compactThreshold ?? null,
            thresholdPercent: this.#options.thresholdPercent,
          },
          number,
        );
        if (signal.crossed) {
          this.#emitFromStream(
            endOffset,
            'loop.context_exhaustion_warning',
            {
              tokens: signal.tokens,
              percent: signal.percent,
              thresholdPercent: this.#options.thresholdPercent,
              action: 'ending the iteration at the next safe point',
            },
            number,
          );
        }
        return;
      }
      case 'tool_call':
        this.#emitFromStream(
          endOffset,
          'loop.tool_call',
          { name: signal.name, input: truncate(JSON.stringify(signal.input), 200) },
          number,
        );
        return;
      case 'tool_error':
        return;
      case 'api_error':
        this.#emitFromStream(
          endOffset,
          'loop.agent_error',
          {
            text: truncate(signal.text, 500),
            status: signal.status,
            limit: signal.limit,
            resetsAt: signal.resetsAt,
          },
          number,
        );
        return;
      case 'compaction':
        this.#emitFromStream(
          endOffset,
          'loop.compaction',
          { trigger: signal.trigger, preTokens: signal.preTokens },
          number,
        );
        return;
      case 'result':
      case 'safe_point':
        return;
    }
  }

  /** Records the iteration's end, decides what comes next and prepares it. Null = interrupted. */
  async #afterIteration(result: IterationResult): Promise<NextStep | null> {
    const { monitor, end } = result;
    const stats = monitor.stats;
    const number = this.#run.iteration;
    const options = this.#options;
    const cost = stats.result?.costUsd ?? 0;
    const resultText = stats.result?.text ?? stats.lastText;
    this.#repo.updateIteration(this.runId, number, {
      endedAt: this.#iso(),
      outcome: end,
      exitCode: result.follow?.code ?? null,
      costUsd: stats.result?.costUsd ?? null,
      responses: stats.responses,
      toolCalls: stats.toolCalls,
      peakContextTokens: stats.peakContextTokens,
      lastContextTokens: stats.lastContextTokens,
      peakPercent: stats.peakPercent,
      resultText: truncate(resultText, 4000),
      streamOffset: result.follow?.endOffset ?? 0,
    });
    this.#state.agent = null;
    this.#saveRun({
      costUsd: this.#run.costUsd + cost,
      sessionId: stats.sessionId ?? this.#run.sessionId,
    });
    this.emit(
      'loop.iteration_finished',
      {
        outcome: end,
        exitCode: result.follow?.code ?? null,
        signal: result.follow?.signal ?? null,
        costUsd: cost,
        responses: stats.responses,
        toolCalls: stats.toolCalls,
        peakPercent: stats.peakPercent,
        lastPercent: stats.lastPercent,
        result: truncate(resultText, 300),
      },
      number,
    );
    if (end === 'crashed')
      this.emit(
        'loop.agent_crashed',
        { exitCode: result.follow?.code ?? null, signal: result.follow?.signal ?? null },
        number,
      );

    // Completion: the marker in this iteration's own final answer, confirmed by the tests.
    const claimed =
      end === 'finished' &&
      stats.result !== null &&
      hasCompletionMarker(resultText, options.completionMarker);
    let test: TestRun | null = null;
    if (claimed) {
      this.emit('loop.completion_claimed', { marker: options.completionMarker }, number);
      if (options.testCommand) {
        test = await runTestCommand(
          options.testCommand,
          this.#run.cwd,
          this.#deps.env,
          options.testTimeoutMs,
        );
        this.#state.testStatus = {
          command: test.command,
          passed: test.passed,
          outputTail: test.outputTail.slice(-600),
        };
        this.emit(
          'loop.test_run',
          {
            command: test.command,
            passed: test.passed,
            exitCode: test.exitCode,
            timedOut: test.timedOut,
            durationMs: test.durationMs,
            tail: test.outputTail.slice(-400),
          },
          number,
        );
      }
    }

    // What this iteration looked like, for stuck detection.
    const errorText =
      stats.apiError?.text ??
      (test && !test.passed ? test.outputTail.slice(-500) : null) ??
      stats.lastToolError;
    if (errorText) this.#notePattern(errorText);
    const fingerprint: IterationFingerprint = {
      workspace: safe(() => getWorkspaceFingerprint(this.#run.cwd)),
      errorSignature: errorText ? errorSignature(errorText) : null,
      output: end === 'finished' && resultText ? hashText(resultText) : null,
    };
    const fingerprints = [...this.#state.fingerprints, fingerprint].slice(-FINGERPRINT_HISTORY);
    const changedSincePrevious =
      fingerprint.workspace !== null &&
      fingerprint.workspace !== this.#state.fingerprints.at(-1)?.workspace;
    if (changedSincePrevious) this.#state.stuckRestarted = false;
    this.#state.fingerprints = fingerprints;
    const stuck =
      end === 'usage_limit' ? { stuck: false as const } : detectStuck(fingerprints, options.stuck);

    const step = decideNextStep({
      end,
      now: this.#now(),
      iteration: number,
      maxIterations: options.maxIterations,
      restarts: this.#run.restarts,
      maxRestarts: options.maxRestarts,
      costUsd: this.#run.costUsd,
      budgetUsd: options.budgetUsd,
      claimedCompletion: claimed,
      testsPassed: test ? test.passed : null,
      testTail: test ? test.outputTail.slice(-1500) : null,
      testCommand: options.testCommand,
      lastPercent: stats.lastPercent,
      thresholdPercent: options.thresholdPercent,
      sessionKnown: (stats.sessionId ?? this.#run.sessionId) !== null,
      limitResetsAt: stats.limit?.resetsAt ?? null,
      limitAttempts: this.#state.limitAttempts,
      limitMarginMs: options.limitMarginMs ?? 30_000,
      retryBaseMs: options.retryBaseMs ?? 15_000,
      transientErrors: this.#state.transientErrors,
      consecutiveCrashes: this.#state.consecutiveCrashes,
      stuck,
      stuckRestarted: this.#state.stuckRestarted,
      errorText: errorText ? truncate(errorText, 200) : null,
    });
    if (stuck.stuck)
      this.emit('loop.stuck_detected', { kind: stuck.kind, detail: stuck.detail }, number);

    // Counters that only make sense in a row.
    this.#state.limitAttempts = end === 'usage_limit' ? this.#state.limitAttempts + 1 : 0;
    this.#state.transientErrors = end === 'api_error' ? this.#state.transientErrors + 1 : 0;
    this.#state.consecutiveCrashes =
      end === 'crashed' || end === 'api_error' ? this.#state.consecutiveCrashes + 1 : 0;

    switch (step.kind) {
      case 'complete':
      case 'stop':
        this.#saveState();
        return step;
      case 'continue':
        this.#state.nextMode = 'continue';
        this.#state.note = step.note;
        this.#saveState();
        return step;
      case 'wait': {
        this.#state.nextMode = 'continue';
        this.#state.note = step.limit
          ? 'A usage limit interrupted your previous turn; it has reset now. Carry on where you left off.'
          : 'An API error interrupted your previous turn. Carry on where you left off.';
        this.#saveState();
        const ok = await this.#waitUntil(step.until, step.reason, step.limit);
        return ok ? step : null;
      }
      case 'restart':
        await this.#restart(step, monitor, number);
        return step;
    }
  }

  #notePattern(text: string): void {
    const signature = errorSignature(text);
    const patterns = this.#state.errorPatterns;
    const found = patterns.find((p) => p.signature === signature);
    if (found) found.count++;
    else patterns.push({ signature, count: 1, example: truncate(redactTextSync(text).text, 160) });
    patterns.sort((a, b) => b.count - a.count);
    this.#state.errorPatterns = patterns.slice(0, 10);
  }

  async #waitUntil(until: number, reason: string, limit = true): Promise<boolean> {
    this.#saveRun({ status: 'waiting', waitUntil: new Date(until).toISOString() });
    this.emit(
      limit ? 'loop.usage_limit_wait' : 'loop.agent_error',
      { until: new Date(until).toISOString(), reason, waitMs: Math.max(0, until - this.#now()) },
      this.#run.iteration,
    );
    const signal = this.#deps.signal;
    while (this.#now() < until) {
      if (signal?.aborted) return false;
      await new Promise((resolve) =>
        setTimeout(resolve, Math.min(1000, Math.max(10, until - this.#now()))),
      );
    }
    this.#saveRun({ status: 'running', waitUntil: null });
    if (limit)
      this.emit(
        'loop.usage_limit_resumed',
        { waitedUntil: new Date(until).toISOString() },
        this.#run.iteration,
      );
    return true;
  }

  async #restart(
    step: Extract<NextStep, { kind: 'restart' }>,
    monitor: IterationMonitor,
    number: number,
  ): Promise<void> {
    const sessionId = monitor.stats.sessionId ?? this.#run.sessionId;
    let checkpointId: string | null = null;
    if (step.fresh && sessionId) {
      try {
        const result = await createCheckpoint({
          sessionId,
          cwd: this.#run.cwd,
          env: this.#deps.env,
          home: this.#deps.home,
          now: this.#now(),
          trigger: 'loop_restart',
          reason: `shim loop ${this.runId}: ${step.detail}`,
          db: this.#deps.db,
        });
        checkpointId = result.checkpoint.id;
        this.#repo.updateIteration(this.runId, number, { checkpointId });
        this.emit(
          'loop.checkpoint',
          { checkpointId, sessionId, bytes: result.size.compressed },
          number,
        );
      } catch (error) {
        // The summary still carries the work; the checkpoint is a bonus, not a precondition.
        this.emit('loop.monitor_error', { during: 'checkpoint', error: String(error) }, number);
      }
    }
    const restarts = this.#run.restarts + 1;
    if (step.fresh) {
      let summary = this.#summarize(
        step.reason,
        // The summary words the context reason itself, with the percent.
        step.reason === 'context_exhaustion' ? null : step.detail,
        sessionId,
        checkpointId,
        monitor.stats.lastPercent,
      );
      summary = truncate((await redactText(summary)).text, LOOP_SUMMARY_MAX_CHARS);
      const path = join(getRunDir(this.#deps.home, this.runId), `summary-${number}.md`);
      try {
        writeFileSafely(path, `${summary}\n`);
      } catch {
        // the summary is also in the prompt and the event
      }
      this.emit('loop.summary_written', { path, chars: summary.length, summary }, number);
      this.#state.pendingSummary = summary;
      this.#state.nextMode = 'fresh';
    } else {
      this.#state.nextMode = 'continue';
      this.#state.note = `Your previous run was interrupted (${step.detail}). Check the state of your work and carry on.`;
    }
    if (step.reason === 'stuck') this.#state.stuckRestarted = true;
    this.#saveRun({ restarts, sessionId: step.fresh ? null : sessionId });
    this.#saveState();
    const name: LoopEventName =
      step.reason === 'context_exhaustion'
        ? 'loop.context_exhaustion_restart'
        : step.reason === 'stuck'
          ? 'loop.stuck_restart'
          : 'loop.crash_restart';
    this.emit(
      name,
      {
        reason: step.reason,
        detail: step.detail,
        fresh: step.fresh,
        restarts,
        maxRestarts: this.#options.maxRestarts,
        checkpointId,
      },
      number,
    );
  }

  #summarize(
    reason: LoopSummaryInput['reason'],
    detail: string | null,
    sessionId: string | null,
    checkpointId: string | null,
    percent: number,
  ): string {
    let recent: string[] = [];
    try {
      recent = this.#repo
        .listEvents(this.runId, { names: SUMMARY_EVENT_NAMES })
        .slice(-RECENT_LOG_LINES)
        .map((e) => describeEvent({ ...e, data: parseEventData(e) ?? {} }));
    } catch {
      // partial summary rather than none (seed 002)
    }
    return renderLoopSummary({
      goal: this.#options.goal,
      iteration: this.#run.iteration,
      maxIterations: this.#options.maxIterations,
      restarts: this.#run.restarts + 1,
      maxRestarts: this.#options.maxRestarts,
      reason,
      reasonDetail: detail,
      contextPercent: percent,
      sessionId,
      checkpointId,
      testStatus: this.#state.testStatus,
      filesChanged: safe(() => listChangedFilesSince(this.#run.cwd, this.#run.startCommit)) ?? [],
      errorPatterns: this.#state.errorPatterns,
      recentLog: recent,
    });
  }

  #finish(step: Extract<NextStep, { kind: 'complete' | 'stop' }>): LoopResult {
    const status: LoopStatus = step.kind === 'complete' ? 'completed' : step.status;
    const reason = step.kind === 'complete' ? step.reason : `${step.reason}: ${step.detail}`;
    if (step.kind === 'complete') {
      this.emit(
        'loop.completed',
        { reason: step.reason, iterations: this.#run.iteration, costUsd: this.#run.costUsd },
        this.#run.iteration,
      );
    } else {
      if (step.reason === 'budget_exceeded')
        this.emit(
          'loop.budget_exceeded',
          { costUsd: this.#run.costUsd, budgetUsd: this.#options.budgetUsd },
          this.#run.iteration,
        );
      this.emit(
        'loop.stopped',
        { status, reason: step.reason, detail: step.detail },
        this.#run.iteration,
      );
    }
    this.#saveRun({
      status,
      stopReason: reason,
      endedAt: this.#iso(),
      supervisorPid: null,
      waitUntil: null,
    });
    return this.#result(status === 'completed' ? 0 : 1);
  }

  #interrupted(): LoopResult {
    this.emit(
      'loop.stopped',
      {
        status: 'interrupted',
        reason: 'signal',
        detail: 'interrupted; continue with shim loop --resume',
      },
      this.#run.iteration || null,
    );
    this.#saveState();
    this.#saveRun({
      status: 'interrupted',
      stopReason: 'interrupted by a signal',
      supervisorPid: null,
    });
    return this.#result(130);
  }

  #result(exitCode: number): LoopResult {
    return {
      run: this.#repo.getRun(this.runId) ?? this.#run,
      iterations: this.#repo.getIterations(this.runId),
      exitCode,
    };
  }
}

const SUMMARY_EVENT_NAMES = [
  'loop.iteration_started',
  'loop.tool_call',
  'loop.agent_error',
  'loop.compaction',
  'loop.context_exhaustion_warning',
  'loop.iteration_finished',
  'loop.test_run',
  'loop.stuck_detected',
  'loop.usage_limit_wait',
  'loop.crash_restart',
  'loop.context_exhaustion_restart',
];

/** Tool inputs, errors and answers can carry secrets; nothing is written unredacted. */
function redactStrings(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    out[key] = typeof value === 'string' ? redactTextSync(value).text : value;
  }
  return out;
}

function safe<T>(work: () => T): T | null {
  try {
    return work();
  } catch {
    return null;
  }
}

/** Feeds the monitor every line already consumed, so a re-attached iteration knows its past. */
async function replayConsumed(
  path: string,
  upTo: number,
  monitor: IterationMonitor,
): Promise<void> {
  if (upTo <= 0) return;
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return;
  }
  try {
    const buffer = Buffer.alloc(upTo);
    const read = readSync(fd, buffer, 0, upTo, 0);
    for (const line of buffer.toString('utf8', 0, read).split('\n')) {
      if (line) monitor.accept(line);
    }
  } finally {
    closeSync(fd);
  }
}

/** Starts a new run. */
export async function startLoop(options: LoopOptions, deps: SupervisorDeps): Promise<LoopResult> {
  const now = (deps.now ?? Date.now)();
  const config = await loadConfig(deps.home);
  collectOldRuns(deps, now, config.loopRetention);
  const repo = new LoopRepository(deps.db);
  const runId = newRunId(now);
  const at = new Date(now).toISOString();
  const run: LoopRunRecord = {
    runId,
    createdAt: at,
    updatedAt: at,
    cwd: deps.cwd,
    goal: options.goal,
    status: 'running',
    stopReason: null,
    options: options as unknown as Record<string, unknown>,
    startCommit: safe(() => getHeadCommit(deps.cwd)),
    iteration: 0,
    restarts: 0,
    sessionId: null,
    supervisorPid: process.pid,
    costUsd: 0,
    contextTokens: null,
    contextPercent: null,
    lastEvent: null,
    waitUntil: null,
    state: initialState() as unknown as Record<string, unknown>,
    endedAt: null,
    compactedAt: null,
  };
  repo.createRun(run);
  const supervisor = new Supervisor(deps, run, options, initialState(), config);
  supervisor.openLog();
  try {
    supervisor.emit('loop.started', {
      goal: truncate(options.goal, 300),
      goalSource: options.goalSource,
      cwd: deps.cwd,
      claudeBin: options.claudeBin,
      maxIterations: options.maxIterations,
      maxRestarts: options.maxRestarts,
      thresholdPercent: options.thresholdPercent,
      testCommand: options.testCommand,
      budgetUsd: options.budgetUsd,
      startCommit: run.startCommit,
    });
    return await supervisor.run(null);
  } finally {
    supervisor.close();
  }
}

export type ResumeOverrides = {
  claudeBin?: string;
  maxIterations?: number;
  budgetUsd?: number | null;
};

/** Continues a run a killed or interrupted supervisor left behind. */
export async function resumeLoop(
  runId: string | null,
  overrides: ResumeOverrides,
  deps: SupervisorDeps,
): Promise<LoopResult> {
  const config = await loadConfig(deps.home);
  const repo = new LoopRepository(deps.db);
  const run = runId
    ? repo.findRun(runId)
    : repo.latestRun({ cwd: deps.cwd, statuses: ['running', 'waiting', 'interrupted'] });
  if (!run) {
    throw new AppError(
      'USAGE',
      runId ? `no loop run ${runId}` : `no unfinished loop run in ${deps.cwd}`,
      'see `shim loop list`',
    );
  }
  if (run.status === 'completed') {
    throw new AppError(
      'USAGE',
      `loop run ${run.runId} already completed`,
      'start a new one with shim loop --goal …',
    );
  }
  if (
    run.supervisorPid &&
    run.supervisorPid !== process.pid &&
    isProcessAlive(run.supervisorPid) &&
    run.status !== 'interrupted' &&
    isSupervisor(run.supervisorPid)
  ) {
    throw new AppError(
      'USAGE',
      `loop run ${run.runId} is being supervised by process ${run.supervisorPid}`,
      `watch it with shim loop status ${run.runId}, or stop that process first`,
    );
  }
  const options = { ...(run.options as unknown as LoopOptions), ...definedOnly(overrides) };
  const state = { ...initialState(), ...(run.state as Partial<LoopState> | null) } as LoopState;
  const iterations = repo.getIterations(run.runId);
  const inFlight = iterations.find((i) => i.endedAt === null) ?? null;
  repo.updateRun(run.runId, {
    supervisorPid: process.pid,
    status: run.status === 'waiting' ? 'waiting' : 'running',
    stopReason: null,
    endedAt: null,
  });
  const fresh = repo.getRun(run.runId)!;
  const supervisor = new Supervisor(deps, fresh, options, state, config);
  supervisor.openLog();
  try {
    if (!inFlight) {
      supervisor.emit('loop.resumed', {
        fromStatus: run.status,
        iteration: run.iteration,
        inFlight: null,
      });
      // A run stopped by a limit it has now passed (iterations, budget) goes on from where it was.
      if (state.nextMode === 'continue' && !fresh.sessionId) state.nextMode = 'fresh';
    }
    return await supervisor.run(inFlight);
  } finally {
    supervisor.close();
  }
}

/** Seed 003's retention, applied as each run starts: cheap, and never in the run's way. */
function collectOldRuns(
  deps: SupervisorDeps,
  now: number,
  retention: { hotDays: number; retentionDays: number },
): void {
  try {
    collectLoopGarbage({ db: deps.db, home: deps.home, now, ...retention });
  } catch (error) {
    appendLog(deps.home, 'warn', 'loop: retention of old runs failed', { error: String(error) });
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Whether a live pid is a shim supervisor (not a reused pid of some other program). */
function isSupervisor(pid: number): boolean {
  try {
    return /shim|loop/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
  } catch {
    return true;
  }
}
