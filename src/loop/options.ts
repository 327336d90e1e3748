/**
 * `shim loop`'s settings: defaults, limits, and the checks that turn a bad flag into one clear
 * line before anything starts.
 * @module
 */
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import {
  DEFAULT_THRESHOLD_PERCENT,
  type RestartRule,
  type WindowRestart,
} from '../core/loop/context-monitor.ts';
import { DEFAULT_COMPLETION_MARKER } from '../core/loop/loop-prompt.ts';
import { DEFAULT_STUCK_POLICY, type StuckPolicy } from '../core/loop/stuck.ts';
import { AppError } from '../core/errors.ts';
import { AGENT_IDS, agentName, isAgentId, type AgentId } from '../core/agent-id.ts';
import type { HeadlessRun } from '../agents/agent.ts';
import type { Agents } from '../agents/agent.ts';
import type { Env } from '../store/home/home.ts';
import { newestSession } from '../app/session/session-log.ts';
import { z } from 'zod';

export const MAX_RESTARTS_CAP = 5;

export type LoopOptions = {
  goal: string;
  /** Where the goal came from, for the record: "--goal" or the prompt file's path. */
  goalSource: string;
  maxIterations: number;
  maxRestarts: number;
  /** Percent of the auto-compact threshold at which a session is ended and restarted fresh. */
  thresholdPercent: number;
  /**
   * The seed's CONTEXT_EXHAUSTION_THRESHOLD / CONTEXT_WINDOW_TOKENS, when set and --threshold is
   * not: restart at that percent of the window instead (core/loop/context-monitor.ts).
   */
  contextWindow: WindowRestart | null;
  testCommand: string | null;
  testTimeoutMs: number;
  iterationTimeoutMs: number;
  budgetUsd: number | null;
  /** The agent the run starts with. */
  agent: AgentId;
  /** The agent the run carries on in when the running one hits a usage limit. */
  fallbackAgent: AgentId | null;
  /** The executable of each agent the run may start (the agent's, the fallback's). */
  bins: Partial<Record<AgentId, string>>;
  /** Passed to every invocation of `agent` after shim's own flags. */
  agentArgs: string[];
  /** Passed to every invocation of `fallbackAgent` instead. */
  fallbackArgs: string[];
  completionMarker: string;
  stuck: StuckPolicy;
  /** How long to wait for a safe point (no tool running) after the threshold is crossed. */
  safePointWaitMs: number;
  /** Extra wait after a usage limit's reported reset (clocks differ). */
  limitMarginMs: number;
  /** First pause after a transient API error (doubles each time in a row). */
  retryBaseMs: number;
};

export type RawLoopOptions = {
  goal?: string;
  promptFile?: string;
  maxIterations?: string;
  maxRestarts?: string;
  threshold?: string;
  testCmd?: string;
  testTimeout?: string;
  iterationTimeout?: string;
  budgetUsd?: string;
  agent?: string;
  fallbackAgent?: string;
  fallbackArg?: string[];
  claudeBin?: string;
  codexBin?: string;
  geminiBin?: string;
  completionMarker?: string;
  stuckIterations?: string;
};

export const LOOP_DEFAULTS = {
  maxIterations: 20,
  maxRestarts: 3,
  thresholdPercent: DEFAULT_THRESHOLD_PERCENT,
  testTimeoutMs: 10 * 60_000,
  iterationTimeoutMs: 30 * 60_000,
  safePointWaitMs: 60_000,
  limitMarginMs: 30_000,
  retryBaseMs: 15_000,
} as const;

function usage(message: string, hint?: string): AppError {
  return new AppError('USAGE', message, hint);
}

/** The seed's default restart point: 70% of the window (docs/specification.md, "The loop"). */
const SEED_EXHAUSTION_PERCENT = 70;

/**
 * The seed's environment names for the loop's restart point: CONTEXT_EXHAUSTION_THRESHOLD (a
 * percent of the context window, default 70) and CONTEXT_WINDOW_TOKENS (the window, default the
 * model's as shim resolves it). Null when neither is set. A value that is not a number in range
 * is refused before the run starts rather than read as "never restart".
 */
export function readSeedContextSettings(env: Env): WindowRestart | null {
  const rawPercent = env.CONTEXT_EXHAUSTION_THRESHOLD?.trim();
  const rawWindow = env.CONTEXT_WINDOW_TOKENS?.trim();
  if (!rawPercent && !rawWindow) return null;
  const percent = rawPercent ? Number(rawPercent) : SEED_EXHAUSTION_PERCENT;
  if (!Number.isFinite(percent) || percent < 10 || percent > 100) {
    throw usage(
      `CONTEXT_EXHAUSTION_THRESHOLD must be a percent of the context window from 10 to 100, got "${rawPercent}"`,
      'unset it to use --threshold (a percent of the auto-compact threshold, default 70)',
    );
  }
  const windowTokens = rawWindow ? Number(rawWindow) : null;
  if (
    windowTokens !== null &&
    (!Number.isInteger(windowTokens) || windowTokens < 1_000 || windowTokens > 10_000_000)
  ) {
    throw usage(
      `CONTEXT_WINDOW_TOKENS must be a whole number of tokens from 1000 to 10000000, got "${rawWindow}"`,
      "unset it to use the model's window as shim resolves it",
    );
  }
  return { percent, windowTokens };
}

