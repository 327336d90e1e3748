/**
 * The session model: everything shim knows about one agent's session, folded from its log. It is plain JSON (no Maps, no Dates) so a cursor can be cached on disk and
 * resumed by the next short-lived process, and it is bounded: rings keep the recent past only.
 * @module
 */
import type { AgentId } from './agent-id.ts';

/** Bump when the shape changes; cached cursors of another version are discarded. */
export const SESSION_STATE_VERSION = 8;

/** Ring sizes: enough for forecasts and checkpoints, small enough to cache per session. */
export const LIMITS = {
  responses: 64,
  prompts: 20,
  toolCalls: 20,
  pendingTools: 50,
  apiErrors: 10,
  errorPatterns: 10,
  latencies: 20,
  compactions: 50,
  tasks: 100,
  todos: 100,
  promptChars: 2000,
  toolArgChars: 500,
  toolResultChars: 500,
  assistantTexts: 10,
  assistantTextChars: 1000,
  decisions: 50,
  decisionChars: 300,
  files: 200,
  backgroundTasks: 20,
  /** Every request is kept whole up to requestChars (longer: head and tail): up to this many. */
  requestLog: 300,
  /** Distinct shell commands kept, newest last, each up to commandChars. */
  commands: 10,
  commandChars: 1000,
  /** The newest failure's output: its first characters. */
  failureChars: 800,
  checks: 8,
  checkOutputChars: 300,
} as const;

/** One main-chain model response after de-duplication of its streamed lines. */
export type ResponseRecord = {
  /** 1-based count of main-chain responses in the session. */
  turn: number;
  /** 1-based line of the response's first and last transcript line. */
  firstLine: number;
  lastLine: number;
  /** input + cache_creation_input + cache_read_input tokens of the request. */
  contextTokens: number;
  outputTokens: number;
  /** Epoch ms of the response's first line, or null when the line had no timestamp. */
  at: number | null;
  model: string;
  /** ms from the request's trigger (the last user or tool-result entry) to the response. */
  latencyMs: number | null;
};

/** The response currently streaming (its lines share message.id and requestId). */
export type PendingResponse = ResponseRecord & { key: string; toolUseIds: string[] };

export type CompactionRecord = {
  line: number;
  trigger: 'auto' | 'manual';
  preTokens: number | null;
  postTokens: number | null;
  at: number | null;
  cliVersion: string | null;
  model: string | null;
  /** Turn number of the last main-chain response before the boundary. */
  afterTurn: number;
  /** contextTokens of that response (what a monitor saw last). */
  lastContextTokens: number | null;
  /** A prompt or tool result arrived after that response (a threshold compaction has one). */
  inputSince: boolean;
  /** A tool call was still waiting for its result. */
  toolsPending: boolean;
  /** ms from that response to the boundary. */
  gapMs: number | null;
  /** 2.1.330: the summary was prepared in the background. */
  precomputed: boolean;
  /** Claude Code said it compacted while idle. */
  idleMarker: boolean;
};

export type PromptRecord = { line: number; text: string; at: number | null };

/** The kinds of command whose last result a fresh session should know. */
export type CheckKind = 'test' | 'build' | 'lint' | 'typecheck';

/** The last run of a test/build/lint/typecheck command (Bash), with its result. */
export type CheckRecord = {
  kind: CheckKind;
  command: string;
  success: boolean;
  /** The end of its output (where runners print their verdict). */
  output: string;
  at: number | null;
  line: number;
};

export type ToolCallRecord = {
  id: string;
  tool: string;
  args: string;
  target?: string;
  kind?: ToolKind;
  result: string;
  success: boolean;
  latencyMs: number | null;
  at: number | null;
  line: number;
  /** The line of the call itself, where an agent's log writes it apart from its result. */
  callLine?: number;
  /**
   * The call started a shell command in the background: its `success` says the command started,
   * not how it ended (a test run so started is no passing test run).
   */
  background?: true;
};

/**
 * What a tool call does, as far as a restore cares (each agent's fold names its own tools):
 * runs a shell command, writes a file, sets the task list, searches; anything else is `other`.
 */
export type ToolKind = 'shell' | 'file_write' | 'task_list' | 'search' | 'other';

export type PendingToolCall = {
  id: string;
  tool: string;
  args: string;
  /** What it acts on, in a few words: the file, the command, the pattern (tool-input-summary.ts). */
  target?: string;
  kind?: ToolKind;
  at: number | null;
  line: number;
  /** A few input fields some tools need when their result arrives (TaskCreate's subject). */
  meta?: Record<string, string>;
};

