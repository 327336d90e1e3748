/**
 * The one contract every agent adapter fulfils (src/agents/<agent>/adapter.ts), so the rest of
 * shim — session state, levels, forecast, risk, checkpoints, resume, store, front doors — stays
 * agent-neutral. Each adapter has the same parts, in files of the same names:
 *
 * | part                         | file in src/agents/<agent>/        |
 * | ---------------------------- | ---------------------------------- |
 * | where sessions live          | sessions.ts                        |
 * | session-log reader (fold)    | transcript-reader.ts (+ fold.ts)   |
 * | hook protocol in / out       | hook-payload.ts / hook-output.ts   |
 * | threshold rules              | threshold.ts                       |
 * | install / uninstall          | settings/ (install.ts, uninstall.ts) |
 * | headless run for the loop    | headless.ts                        |
 * | instruction files            | instructions.ts                    |
 * | `shim doctor` checks         | settings/doctor.ts                 |
 *
 * Agents differ in what they can do; `AgentCapabilities` says so instead of `if (agent === …)`.
 * Which adapter serves an id is decided in one place, `agents/dispatch.ts` (exhaustive).
 * @module
 */
import type { AgentId } from '../core/agent-id.ts';
import type { AgentEvent } from './headless-event.ts';
import type { SessionState } from '../core/session.ts';
import type { CompactSample, CompactThreshold } from '../core/context/threshold.ts';
import type { Env } from '../store/home/home.ts';
import type { LogFormat, ReadOptions, ReadResult, TranscriptCursor } from '../transcript/reader.ts';

export type { AgentId };

/**
 * A hook call as shim's handlers see it, whatever agent sent it. Agents name their events
 * differently; `event` is always shim's name (Claude Code's spelling: SessionStart, PreToolUse,
 * PostToolUse, PreCompact, PostCompact, Stop, SessionEnd, UserPromptSubmit, …).
 */
export type HookPayload = {
  event: string;
  sessionId: string | null;
  transcriptPath: string | null;
  cwd: string | null;
  /** SessionStart: startup | resume | clear | compact. */
  source: string | null;
  reason: string | null;
  trigger: string | null;
  prompt: string | null;
  toolName: string | null;
  toolInput: Record<string, unknown> | null;
  /** PostCompact: the agent's own summary, when it sends one. */
  compactSummary: string | null;
  /** The context the agent counts, when the payload carries it. */
  contextTokens: number | null;
  /** PreModelSwitch / PostModelSwitch. */
  fromModel: string | null;
  toModel: string | null;
  raw: Record<string, unknown>;
};

/** What a handler decided; each adapter renders it in its agent's protocol (or drops a part). */
export type HookOutput = {
  /** Added to the model's context. */
  context?: string | null;
  /** Shown to the user. */
  userMessage?: string | null;
  /** A policy decided to block (only events that can: here, PreCompact). */
  block?: string | null;
  /** PreCompact: text the agent adds to its compaction instructions (where it takes any). */
  compactInstructions?: string | null;
};

/** The hook protocol of one agent: its payload in, shim's decision out. */
export type HookProtocol = {
  /** The agent's event names shim registers for, mapped to shim's event names. */
  events: Readonly<Record<string, string>>;
  parse: (text: string, event: string) => { payload: HookPayload; error: string | null };
  /** stdout for the decision ('' for nothing); hooks always exit 0. */
  render: (event: string, output: HookOutput) => string;
  /** The longest text the agent takes from one hook without cutting it. */
  textLimit: number;
};

export type SessionFile = { path: string; sessionId: string; mtimeMs: number };

/** Where the agent keeps its session logs, and how to find one. */
export type SessionLocations = {
  /** The directory every session log of the agent lives under (for this environment). */
  root: (env: Env) => string;
  /** The newest session log of a project directory, or null. */
  latest: (cwd: string, env: Env) => SessionFile | null;
  /** A session's log by id (any project), or null. */
  byId: (sessionId: string, cwd: string, env: Env) => SessionFile | null;
  /** Every session log of the agent, newest first. */
  all: (env: Env) => SessionFile[];
  /** Whether a file looks like this agent's log (format detection for `replay`, `checkpoint`). */
  sniff: (firstLines: readonly unknown[]) => boolean;
};

/** The session-log reader: incremental (byte cursor) and whole-file for compressed archives. */
export type SessionLogReader = {
  format: LogFormat<unknown>;
  read: (path: string, cursor: TranscriptCursor | null, options?: ReadOptions) => ReadResult;
  readCompressed: (path: string, options?: ReadOptions) => Promise<SessionState>;
  isCompressed: (path: string) => boolean;
};

/** What a session's compaction point is resolved from, besides the session itself. */
export type ThresholdRequest = {
  env: Env;
  /**
   * SHIM_HOME: where what the agent's rule learned or recorded is kept. null: a bare judgment
   * (evaluations, benchmarks): the rule over `env` alone, no file read or written.
   */
  home: string | null;
  now: number;
  /**
   * The user's other sessions' compactions, for a rule that learns from them: as given (a replay,
   * an evaluation), the agent's own record of them (`fresh` rescans the logs when old; `cached`
   * never does: the per-call paths), or none.
   */
  history: readonly CompactSample[] | 'fresh' | 'cached' | 'none';
  /** The call runs inside the agent (its hook, its statusline): the environment is the agent's. */
  inside: 'hook' | 'statusline' | null;
  /** The window the agent reported live (a statusline payload), when known. */
  reportedWindow: number | null;
  /** Where the agent's managed settings live (tests); the platform's place otherwise. */
  managedSettingsPath?: string;
};

