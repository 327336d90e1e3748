/**
 * The loop supervisor: runs the agent in iterations until the goal is met, restarts it with a
 * fresh session (and a summary) before its context runs out, waits out usage limits, recovers
 * from hangs and crashes, and survives its own death.
 *
 * Every fact is written as it happens (run-journal.ts): the run and iteration rows in SQLite,
 * every event in the run's append-only events.jsonl, the agent's own output in a file the agent
 * writes directly. A supervisor killed with -9 leaves nothing that `--resume` cannot pick up.
 * The pieces: what an iteration is told (iteration-prompt.ts), following it
 * (follow-iteration.ts), recording its stream (stream-recorder.ts), judging its end
 * (judge-iteration.ts), restarts (restart.ts), the agent switch (switch-agent.ts), the rescue
 * (rescue-session.ts), how the run ends (run-end.ts); the rules they apply are pure, in
 * core/loop. What is left here is the order of things: start or re-attach, follow, judge, carry
 * out the decision, wait, finish.
 * @module
 */
import { join } from 'node:path';
import { historyMode } from '../app/session/assess-live-session.ts';
import { isProcessAlive } from '../capture/process-tree.ts';
import { classifyIterationEnd } from '../core/loop/iteration-end.ts';
import type { NextStep } from '../core/loop/next-step.ts';
import type { ShimConfig } from '../store/config/config.ts';
import { hasClaudeMem } from '../app/sync/claude-mem-place.ts';
import { basename } from 'node:path';
import type { Store } from '../app/open-store.ts';
import type { Env } from '../store/home/home.ts';
import { getRunDir, type LoopEvent } from '../store/loop/loop-event-log.ts';
import { readRunEvents } from '../store/loop/loop-event-reader.ts';
import type { LoopIterationRecord } from '../store/ports/loops.ts';
import type { AgentId } from '../core/agent-id.ts';
import type { HeadlessRun, ThresholdRules } from '../agents/agent.ts';
import type { Agents } from '../agents/agent.ts';
import { agentBin, launchAgent, stopAgent } from './agent-run.ts';
import { prepareAgentSwitch } from './switch-agent.ts';
import { prepareRescue } from './rescue-session.ts';
import { followIteration, type FollowIterationInput } from './follow-iteration.ts';
import {
  IterationMonitor,
  pendingWorkOf,
  replayConsumedLines,
  scheduledJobsFor,
  type ThresholdInfo,
} from './iteration-monitor.ts';
import { judgeIteration, type IterationOutcome } from './judge-iteration.ts';
import type { LoopState } from './loop-state.ts';
import { restartRule, type LoopOptions } from './options.ts';
import { prepareRestart } from './restart.ts';
import { iterationPrompt } from './iteration-prompt.ts';
import { finishRun, interruptRun } from './run-end.ts';
import { agentThreshold, FALLBACK_THRESHOLD } from './loop-threshold.ts';
import type { LoopResult, RunJournal } from './run-journal.ts';
import { StreamRecorder } from './stream-recorder.ts';

