/**
 * Follows one iteration's stream: the agent's session, the real context occupancy (the last
 * main-chain response's usage, not a sum), tool calls in flight, errors, limits, compactions and
 * the final result. Fed line by line; never throws on what the agent prints.
 * @module
 */
import { closeSync, openSync, readSync } from 'node:fs';
import type { AgentEvent, BackgroundTask } from '../agents/headless-event.ts';
import {
  checkContextUsage,
  restartPercent,
  type RestartRule,
} from '../core/loop/context-monitor.ts';
import { isLimitMessage } from '../core/loop/usage-limit.ts';
import { isContextOverflowMessage } from '../core/loop/context-overflow.ts';

/** One line of the agent's output → what it says (the agent's headless parser). */
export type LineParser = (line: string) => AgentEvent[];

/**
 * A prompt Claude Code's CronCreate scheduled. `durable`: written to .claude/scheduled_tasks.json,
 * so a new session in the project has it too; a session-only job lives as long as its session
 * (a resumed one gets it back).
 */
export type ScheduledJob = BackgroundTask & { durable: boolean };

export type ThresholdInfo = { compactThreshold: number; windowTokens: number; detail: string };

export type MonitorSignal =
  | { kind: 'session'; sessionId: string; model: string | null; cliVersion: string | null }
  | { kind: 'context'; tokens: number; percent: number; crossed: boolean }
  | { kind: 'tool_call'; name: string; input: Record<string, unknown> }
  | { kind: 'tool_error'; text: string }
  | {
      kind: 'api_error';
      text: string;
      status: number | null;
      limit: boolean;
      resetsAt: number | null;
    }
  | { kind: 'compaction'; trigger: string; preTokens: number | null }
  | { kind: 'result'; isError: boolean; text: string; costUsd: number | null }
  | { kind: 'safe_point' };

export type IterationStats = {
  sessionId: string | null;
  model: string | null;
  cliVersion: string | null;
  responses: number;
  toolCalls: number;
  lastContextTokens: number;
  peakContextTokens: number;
  lastPercent: number;
  peakPercent: number;
  /** Where this iteration restarts, as a percent of the auto-compact threshold (RestartRule). */
  restartPercent: number;
  compactions: number;
  lastToolError: string | null;
  apiError: { text: string; status: number | null } | null;
  /** The agent refused a turn as too long for its window ("Prompt is too long"). */
  contextOverflow: boolean;
  limit: { resetsAt: number | null } | null;
  result: { isError: boolean; text: string; costUsd: number | null } | null;
  lastText: string;
  /**
   * Background work still live when the turn's last result came (a turn can end before it), less
   * what then finished by itself. A task the CLI stopped on its way out (the loop ended the agent
   * after the result) stays: its work did not finish.
   */
  backgroundTasks: BackgroundTask[];
  /**
   * Scheduled prompts (Claude Code's CronCreate) the session has and this iteration did not
   * delete, those an earlier iteration left included (adoptScheduled): work the session means to
   * do later, so a turn ending with one is not the work done (#87836).
   */
  scheduledTasks: ScheduledJob[];
};

/** Work a turn left pending: background tasks still live and scheduled prompts. */
export function pendingWorkOf(stats: IterationStats): BackgroundTask[] {
  return [...stats.backgroundTasks, ...stats.scheduledTasks];
}

/**
 * The jobs an iteration starts with: an agent that keeps them (its headless run's
 * `keepsScheduledJobs`) gives a resumed session its jobs back, a new one only those written to
 * disk; another agent has none of them.
 */
export function scheduledJobsFor(
  jobs: readonly ScheduledJob[],
  next: { keepsJobs: boolean; resumesSession: boolean },
): ScheduledJob[] {
  if (!next.keepsJobs) return [];
  return next.resumesSession ? [...jobs] : jobs.filter((job) => job.durable);
}

export class IterationMonitor {
  readonly stats: IterationStats = {
    sessionId: null,
    model: null,
    cliVersion: null,
    responses: 0,
    toolCalls: 0,
    lastContextTokens: 0,
    peakContextTokens: 0,
    lastPercent: 0,
    peakPercent: 0,
    restartPercent: 0,
    compactions: 0,
    lastToolError: null,
    apiError: null,
    contextOverflow: false,
    limit: null,
    result: null,
    lastText: '',
    backgroundTasks: [],
    scheduledTasks: [],
  };
  /** Set once the context crossed the threshold: the iteration ends at the next safe point. */
  draining = false;
  readonly #seen = new Set<string>();
  readonly #pendingTools = new Set<string>();
  /** CronCreate calls waiting for their result, and CronDelete calls with the job they name. */
  readonly #cronCalls = new Map<string, ScheduledJob>();
  readonly #cronDeletes = new Map<string, string>();
  /** Tasks that ended by themselves (completed or failed), by id. */
  readonly #doneTasks = new Set<string>();
  /** The turn's result has come and no new turn has started: the agent decides nothing now. */
  #turnOver = false;
  readonly #restart: RestartRule;
  readonly #resolveThreshold: (model: string | null, cliVersion: string | null) => ThresholdInfo;
  #threshold: ThresholdInfo | null = null;
  readonly #parse: LineParser;

