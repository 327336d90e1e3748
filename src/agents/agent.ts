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
 * | calls as the log says them   | moments.ts                         |
 *
 * Agents differ in what they can do; `AgentCapabilities` says so instead of `if (agent === …)`.
 * Which adapter serves an id is decided in one place, `agents/dispatch.ts` (exhaustive).
 * @module
 */
import type { AgentId } from '../core/agent-id.ts';
import type { AgentEvent } from './headless-event.ts';
import type { SessionState, StartedCall } from '../core/session.ts';
import type { Checkpoint } from '../core/checkpoint/checkpoint.ts';
import type { ChainEntry } from '../core/checkpoint/rescue-point.ts';
import type { CompactSample, CompactThreshold } from '../core/context/threshold.ts';
import type { Env } from '../store/home/home.ts';
import type { LogFormat, ReadOptions, ReadResult, TranscriptCursor } from '../transcript/reader.ts';

export type { AgentId };

/** The session id `shim doctor` probes an agent's hook command with: it must load, touch nothing. */
export const DOCTOR_SESSION = 'doctor';

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
  /**
   * Text PreCompact's output adds to the compaction's own instructions, for this checkpoint;
   * null where the agent (or its version) takes none.
   */
  compactInstructions: (checkpoint: Checkpoint) => string | null;
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
  /**
   * Whether a file's first records look like this agent's log (`replay`, `checkpoint`, `status`).
   * A yes stays a yes given more of the same file's first records: a command asks of the first
   * few before parsing more (app/session/session-log.ts).
   */
  sniff: (firstLines: readonly unknown[]) => boolean;
  /** Whether a file's name is one the agent gives its logs (a rollout, a chat, a session id). */
  namedLike: (path: string) => boolean;
  /** What one line of its log is called ("a Codex CLI rollout line"), for errors. */
  recordName: string;
  /** Where its logs are, as a user would type it, for hints. */
  example: string;
};

/** What the log appended since a byte offset shows, read without a fold (core/policy/quiet-window.ts). */
export type TailLook = {
  /** The newest main-chain response's context; null when the tail holds none. */
  contextTokens: number | null;
  /** Main-chain responses (with usage) in the tail. */
  responses: number;
  /** Main-chain tool calls the tail's responses made. */
  toolCalls: number;
  /** A compaction, a failed tool call, an API or context-limit error, a move to another session. */
  eventful: boolean;
};

/** The session-log reader: incremental (byte cursor) and whole-file for compressed archives. */
export type SessionLogReader = {
  format: LogFormat<unknown>;
  read: (path: string, cursor: TranscriptCursor | null, options?: ReadOptions) => ReadResult;
  readCompressed: (path: string, options?: ReadOptions) => Promise<SessionState>;
  isCompressed: (path: string) => boolean;
  /**
   * The log appended since `offset`, looked at without a fold, for the calls a quiet window may
   * answer without a look; null: unreadable, or an agent whose log cannot be judged so (every
   * call then looks fully).
   */
  tail: (path: string, offset: number) => TailLook | null;
  /** The agent's own summary of the newest compaction, from the end of its log; null: none read. */
  compactSummary: (path: string) => string | null;
  /**
   * The usage limit the session's last turn stopped at (its message), from the end of its log:
   * a run without a terminal reports it nowhere else. Null: none, or the agent's log is not read so.
   */
  usageLimit: (path: string) => string | null;
  /**
   * Folds a call the agent's hook saw start into a state read from its log, unless the log shows
   * it done: for an agent whose log holds a call only once it completes (Gemini CLI), so that a
   * call in flight when it was killed is known (store/cache/calls-started.ts). null: the log
   * holds every call as it starts (its hooks note nothing).
   */
  foldStarted: ((state: SessionState, call: StartedCall) => void) | null;
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
  /** The agent's in-process mod, where it has one (`--mod`, `--no-mod`; unsaid: its own rule). */
  mod?: boolean;
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
  /** What the CLI prints, where the agent says more than the files and notes (its own lines). */
  lines?: string[];
  /** Its `--json` form, where the agent says more than this report. */
  details?: object;
  /** A copy of a file as it was before, kept under SHIM_HOME. */
  backup?: string | null;
};