/**
 * A call the agent started, as its hook saw it (before it ran): for an agent whose log holds a
 * call only once it completes (Gemini CLI), the one record of a call still running when the
 * agent was killed. `input` is redacted.
 */
export type StartedCall = {
  tool: string;
  input: Record<string, unknown>;
  at: number;
  /** Names the call as its hooks saw it (a hash of its raw input): its end is matched by it. */
  key: string;
};

/** A shell command the agent ran (verbatim, redacted) and how it ended. */
export type CommandRecord = {
  /** The call's id. */
  id: string;
  command: string;
  /** `running` until its result: it may still run, or have died with the session. */
  status: 'running' | 'ok' | 'failed' | 'stopped';
  /** As the agent reported it; null when it did not (Claude Code says only a failure's). */
  exitCode: number | null;
  at: number | null;
  line: number;
};

/** The newest tool result marked as an error (the user stopping a call is not one). */
export type FailureRecord = {
  id: string;
  tool: string;
  /** What it acted on: the command verbatim, else the file or pattern. */
  target: string;
  exitCode: number | null;
  /** The start of its output (where the error is said). */
  output: string;
  /** Its number among the session's finished tool calls (`toolCalls` when it ended). */
  call: number;
  at: number | null;
  line: number;
};

export type TodoItem = { content: string; status: string; activeForm?: string };
export type TaskItem = { id: string; subject: string; status: string; description?: string };

export type TextRecord = { line: number; text: string; at: number | null };

/** A long-running thing the agent started: a background shell or a subagent. */
export type BackgroundTask = {
  /** The id of the tool call that started it. */
  id: string;
  /** The agent's own id for the running job, where its log gives one (Claude Code's task id). */
  handle?: string;
  kind: 'shell' | 'subagent';
  description: string;
  startedAt: number | null;
  line: number;
  done: boolean;
};

export type ApiErrorRecord = {
  at: number | null;
  line: number;
  status: number | null;
  message: string;
};

export type ParseStats = {
  /** Complete lines consumed (including blank and skipped ones). */
  lines: number;
  /** Lines that were not valid JSON (torn writes, garbage). */
  badLines: number;
  firstBadLine: number | null;
  /** Lines that contained NUL bytes (stripped before parsing). */
  nulLines: number;
  /** Lines longer than the reader's limit, skipped unread. */
  oversizedLines: number;
};