/** Whose environment and settings a threshold was resolved from. */
export type ThresholdInputs = {
  /** Read inside the agent; as the agent's hooks recorded them; or this shell's. */
  source: 'inside' | 'recorded' | 'shell';
  recordedAt: number | null;
  /** One line for `shim status` (null: nothing worth saying, the threshold's detail says it all). */
  detail: string | null;
};

/** A session's rule once its inputs are read: pure, so a replay asks it at every response. */
export type ThresholdJudge = {
  inputs: ThresholdInputs;
  threshold: (state: SessionState) => CompactThreshold;
};

/** The agent's auto-compaction rule, as far as its logs, settings and history let shim know it. */
export type ThresholdRules = {
  /**
   * Reads what the rule needs for this session (its settings, what its hooks recorded, the
   * history learned): once per session. Inside the agent, what was read is recorded for the
   * doors outside it.
   */
  prepare: (session: SessionState, request: ThresholdRequest) => ThresholdJudge;
};

/** How hooks and MCP entries start this shim: the Node binary and the bundle it runs. */
export type ShimLocation = { readonly node: string; readonly bin: string };

export type InstallRequest = {
  scope: 'user' | 'project';
  shim: ShimLocation;
  dryRun: boolean;
  home: string;
  env: Env;
  cwd: string;
};

/** What install/uninstall changed, for the CLI to print (`--json` prints it whole). */
export type InstallReport = {
  agent: AgentId;
  changed: boolean;
  dryRun: boolean;
  /** Files written (or that would be), with one line per change. */
  files: { path: string; changes: string[] }[];
  notes: string[];
};

export type Installer = {
  install: (request: InstallRequest) => InstallReport;
  uninstall: (request: Omit<InstallRequest, 'dryRun'>) => InstallReport;
};

/** How `shim loop` runs the agent without a terminal. */
export type HeadlessRun = {
  /** The executable: an explicit path, an env override, else the agent's name on PATH. */
  defaultBin: string;
  binEnv: string;
  /** The npm package that installs the CLI: its package.json says the version without a start. */
  npmPackage: string;
  /** How a user gets the CLI, for the error when it is not found. */
  installHint: string;
  /** argv for one iteration: a fresh session with `prompt`, or a resumed one; `extra` is the user's. */
  args: (request: {
    prompt: string;
    resumeSessionId: string | null;
    /** Fork the resumed session at this message (only where `capabilities.forkAtMessage`). */
    forkAt?: string | null;
    model: string | null;
    extra?: readonly string[];
  }) => string[];
  /** Flags `args` sets itself: the user passing them would break how the loop follows the agent. */
  reservedFlags: readonly string[];
  /** A parser for one iteration's stdout, line by line (it may keep state across lines). */
  parser: () => (line: string) => AgentEvent[];
};

/** One line of `shim doctor` (app/doctor/doctor-check.ts shows them all the same way). */
export type AgentCheck = {
  id: string;
  title: string;
  status: 'ok' | 'warn' | 'fail';
  /** Essential checks decide whether shim is healthy; the others are information. */
  essential: boolean;
  detail: string;
  fix: string | null;
};

export type DoctorRequest = {
  home: string;
  env: Env;
  cwd: string;
  shim: ShimLocation;
  now: Date;
  /** How long a probe of the hook command may take (tests shorten it). */
  probeTimeoutMs?: number;
};

/**
 * What `shim doctor` checks of the agent's wiring: shim's hooks and MCP server in its files, and
 * anything that would leave them silently inactive. Nothing when shim was never installed into
 * the agent (no line about an agent the user does not run).
 */
export type DoctorChecks = { checks: (request: DoctorRequest) => Promise<AgentCheck[]> };

/** Files the agent reads as standing instructions (CLAUDE.md, AGENTS.md, GEMINI.md). */
export type InstructionFiles = { names: readonly string[] };

export type AgentCapabilities = {
  /** The agent draws a status line through a command shim can install. */
  statusline: boolean;
  /** PreCompact's plain stdout reaches the compaction's summary. */
  compactInstructions: boolean;
  /** Its hooks run only once the user (or the installer) trusted them. */
  hookTrust: boolean;
  /** The agent loads shim's in-process mod. */
  mod: boolean;
  /** The model's usage reaches a hook live (no log read needed). */
  liveUsageInHooks: boolean;
  /** SessionStart sources where a restore can be injected. */
  restoreSources: readonly string[];
  /** The tools that set the session's task list: a restore names them for rebuilding it. */
  taskTools: readonly string[];
  /**
   * A session can be forked at an earlier message of its own (Claude Code's `--resume
   * --resume-session-at <uuid> --fork-session`): `shim rescue`, and the loop's rescue over the limit.
   */
  forkAtMessage: boolean;
};

export type AgentAdapter = {
  id: AgentId;
  /** "Claude Code", "Codex CLI", "Gemini CLI". */
  name: string;
  /** The CLI version the adapter was verified against (docs/agents.md). */
  verifiedVersion: string;
  capabilities: AgentCapabilities;
  sessions: SessionLocations;
  log: SessionLogReader;
  hooks: HookProtocol;
  threshold: ThresholdRules;
  installer: Installer;
  headless: HeadlessRun;
  instructions: InstructionFiles;
  doctor: DoctorChecks;
};