export type Installer = {
  /**
   * Why the agent looks used on this machine (its CLI on PATH, its settings directory), as a user
   * would check it; null: no sign of it. `shim install` without --agent wires those found.
   */
  found: (env: Env) => string | null;
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
    /** Fork the resumed session at this message (only where `fork` is not null). */
    forkAt?: string | null;
    model: string | null;
    extra?: readonly string[];
  }) => string[];
  /** Flags `args` sets itself: the user passing them would break how the loop follows the agent. */
  reservedFlags: readonly string[];
  /**
   * The CLI gives a resumed session its scheduled prompts back (Claude Code's CronCreate), a new
   * one those written to disk; false: it has none.
   */
  keepsScheduledJobs: boolean;
  /** A parser for one iteration's stdout, line by line (it may keep state across lines). */
  parser: () => (line: string) => AgentEvent[];
  /**
   * The environment a session started by shim gets, from shim's own: without the markers the
   * agent gives its children (a session started from inside one must still be a session of its own).
   */
  env: (parent: Env) => Record<string, string | undefined>;
  /**
   * How a session is forked at an earlier message of its own (Claude Code's `--resume
   * --resume-session-at <uuid> --fork-session`), for `shim rescue` and the loop's rescue over the
   * limit; null where the agent cannot.
   */
  fork: {
    /** The log's main chain: where a fork could start, and the context there. */
    chain: (path: string) => { sessionId: string | null; entries: ChainEntry[] };
    /** The arguments that resume `sessionId` forked at message `at` (the prompt goes last). */
    args: (sessionId: string, at: string) => string[];
  } | null;
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
  /** SessionStart sources where a restore can be injected. */
  restoreSources: readonly string[];
  /** The tools that set the session's task list: a restore names them for rebuilding it. */
  taskTools: readonly string[];
  /** Every tool whose call changes the task list (a new, updated or rewritten list). */
  taskChanges: RegExp;
  /**
   * Tools (by the name its hooks give them) whose call may be a milestone — a shell command (a
   * commit, a test run), a task-list change, a subagent: never answered without a look.
   */
  milestoneTools: RegExp;
  /**
   * Tools that write a file: under `checkpoints.timing: "changes"` one ends a quiet window granted
   * while no file had changed since the last checkpoint (core/policy/quiet-window.ts).
   */
  fileTools: RegExp;
  /**
   * The agent compacts before a request when the newest response's context has reached its
   * threshold, with no hook between the compaction and that request (Gemini CLI): the hook that
   * runs before it (a tool's result, a new prompt) carries the session's state through.
   */
  compactsBeforeNextRequest: boolean;
};

/**
 * One agent as every call about its sessions needs it: what the per-call bundles carry (its
 * `agent.ts`). Handed in by the entry that serves the agent; nothing else chooses one.
 */
export type Agent = {
  id: AgentId;
  /** "Claude Code", "Codex CLI", "Gemini CLI": every sentence about the agent says this. */
  name: string;
  capabilities: AgentCapabilities;
  sessions: SessionLocations;
  log: SessionLogReader;
  hooks: HookProtocol;
  threshold: ThresholdRules;
  instructions: InstructionFiles;
};

/**
 * What an answer without a look needs of an agent (core/policy/quiet-window.ts): its hook protocol,
 * the tools that are milestones, a look at its log's tail. The smallest hook bundle carries only
 * this of the agents it answers for.
 */
export type QuickAgent = Pick<Agent, 'id' | 'name'> & {
  /** Its payload in, shim's answer out: nothing the fuller hook paths need (text limit, …). */
  hooks: Pick<HookProtocol, 'parse' | 'render'>;
  capabilities: Pick<AgentCapabilities, 'milestoneTools' | 'fileTools'>;
  log: Pick<SessionLogReader, 'tail'>;
};

/**
 * The agent's in-process mod (Claude Code's plugin), which reports to shim's MCP server instead
 * of starting hook processes (mcp/tools/mod-event.ts).
 */
export type ModHost = {
  /** For each per-call hook event: true when a hook other than shim's may answer it in `cwd`. */
  otherToolHooks: (cwd: string | null, env: Env) => Readonly<Record<string, boolean>>;
};

/**
 * What the moment a session was interrupted is scored against (app/evaluation/moment-truth.ts):
 * the calls its log holds, noted as the log says them and on purpose apart from the fold (a
 * fold that dropped a command would otherwise be graded against itself).
 */
export type MomentNotes = {
  /** A call's input: its field names are what a restore echoing raw JSON would show quoted. */
  input: (input: Record<string, unknown>) => void;
  /** A call of the main chain, once per id; `command`: its shell command line, null for other tools. */
  call: (id: string, command: string | null) => void;
  /** A call's result, once per id; `failed`: marked as an error (the user stopping it is not). */
  result: (id: string, failed: boolean, text: string) => void;
};

/** Reads one entry of the agent's log (as its reader parsed it) into the notes. */
export type MomentReader = { see: (entry: unknown, notes: MomentNotes) => void };

/** The whole adapter (its `adapter.ts`): the agent and what only commands use. */
export type AgentAdapter = Agent & {
  /** The CLI version the adapter was verified against (docs/agents.md). */
  verifiedVersion: string;
  installer: Installer;
  headless: HeadlessRun;
  doctor: DoctorChecks;
  /** Its mod, where it has one; null: its hooks are the only way in. */
  mod: ModHost | null;
  /** Its log's calls as the truth a restore is scored against (evaluations, the bench). */
  moments: MomentReader;
};

/**
 * Every agent shim serves, by id: the one way to reach an agent that is not the one a call is
 * about (a session that moved between agents, a log given to a command). Built by
 * agents/dispatch.ts and handed in by the entry.
 */
export type Agents = {
  ids: readonly AgentId[];
  agent: (id: AgentId) => Promise<Agent>;
  /** The whole adapter (install, doctor, the loop's headless run): commands only. */
  adapter: (id: AgentId) => Promise<AgentAdapter>;
};