export type SessionState = {
  v: typeof SESSION_STATE_VERSION;
  sessionId: string | null;
  cwd: string | null;
  gitBranch: string | null;
  cliVersion: string | null;
  model: string | null;
  slug: string | null;
  startedAt: number | null;
  lastActivityAt: number | null;
  /** Main-chain responses seen (de-duplicated, `<synthetic>` skipped). */
  turns: number;
  current: PendingResponse | null;
  /** Finalized responses since the last compaction, oldest first. */
  responses: ResponseRecord[];
  /** The last finalized response, kept across compactions. */
  lastResponse: ResponseRecord | null;
  /** Characters of main-chain content appended after the latest response (for the estimate). */
  appendedChars: number;
  /** Set after a compaction until the next response: the best known context size. */
  postCompactTokens: number | null;
  lastInputAt: number | null;
  compactions: CompactionRecord[];
  compactionCount: number;
  microcompactions: number;
  microcompactTokensSaved: number;
  lastCompactSummaryLine: number | null;
  userMessages: number;
  promptCount: number;
  /** The newest requests in full (up to LIMITS.promptChars), oldest first. */
  prompts: PromptRecord[];
  /**
   * Every request of the session by its opening words, oldest first, across compactions: the
   * first is never dropped; past LIMITS.requestLog the second-oldest go first.
   */
  requestLog: PromptRecord[];
  /** The session's first request in full: what the work is for. */
  firstPrompt: PromptRecord | null;
  /** Last line of conversation content (not compaction bookkeeping): what a checkpoint must cover. */
  lastContentLine: number;
  /** Text of records up to this line has been redacted (transcript/scrub.ts). */
  scrubbedLine: number;
  toolCalls: number;
  /** toolCalls when the last compaction happened: Claude Code's own checkpoint. */
  toolCallsAtCompaction: number;
  toolFailures: number;
  consecutiveToolFailures: number;
  pendingTools: PendingToolCall[];
  recentTools: ToolCallRecord[];
  /** The last distinct shell commands, newest last (a command run again moves to the end). */
  commands: CommandRecord[];
  lastFailure: FailureRecord | null;
  todos: TodoItem[];
  tasks: TaskItem[];
  /** The last run of each kind of check command, newest last. */
  checks: CheckRecord[];
  apiErrorCount: number;
  apiErrors: ApiErrorRecord[];
  promptTooLongCount: number;
  lastPromptTooLongLine: number | null;
  errorPatterns: string[];
  /** The assistant's own words (text blocks), newest last. */
  assistantTexts: TextRecord[];
  /** Sentences where the assistant stated a choice ("I'll use…", "instead of…"). */
  decisions: string[];
  /** Files the agent read or changed, most recent last (absolute paths as the tools saw them). */
  filesTouched: string[];
  /** Files the agent wrote or edited. */
  filesChanged: string[];
  backgroundTasks: BackgroundTask[];
  latencies: number[];
  sidechainResponses: number;
  /** The conversation moved on in this session (a `continued-in` entry). */
  continuedIn: string | null;
  parse: ParseStats;
  /** The agent whose log this is: the reader that folded it says so, every agent alike. */
  agent: AgentId;
  /** The context window the agent's own log reports (Codex: `model_context_window`). */
  logWindowTokens?: number | null;
  /** Dedupe key of the newest usage line (Codex writes some responses' usage twice). */
  lastUsageKey?: string | null;
  /**
   * The secrets found anywhere in the session so far, as hashes (redact/secret-memory.ts): each
   * is replaced wherever else it stands in the session. No value is kept.
   */
  secretMemory?: string[];
  /** How many of `secretMemory`'s values every text of the state has been searched for. */
  secretMemoryApplied?: number;
  /** How many of `secretMemory`'s values the session's stored rows have been redacted with. */
  secretMemoryStored?: number;
};

export function createSessionState(agent: AgentId): SessionState {
  return {
    v: SESSION_STATE_VERSION,
    agent,
    sessionId: null,
    cwd: null,
    gitBranch: null,
    cliVersion: null,
    model: null,
    slug: null,
    startedAt: null,
    lastActivityAt: null,
    turns: 0,
    current: null,
    responses: [],
    lastResponse: null,
    appendedChars: 0,
    postCompactTokens: null,
    lastInputAt: null,
    compactions: [],
    compactionCount: 0,
    microcompactions: 0,
    microcompactTokensSaved: 0,
    lastCompactSummaryLine: null,
    userMessages: 0,
    promptCount: 0,
    prompts: [],
    requestLog: [],
    firstPrompt: null,
    lastContentLine: 0,
    scrubbedLine: 0,
    toolCalls: 0,
    toolCallsAtCompaction: 0,
    toolFailures: 0,
    consecutiveToolFailures: 0,
    pendingTools: [],
    recentTools: [],
    commands: [],
    lastFailure: null,
    todos: [],
    tasks: [],
    checks: [],
    apiErrorCount: 0,
    apiErrors: [],
    promptTooLongCount: 0,
    lastPromptTooLongLine: null,
    errorPatterns: [],
    assistantTexts: [],
    decisions: [],
    filesTouched: [],
    filesChanged: [],
    backgroundTasks: [],
    latencies: [],
    sidechainResponses: 0,
    continuedIn: null,
    parse: { lines: 0, badLines: 0, firstBadLine: null, nulLines: 0, oversizedLines: 0 },
  };
}

/** Responses since the last compaction including the one still streaming, oldest first. */
export function getLiveResponses(state: SessionState): ResponseRecord[] {
  return state.current ? [...state.responses, state.current] : state.responses;
}

/** The newest main-chain response, streaming or finalized. */
export function getLatestResponse(state: SessionState): ResponseRecord | null {
  return state.current ?? state.lastResponse;
}

/** Moves `item` to the end of a ring of distinct values. */
export function touchBounded(ring: string[], item: string, max: number): void {
  const i = ring.indexOf(item);
  if (i >= 0) ring.splice(i, 1);
  pushBounded(ring, item, max);
}

/** Appends to a ring, dropping the oldest entries beyond `max`. */
export function pushBounded<T>(ring: T[], item: T, max: number): void {
  ring.push(item);
  if (ring.length > max) ring.splice(0, ring.length - max);
}