export type SupervisorDeps = {
  /** Every agent the run may hand the work to (the entry's). */
  agents: Agents;
  store: Store;
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

export class Supervisor {
  readonly #deps: SupervisorDeps;
  readonly #journal: RunJournal;
  readonly #now: () => number;
  readonly #options: LoopOptions;
  readonly #state: LoopState;
  readonly #config: ShimConfig;

  constructor(
    deps: SupervisorDeps,
    journal: RunJournal,
    options: LoopOptions,
    state: LoopState,
    config: ShimConfig,
  ) {
    this.#deps = deps;
    this.#journal = journal;
    this.#now = deps.now ?? Date.now;
    this.#options = options;
    this.#state = state;
    this.#config = config;
  }

  /** The main loop; `resumeIteration` is an iteration found in flight by --resume. */
  async run(resumeIteration: LoopIterationRecord | null): Promise<LoopResult> {
    const journal = this.#journal;
    try {
      let pending = resumeIteration;
      if (!pending && journal.run.status === 'waiting' && journal.run.waitUntil) {
        const ok = await this.#waitUntil(Date.parse(journal.run.waitUntil), 'resuming the wait');
        if (!ok) return this.#interrupted();
      }
      for (;;) {
        if (this.#deps.signal?.aborted) return this.#interrupted();
        const outcome = pending ? await this.#reattach(pending) : await this.#startIteration();
        pending = null;
        if (outcome === null) return this.#interrupted();
        const step = await this.#afterIteration(outcome);
        if (step === null) return this.#interrupted();
        if (step.kind === 'complete' || step.kind === 'stop') return this.#finish(step);
      }
    } catch (error) {
      journal.emit('loop.stopped', {
        status: 'failed',
        reason: 'supervisor_error',
        detail: String(error),
      });
      journal.saveRun({
        status: 'failed',
        stopReason: `supervisor error: ${String(error)}`,
        endedAt: journal.iso(),
      });
      throw error;
    }
  }

  /** The agent running now and its compaction rule (set as its iteration starts). */
  #thresholdRules: { agent: AgentId; rules: ThresholdRules | null } | null = null;

  #resolveThreshold = (model: string | null, cliVersion: string | null): ThresholdInfo => {
    const info = agentThreshold(this.#thresholdRules, model, cliVersion, {
      env: this.#deps.env,
      home: this.#deps.home,
      now: this.#now(),
      history: historyMode(this.#config.learnFromHistory),
    });
    if (info) this.#state.threshold = info;
    return info ?? FALLBACK_THRESHOLD;
  };

  /** The agent running the work now: the run's own, or its fallback after a usage limit. */
  #agentId(): AgentId {
    return this.#state.currentAgent ?? this.#options.agent;
  }

  /** The agent's headless run; its compaction rule becomes the one the monitor judges by. */
  async #headless(agent: AgentId): Promise<HeadlessRun> {
    const adapter = await this.#deps.agents.adapter(agent);
    this.#thresholdRules = { agent, rules: adapter.threshold };
    return adapter.headless;
  }

  #stdoutPath(iteration: number): string {
    return join(
      getRunDir(this.#deps.home, this.#journal.runId),
      `iteration-${iteration}.stdout.jsonl`,
    );
  }

  async #startIteration(): Promise<IterationOutcome | null> {
    const journal = this.#journal;
    const number = journal.run.iteration + 1;
    // Over the context window: a fork of the session at its last message that fits (rescue-session.ts).
    const rescue = this.#state.rescue;
    const continuing =
      rescue === null && this.#state.nextMode === 'continue' && journal.run.sessionId !== null;
    const options = this.#options;
    const prompt = iterationPrompt({
      options,
      state: this.#state,
      continuing,
      memory: () =>
        this.#config.sync.enabled && this.#config.sync.claudeMem && hasClaudeMem(this.#deps.env)
          ? { project: basename(this.#deps.cwd) }
          : null,
    });
    const sessionId = rescue ? rescue.sessionId : continuing ? journal.run.sessionId : null;
    const agentId = this.#agentId();
    const headless = await this.#headless(agentId);
    this.#state.scheduled = scheduledJobsFor(this.#state.scheduled, {
      keepsJobs: headless.keepsScheduledJobs,
      resumesSession: sessionId !== null,
    });
    const args = headless.args({
      prompt,
      resumeSessionId: sessionId,
      forkAt: rescue?.forkAt ?? null,
      model: null,
      extra: agentId === options.agent ? options.agentArgs : options.fallbackArgs,
    });
    const agent = await launchAgent({
      bin: agentBin(this.#options.bins, agentId, this.#journal.runId),
      args,
      cwd: journal.run.cwd,
      // Started from inside an agent's session, the agent would inherit its markers: each
      // agent's headless run says which of its own to drop.
      env: {
        ...headless.env(this.#deps.env),
        SHIM_LOOP_RUN_ID: journal.runId,
        SHIM_LOOP_ITERATION: String(number),
      },
      stdoutPath: this.#stdoutPath(number),
      stderrPath: join(getRunDir(this.#deps.home, journal.runId), `iteration-${number}.stderr.log`),
    });
    // The repository fills in everything not known yet (outcome, usage, offsets…).
    const record = journal.repo.saveIteration({
      runId: journal.runId,
      number,
      sessionId,
      mode: continuing || rescue ? 'continue' : 'fresh',
      prompt,
      startedAt: journal.iso(),
      agentPid: agent.pid,
    });
    this.#state.agent = { pid: agent.pid, startTime: agent.startTime };
    this.#state.note = null;
    this.#state.rescue = null;
    journal.saveRun({ iteration: number, status: 'running', waitUntil: null });
    journal.saveState(this.#state);
    journal.emit(
      'loop.iteration_started',
      {
        mode: rescue ? 'rescue' : record.mode,
        sessionId,
        pid: agent.pid,
        promptChars: prompt.length,
        summaryInjected: !continuing && this.#state.pendingSummary !== null,
        agent: agentId,
      },
      number,
    );
    const monitor = new IterationMonitor(
      restartRule(options),
      this.#resolveThreshold,
      sessionId,
      headless.parser(),
    );
    monitor.adoptScheduled(this.#state.scheduled);
    return this.#follow(record, monitor, new Set(), {
      pid: agent.pid,
      startTime: agent.startTime,
      exited: agent.exited,
      orphaned: false,
    });
  }

  /** Picks up an iteration a killed supervisor left in flight. */
  async #reattach(record: LoopIterationRecord): Promise<IterationOutcome | null> {
    const journal = this.#journal;
    const monitor = new IterationMonitor(
      restartRule(this.#options),
      this.#resolveThreshold,
      record.sessionId,
      (await this.#headless(this.#agentId())).parser(),
    );
    monitor.adoptScheduled(this.#state.scheduled); // as the iteration started with them
    // Rebuild the monitor's state from what was already consumed, without repeating events.
    await replayConsumedLines(this.#stdoutPath(record.number), record.streamOffset, monitor);
    const alreadyLogged = new Set(
      readRunEvents(this.#deps.home, journal.runId)
        .filter((e) => e.iteration === record.number && Number(e.data.line) > record.streamOffset)
        .map((e) => `${e.name}@${Number(e.data.line)}`),
    );
    const agent = this.#state.agent;
    const alive = agent !== null && isProcessAlive(agent.pid, agent.startTime);
    journal.emit(
      'loop.resumed',
      {
        iteration: record.number,
        agentAlive: alive,
        sessionId: record.sessionId,
        offset: record.streamOffset,
      },
      record.number,
    );
    return this.#follow(record, monitor, alreadyLogged, {
      pid: agent?.pid ?? 0,
      startTime: agent?.startTime ?? null,
      orphaned: !alive,
    });
  }

  /** Follows the agent to its end and says how the iteration ended; null when interrupted. */
  async #follow(
    record: LoopIterationRecord,
    monitor: IterationMonitor,
    alreadyLogged: Set<string>,
    agent: FollowIterationInput['agent'],
  ): Promise<IterationOutcome | null> {
    const journal = this.#journal;
    const number = record.number;
    const recorder = new StreamRecorder(journal, record, monitor, { alreadyLogged });
    const { follow, termination } = await followIteration({
      stdoutPath: this.#stdoutPath(number),
      fromOffset: record.streamOffset,
      agent,
      monitor,
      deadline: Date.parse(record.startedAt) + this.#options.iterationTimeoutMs,
      safePointWaitMs: this.#options.safePointWaitMs,
      now: this.#now,
      ...(this.#deps.signal ? { signal: this.#deps.signal } : {}),
      onSignal: (signal, endOffset) => recorder.record(signal, endOffset),
      onError: (error) => journal.emit('loop.monitor_error', { error: String(error) }, number),
      onTimeout: () =>
        journal.emit(
          'loop.agent_timeout',
          { timeoutMs: this.#options.iterationTimeoutMs, pid: agent.pid },
          number,
        ),
      onConsumed: (endOffset) => {
        record.streamOffset = endOffset;
      },
    });
    if (follow.aborted) {
      await stopAgent(agent.pid, agent.startTime);
      journal.repo.updateIteration(journal.runId, number, {
        streamOffset: record.streamOffset,
        outcome: 'interrupted',
      });
      return null;
    }
    const stats = monitor.stats;
    const end = classifyIterationEnd({
      termination,
      usageLimit: stats.limit !== null,
      result: stats.result,
      apiError: stats.apiError !== null,
      orphaned: agent.orphaned,
      pendingWork: pendingWorkOf(stats).length > 0,
      contextOverflow: stats.contextOverflow,
    });
    return { end, stats, follow };
  }

  /** Records the iteration's end, decides what comes next and prepares it. Null = interrupted. */
  async #afterIteration(outcome: IterationOutcome): Promise<NextStep | null> {
    const journal = this.#journal;
    const state = this.#state;
    const number = journal.run.iteration;
    state.scheduled = outcome.stats.scheduledTasks; // what the session has now, for the next
    const step = await judgeIteration(outcome, {
      journal,
      state,
      options: this.#options,
      env: this.#deps.env,
      agents: this.#deps.agents,
      now: this.#now(),
    });
    switch (step.kind) {
      case 'complete':
      case 'stop':
        journal.saveState(state);
        return step;
      case 'continue':
        state.nextMode = 'continue';
        state.note = step.note;
        journal.saveState(state);
        return step;
      case 'wait': {
        state.nextMode = 'continue';
        state.note = step.limit
          ? 'A usage limit interrupted your previous turn; it has reset now. Carry on where you left off.'
          : 'An API error interrupted your previous turn. Carry on where you left off.';
        journal.saveState(state);
        const ok = await this.#waitUntil(step.until, step.reason, step.limit);
        return ok ? step : null;
      }
      case 'switch_agent':
        await prepareAgentSwitch(step, {
          journal,
          state,
          agents: this.#deps.agents,
          store: this.#deps.store,
          home: this.#deps.home,
          env: this.#deps.env,
          now: this.#now(),
          from: this.#agentId(),
          sessionId: outcome.stats.sessionId ?? journal.run.sessionId,
        });
        return step;
      case 'rescue':
        await prepareRescue(step, {
          journal,
          state,
          options: this.#options,
          agents: this.#deps.agents,
          store: this.#deps.store,
          home: this.#deps.home,
          env: this.#deps.env,
          now: this.#now(),
          iteration: number,
          sessionId: outcome.stats.sessionId ?? journal.run.sessionId,
          lastPercent: outcome.stats.lastPercent,
        });
        return step;
      case 'restart':
        await prepareRestart(step, {
          journal,
          state,
          options: this.#options,
          agents: this.#deps.agents,
          store: this.#deps.store,
          home: this.#deps.home,
          env: this.#deps.env,
          now: this.#now(),
          iteration: number,
          sessionId: outcome.stats.sessionId ?? journal.run.sessionId,
          lastPercent: outcome.stats.lastPercent,
        });
        return step;
    }
  }

  async #waitUntil(until: number, reason: string, limit = true): Promise<boolean> {
    const journal = this.#journal;
    journal.saveRun({ status: 'waiting', waitUntil: new Date(until).toISOString() });
    journal.emit(
      limit ? 'loop.usage_limit_wait' : 'loop.agent_error',
      { until: new Date(until).toISOString(), reason, waitMs: Math.max(0, until - this.#now()) },
      journal.run.iteration,
    );
    const signal = this.#deps.signal;
    while (this.#now() < until) {
      if (signal?.aborted) return false;
      await new Promise((resolve) =>
        setTimeout(resolve, Math.min(1000, Math.max(10, until - this.#now()))),
      );
    }
    journal.saveRun({ status: 'running', waitUntil: null });
    if (limit)
      journal.emit(
        'loop.usage_limit_resumed',
        { waitedUntil: new Date(until).toISOString() },
        journal.run.iteration,
      );
    return true;
  }

  #finish(step: Extract<NextStep, { kind: 'complete' | 'stop' }>): LoopResult {
    return finishRun(this.#journal, step, this.#options.budgetUsd);
  }

  #interrupted = (): LoopResult => interruptRun(this.#journal, this.#state);
}