/** The loop's restart point as the monitor takes it. */
export function restartRule(options: LoopOptions): RestartRule {
  return { thresholdPercent: options.thresholdPercent, window: options.contextWindow };
}

function integer(
  value: string | undefined,
  name: string,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw usage(`${name} must be a whole number from ${min} to ${max}, got "${value}"`);
  }
  return n;
}

/** "90s", "30m", "2h", "1500ms", or plain seconds → milliseconds. */
export function parseDuration(value: string, name: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/i.exec(value);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(match?.[2] ?? 's').toLowerCase()];
  const ms = match && unit ? Math.round(Number(match[1]) * unit) : NaN;
  if (!Number.isFinite(ms) || ms <= 0) {
    throw usage(`${name} must be a duration like 90s, 30m or 2h, got "${value}"`);
  }
  return ms;
}

/** The flag naming each agent's executable. */
const BIN_FLAGS: Record<AgentId, 'claudeBin' | 'codexBin' | 'geminiBin'> = {
  claude: 'claudeBin',
  codex: 'codexBin',
  gemini: 'geminiBin',
};
const flagName = (agent: AgentId): string => `--${agent}-bin`;

/** An agent's executable: --<agent>-bin, else its env override (SHIM_CLAUDE_BIN…), else its name on PATH. */
export function resolveAgentBin(
  agent: AgentId,
  headless: HeadlessRun,
  explicit: string | undefined,
  env: Env,
  cwd: string,
): string {
  const wanted = explicit?.trim() || env[headless.binEnv]?.trim() || headless.defaultBin;
  const candidates =
    wanted.includes('/') || isAbsolute(wanted)
      ? [resolve(cwd, wanted)]
      : (env.PATH ?? '')
          .split(delimiter)
          .filter(Boolean)
          .map((dir) => join(dir, wanted));
  for (const candidate of candidates) {
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  throw usage(
    `cannot find the ${agentName(agent)} CLI ("${wanted}")`,
    `${headless.installHint}, or point ${flagName(agent)} / ${headless.binEnv} at it`,
  );
}

function readAgent(value: string | undefined, flag: string): AgentId | null {
  if (value === undefined) return null;
  if (!isAgentId(value)) {
    throw usage(`${flag} must be one of ${AGENT_IDS.join(', ')}, got "${value}"`);
  }
  return value;
}

/**
 * The agent a run starts with; none is assumed. --agent; else the one agent whose executable was
 * named (--<agent>-bin, or its variable such as SHIM_CLAUDE_BIN), the fallback's aside; else the
 * agent of this directory's newest session, as \`shim status\` finds it. Nothing of these: refused.
 */
async function chooseAgent(
  raw: RawLoopOptions,
  fallbackAgent: AgentId | null,
  env: Env,
  cwd: string,
  agents: Agents,
): Promise<AgentId> {
  const given = readAgent(raw.agent, '--agent');
  if (given) return given;
  const named: AgentId[] = [];
  for (const id of agents.ids) {
    if (id === fallbackAgent) continue;
    const headless = (await agents.adapter(id)).headless;
    if (raw[BIN_FLAGS[id]]?.trim() || env[headless.binEnv]?.trim()) named.push(id);
  }
  if (named.length === 1) return named[0]!;
  const newest = await newestSession(cwd, env, agents);
  if (newest && newest.agent.id !== fallbackAgent) return newest.agent.id;
  throw usage(
    named.length > 1
      ? `shim loop needs --agent: executables are named for ${named.map(agentName).join(' and ')}, and no session of ${cwd} says which one works here`
      : `shim loop needs --agent: no session of ${cwd} says which agent works here, and no agent's executable is named`,
    `shim loop --agent ${agents.ids.join('|')} --goal "…"`,
  );
}

/** The user's flags for an agent, refused when they are ones the loop sets itself. */
function checkAgentArgs(agent: AgentId, headless: HeadlessRun, args: string[], flag: string): void {
  const reserved = args.find((arg) => headless.reservedFlags.includes(arg.split('=')[0]!));
  if (reserved) {
    throw usage(
      `${reserved} is set by shim loop itself and cannot be passed through ${flag}`,
      `shim loop runs each ${agentName(agent)} iteration as: ${headless.defaultBin} ${headless.args({ prompt: '<prompt>', resumeSessionId: '<session>', model: null }).join(' ')} <your flags>`,
    );
  }
}

export async function parseLoopOptions(
  raw: RawLoopOptions,
  agentArgs: string[],
  env: Env,
  cwd: string,
  agents: Agents,
): Promise<LoopOptions> {
  if (raw.goal !== undefined && raw.promptFile !== undefined) {
    throw usage('give either --goal or --prompt-file, not both');
  }
  let goal: string;
  let goalSource = '--goal';
  if (raw.promptFile !== undefined) {
    const path = resolve(cwd, raw.promptFile);
    try {
      goal = readFileSync(path, 'utf8');
    } catch (error) {
      throw usage(`cannot read the prompt file ${path}: ${(error as Error).message}`);
    }
    goalSource = path;
  } else {
    goal = raw.goal ?? '';
  }
  goal = goal.trim();
  if (!goal) {
    throw usage(
      'the loop needs a goal',
      'shim loop --goal "make the tests in test/ pass"   or   shim loop --prompt-file PROMPT.md',
    );
  }
  if (goal.length > 100_000) {
    throw usage(`the goal is ${goal.length} characters; at most 100,000 fit on a command line`);
  }
  const maxRestarts = integer(raw.maxRestarts, '--max-restarts', 0, MAX_RESTARTS_CAP);
  const threshold = raw.threshold === undefined ? undefined : Number(raw.threshold);
  if (
    threshold !== undefined &&
    (!Number.isFinite(threshold) || threshold < 10 || threshold > 100)
  ) {
    throw usage(
      `--threshold must be a percent of the auto-compact threshold from 10 to 100, got "${raw.threshold}"`,
    );
  }
  const budget = raw.budgetUsd === undefined ? null : Number(raw.budgetUsd);
  if (budget !== null && (!Number.isFinite(budget) || budget <= 0)) {
    throw usage(`--budget-usd must be a positive amount in dollars, got "${raw.budgetUsd}"`);
  }
  const fallbackAgent = readAgent(raw.fallbackAgent, '--fallback-agent');
  const agent = await chooseAgent(raw, fallbackAgent, env, cwd, agents);
  if (fallbackAgent === agent) {
    throw usage(
      `--fallback-agent ${fallbackAgent} is the agent the run starts with`,
      'name another agent: shim loop --agent claude --fallback-agent codex',
    );
  }
  const fallbackArgs = raw.fallbackArg ?? [];
  if (fallbackArgs.length > 0 && !fallbackAgent) {
    throw usage('--fallback-arg needs --fallback-agent');
  }
  const bins: Partial<Record<AgentId, string>> = {};
  for (const [id, args, flag] of [
    [agent, agentArgs, 'the arguments after --'],
    ...(fallbackAgent ? [[fallbackAgent, fallbackArgs, '--fallback-arg'] as const] : []),
  ] as const) {
    const headless = (await agents.adapter(id)).headless;
    checkAgentArgs(id, headless, [...args], flag);
    bins[id] = resolveAgentBin(id, headless, raw[BIN_FLAGS[id]], env, cwd);
  }
  const stuckIterations = integer(raw.stuckIterations, '--stuck-iterations', 1, 100);
  const marker = raw.completionMarker?.trim() ?? DEFAULT_COMPLETION_MARKER;
  if (!marker || /\s/.test(marker) || marker.length > 100) {
    throw usage('--completion-marker must be one word without spaces, at most 100 characters');
  }
  return {
    goal,
    goalSource,
    maxIterations:
      integer(raw.maxIterations, '--max-iterations', 1, 10_000) ?? LOOP_DEFAULTS.maxIterations,
    maxRestarts: maxRestarts ?? LOOP_DEFAULTS.maxRestarts,
    thresholdPercent: threshold ?? LOOP_DEFAULTS.thresholdPercent,
    // --threshold (shim's own meaning) wins over the seed's environment names.
    contextWindow: threshold === undefined ? readSeedContextSettings(env) : null,
    testCommand: raw.testCmd?.trim() || null,
    testTimeoutMs: raw.testTimeout
      ? parseDuration(raw.testTimeout, '--test-timeout')
      : LOOP_DEFAULTS.testTimeoutMs,
    iterationTimeoutMs: raw.iterationTimeout
      ? parseDuration(raw.iterationTimeout, '--iteration-timeout')
      : LOOP_DEFAULTS.iterationTimeoutMs,
    budgetUsd: budget,
    agent,
    fallbackAgent,
    bins,
    agentArgs,
    fallbackArgs: [...fallbackArgs],
    completionMarker: marker,
    stuck: stuckIterations
      ? {
          noChangeIterations: stuckIterations,
          sameErrorCount: stuckIterations,
          identicalOutputs: stuckIterations,
        }
      : DEFAULT_STUCK_POLICY,
    safePointWaitMs: LOOP_DEFAULTS.safePointWaitMs,
    limitMarginMs: LOOP_DEFAULTS.limitMarginMs,
    retryBaseMs: LOOP_DEFAULTS.retryBaseMs,
  };
}

/**
 * The options a run was started with, as stored in its row. Fields an older shim did not store
 * take today's defaults; a run without a goal or an agent to run cannot be resumed.
 */
const storedOptionsSchema = z.object({
  goal: z.string().min(1),
  goalSource: z.string().catch('--goal'),
  maxIterations: z.number().int().min(1).catch(LOOP_DEFAULTS.maxIterations),
  maxRestarts: z.number().int().min(0).max(MAX_RESTARTS_CAP).catch(LOOP_DEFAULTS.maxRestarts),
  thresholdPercent: z.number().min(10).max(100).catch(LOOP_DEFAULTS.thresholdPercent),
  contextWindow: z
    .object({
      percent: z.number().min(10).max(100),
      windowTokens: z.number().int().positive().nullable(),
    })
    .nullable()
    .catch(null),
  testCommand: z.string().nullable().catch(null),
  testTimeoutMs: z.number().positive().catch(LOOP_DEFAULTS.testTimeoutMs),
  iterationTimeoutMs: z.number().positive().catch(LOOP_DEFAULTS.iterationTimeoutMs),
  budgetUsd: z.number().positive().nullable().catch(null),
  agent: z.enum(AGENT_IDS),
  fallbackAgent: z.enum(AGENT_IDS).nullable().catch(null),
  bins: z.partialRecord(z.enum(AGENT_IDS), z.string().min(1)),
  agentArgs: z.array(z.string()).catch([]),
  fallbackArgs: z.array(z.string()).catch([]),
  completionMarker: z.string().min(1).catch(DEFAULT_COMPLETION_MARKER),
  stuck: z
    .object({
      noChangeIterations: z.number().int().min(1),
      sameErrorCount: z.number().int().min(1),
      identicalOutputs: z.number().int().min(1),
    })
    .catch({ ...DEFAULT_STUCK_POLICY }),
  safePointWaitMs: z.number().min(0).catch(LOOP_DEFAULTS.safePointWaitMs),
  limitMarginMs: z.number().min(0).catch(LOOP_DEFAULTS.limitMarginMs),
  retryBaseMs: z.number().min(0).catch(LOOP_DEFAULTS.retryBaseMs),
}) satisfies z.ZodType<LoopOptions>;

export function readStoredLoopOptions(runId: string, stored: unknown): LoopOptions {
  const parsed = storedOptionsSchema.safeParse(withBins(stored));
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => issue.path.join('.')).join(', ');
    throw usage(
      `loop run ${runId} cannot be resumed: its stored options lack ${fields}`,
      'start a new run with shim loop --goal …',
    );
  }
  return parsed.data;
}