  /** `restart`: shim's percent of the threshold, or with the seed's window rule (RestartRule). */
  constructor(
    restart: number | RestartRule,
    resolveThreshold: (model: string | null, cliVersion: string | null) => ThresholdInfo,
    sessionId: string | null,
    /** The running agent's stdout parser (its headless run's `parser()`). */
    parse: LineParser,
  ) {
    this.#parse = parse;
    this.#restart =
      typeof restart === 'number' ? { thresholdPercent: restart, window: null } : restart;
    this.stats.restartPercent = this.#restart.thresholdPercent;
    this.#resolveThreshold = resolveThreshold;
    this.stats.sessionId = sessionId;
  }

  get threshold(): ThresholdInfo | null {
    return this.#threshold;
  }

  /** The restart point as a percent of the auto-compact threshold (known once a threshold is). */
  get restartPercent(): number {
    return this.stats.restartPercent;
  }

  get pendingTools(): number {
    return this.#pendingTools.size;
  }

  /** Processes one stdout line; returns what the supervisor should know about it. */
  accept(line: string): MonitorSignal[] {
    const signals: MonitorSignal[] = [];
    for (const event of this.#parse(line)) this.#apply(event, signals);
    return signals;
  }

  /**
   * Jobs earlier iterations scheduled that this one's session still has (Claude Code restores a
   * resumed session's jobs): pending until this iteration deletes them.
   */
  adoptScheduled(jobs: readonly ScheduledJob[]): void {
    const known = new Set(this.stats.scheduledTasks.map((j) => j.id));
    this.stats.scheduledTasks.unshift(...jobs.filter((j) => !known.has(j.id)));
  }

  /** A CronCreate or CronDelete call: settled when its result comes. */
  #noteSchedule(tool: { id: string; name: string; input: Record<string, unknown> }): void {
    if (tool.name === 'CronCreate') {
      const schedule = typeof tool.input.cron === 'string' ? tool.input.cron : '?';
      const prompt = typeof tool.input.prompt === 'string' ? tool.input.prompt : '';
      this.#cronCalls.set(tool.id, {
        id: tool.id,
        type: 'scheduled',
        description: `${schedule}: ${prompt}`.slice(0, 200),
        durable: false,
      });
    } else if (tool.name === 'CronDelete' && typeof tool.input.id === 'string') {
      this.#cronDeletes.set(tool.id, tool.input.id);
    }
  }

  #settleSchedule(result: Extract<AgentEvent, { kind: 'tool_result' }>): void {
    const { toolUseId, isError, text, output } = result;
    const stats = this.stats;
    const created = this.#cronCalls.get(toolUseId);
    if (created) {
      this.#cronCalls.delete(toolUseId);
      if (isError) return; // refused (an invalid expression): nothing scheduled
      // A delete names the job by the id the result gave: the structured one, or the text's.
      stats.scheduledTasks.push({
        ...created,
        id: output?.id ?? jobIdIn(text) ?? created.id,
        durable: output ? output.durable : /\bPersisted to\b/.test(text),
      });
      return;
    }
    const job = this.#cronDeletes.get(toolUseId);
    if (job === undefined) return;
    this.#cronDeletes.delete(toolUseId);
    // Refused as unknown ("No scheduled job with id …"): the session does not have it either.
    if (!isError || /\bNo scheduled job\b/i.test(text)) {
      stats.scheduledTasks = stats.scheduledTasks.filter((t) => t.id !== job);
    }
  }

  #thresholdInfo(): ThresholdInfo {
    this.#threshold ??= this.#resolveThreshold(this.stats.model, this.stats.cliVersion);
    return this.#threshold;
  }

  #apply(event: AgentEvent, out: MonitorSignal[]): void {
    const stats = this.stats;
    switch (event.kind) {
      case 'init':
        this.#turnOver = false;
        stats.sessionId = event.sessionId || stats.sessionId;
        stats.model = event.model;
        stats.cliVersion = event.cliVersion;
        this.#threshold = null;
        if (stats.sessionId) {
          out.push({
            kind: 'session',
            sessionId: stats.sessionId,
            model: event.model,
            cliVersion: event.cliVersion,
          });
        }
        return;
      case 'response': {
        if (event.sidechain) return; // a subagent's context is not the session's
        this.#turnOver = false;
        stats.model ??= event.model;
        if (event.text) stats.lastText = event.text;
        for (const tool of event.toolUses) {
          if (this.#pendingTools.has(tool.id)) continue;
          this.#pendingTools.add(tool.id);
          stats.toolCalls++;
          this.#noteSchedule(tool);
          out.push({ kind: 'tool_call', name: tool.name, input: tool.input });
        }
        // One response arrives as one line per content block, all with the same usage.
        if (this.#seen.has(event.messageId)) return;
        this.#seen.add(event.messageId);
        stats.responses++;
        // An agent whose stream does not say what each response was sent with (Codex, Gemini):
        // no reading, and no restart on one; the agent compacts by itself.
        if (event.contextTokens === null) return;
        const info = this.#thresholdInfo();
        stats.restartPercent = restartPercent(this.#restart, info);
        const check = checkContextUsage(
          event.contextTokens,
          info.compactThreshold,
          stats.restartPercent,
        );
        stats.lastContextTokens = event.contextTokens;
        stats.peakContextTokens = Math.max(stats.peakContextTokens, event.contextTokens);
        stats.lastPercent = check.percent;
        stats.peakPercent = Math.max(stats.peakPercent, check.percent);
        const crossed = check.exhausted && !this.draining;
        if (crossed) this.draining = true;
        out.push({ kind: 'context', tokens: event.contextTokens, percent: check.percent, crossed });
        return;
      }
      case 'tool_result':
        if (event.sidechain) return;
        this.#pendingTools.delete(event.toolUseId);
        this.#settleSchedule(event);
        if (event.isError) {
          stats.lastToolError = event.text;
          out.push({ kind: 'tool_error', text: event.text });
        }
        if (this.draining && this.#pendingTools.size === 0) out.push({ kind: 'safe_point' });
        return;
      case 'api_error': {
        const limit =
          event.error === 'rate_limit' ||
          event.apiError === 'usage_limit_reached' ||
          event.status === 429 ||
          isLimitMessage(event.text);
        stats.apiError = { text: event.text, status: event.status };
        if (isContextOverflowMessage(event.text)) stats.contextOverflow = true;
        if (limit) stats.limit = { resetsAt: event.resetsAt ?? stats.limit?.resetsAt ?? null };
        out.push({
          kind: 'api_error',
          text: event.text,
          status: event.status,
          limit,
          resetsAt: event.resetsAt,
        });
        return;
      }
      case 'rate_limit':
        if (event.status === 'rejected') {
          stats.limit = { resetsAt: event.resetsAt ?? stats.limit?.resetsAt ?? null };
        }
        return;
      case 'background_tasks': {
        // Between turns only the CLI removes a task: kept unless it ended by itself. Claude Code
        // stops what still runs when the loop ends it after a result (2.1.330 reports those
        // `stopped`, then an empty set), and that is unfinished work, not done work.
        const live = new Set(event.tasks.map((t) => t.id));
        const kept = this.#turnOver
          ? stats.backgroundTasks.filter((t) => !live.has(t.id) && !this.#doneTasks.has(t.id))
          : [];
        stats.backgroundTasks = [...event.tasks, ...kept];
        return;
      }
      case 'task_ended':
        if (event.status !== 'completed' && event.status !== 'failed') return;
        this.#doneTasks.add(event.taskId);
        stats.backgroundTasks = stats.backgroundTasks.filter((t) => t.id !== event.taskId);
        return;
      case 'compact':
        stats.compactions++;
        out.push({ kind: 'compaction', trigger: event.trigger, preTokens: event.preTokens });
        return;
      case 'result':
        this.#turnOver = true;
        stats.result = { isError: event.isError, text: event.text, costUsd: event.costUsd };
        if (event.sessionId) stats.sessionId ??= event.sessionId;
        if (event.isError && !stats.apiError) {
          stats.apiError = {
            text: event.text || event.errors.join('; ') || event.subtype,
            status: event.apiErrorStatus,
          };
        }
        if (event.isError && isContextOverflowMessage(event.text)) stats.contextOverflow = true;
        if (event.isError && (event.apiErrorStatus === 429 || isLimitMessage(event.text))) {
          stats.limit ??= { resetsAt: null };
        }
        out.push({
          kind: 'result',
          isError: event.isError,
          text: event.text,
          costUsd: event.costUsd,
        });
        return;
      default:
        return;
    }
  }
}

/** Feeds the monitor every line already consumed, so a re-attached iteration knows its past. */
export async function replayConsumedLines(
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

/**
 * The job id a CronCreate result's text names: "Scheduled recurring job 7150f4aa (…)" or
 * "Scheduled one-shot task 3a9a4aae (…)" (Claude Code 2.1.332).
 */
function jobIdIn(text: string): string | null {
  return /\b(?:job|task|id)\W+([A-Za-z0-9_-]{4,})/i.exec(text)?.[1] ?? null;
}