/**
 * A run stored before `bins` (shim loop ran Claude Code only) named its one binary `claudeBin`,
 * and no agent: it ran Claude Code. A run that names an agent shim does not know is not resumed.
 */
function withBins(stored: unknown): unknown {
  if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return {};
  const record = stored as Record<string, unknown>;
  if (record.bins !== undefined || typeof record.claudeBin !== 'string') return record;
  return { agent: 'claude', ...record, bins: { claude: record.claudeBin } };
}

/** What `shim loop --resume` may change of a run: the agents' binaries, the iteration cap, the budget. */
export async function parseResumeOverrides(
  raw: Pick<RawLoopOptions, 'claudeBin' | 'codexBin' | 'geminiBin' | 'maxIterations' | 'budgetUsd'>,
  env: Env,
  cwd: string,
  agents: Agents,
): Promise<{
  bins?: Partial<Record<AgentId, string>>;
  maxIterations?: number;
  budgetUsd?: number;
}> {
  const maxIterations = integer(raw.maxIterations, '--max-iterations', 1, 10_000);
  const budget = raw.budgetUsd === undefined ? undefined : Number(raw.budgetUsd);
  if (budget !== undefined && (!Number.isFinite(budget) || budget <= 0)) {
    throw usage(`--budget-usd must be a positive amount in dollars, got "${raw.budgetUsd}"`);
  }
  const bins: Partial<Record<AgentId, string>> = {};
  for (const id of AGENT_IDS) {
    const headless = (await agents.adapter(id)).headless;
    if (raw[BIN_FLAGS[id]] || env[headless.binEnv])
      bins[id] = resolveAgentBin(id, headless, raw[BIN_FLAGS[id]], env, cwd);
  }
  return {
    ...(Object.keys(bins).length > 0 ? { bins } : {}),
    ...(maxIterations !== undefined ? { maxIterations } : {}),
    ...(budget !== undefined ? { budgetUsd: budget } : {}),
  };
}
