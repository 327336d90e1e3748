/**
 * Runs the pinned real Claude Code CLI (.e2e/claude-code/node_modules/.bin/claude, pinned by
 * package.json "e2e.claudeCode" and installed there on demand by scripts/install-e2e-claude.mjs,
 * which `npm test` runs first) offline against test/e2e/mock-api.ts, in a scratch HOME and project.
 *
 *   const scratch = createScratch();       // <tmp>/home, <tmp>/project (a git repo), <tmp>/tmp
 *   const mock = await startMockApi({ steps: [...] });
 *   const hookLog = writeRecordingHooks(scratch, { marker: 'MARKER-1' });   // optional
 *   const run = await runClaude({ scratch, mock, prompt: 'make out.txt' });
 *   run.exitCode, run.events (stream-json), run.transcriptPath, readJsonl(hookLog) …
 *   await mock.close(); scratch.cleanup();
 *
 * The child gets a fresh environment (PATH, locale, TZ and the like from ours, nothing else): HOME is
 * the scratch home, so the developer's ~/.claude is never read; ANTHROPIC_BASE_URL points to the mock
 * with a fake key; IS_SANDBOX=1 allows --dangerously-skip-permissions as root;
 * CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 keeps it off the network; MCP_CONNECTION_NONBLOCKING=0
 * makes the first request wait for the MCP servers; TMPDIR is the scratch tmp. The
 * CLI runs in its own process group. On timeout (default 60 s) or kill() the group and every
 * descendant (the Bash tool runs commands in their own session) get SIGKILL; the group is swept again
 * after exit. `spawnClaude` returns at once (for kill -9 tests: waitForEvent, then kill);
 * `runClaude` waits. Set SHIM_E2E_KEEP=1 to keep scratch dirs for inspection.
 *
 * Tests that use these should be skipped with `{ skip: E2E_SKIP }` (SHIM_SKIP_E2E=1) and fail clearly
 * when the binary is missing: `assertClaudeInstalled()`, or `claudeInstallProblem()` for the message.
 * SHIM_CLAUDE_BIN runs another claude binary instead of the pinned one.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { MockApi } from './mock-api.ts';
import { BIN as SHIM_BIN } from '../helpers/cli.ts';
import { listDescendants, signalQuietly } from '../../src/capture/process-tree.ts';
import { processesUnder, waitForProcessesUnder } from '../helpers/processes.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');

const PINNED_BIN = join(ROOT, '.e2e', 'claude-code', 'node_modules', '.bin', 'claude');

/** The pinned CLI, as npm links it; SHIM_CLAUDE_BIN overrides it (no version check then). */
export const CLAUDE_BIN = process.env.SHIM_CLAUDE_BIN || PINNED_BIN;

/** The version pinned in package.json "e2e": { "claudeCode": … }. */
export const CLAUDE_VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    e2e?: { claudeCode?: string };
  }
).e2e?.claudeCode;

/** `skip` option for e2e tests: a reason string when SHIM_SKIP_E2E=1, else false. */
export const E2E_SKIP: string | false =
  process.env.SHIM_SKIP_E2E === '1' ? 'SHIM_SKIP_E2E=1: real Claude Code e2e tests skipped' : false;

export const FAKE_API_KEY = 'sk-ant-api03-shim-e2e-fake-key-0000000000';

/** Why the pinned native CLI cannot be used (missing, stub, wrong version), or null if it can. */
export function claudeInstallProblem(): string | null {
  const hint =
    'Install it with `npm run test:e2e:install` (`npm test` does it first), ' +
    'or set SHIM_SKIP_E2E=1 to skip the e2e tests.';
  if (!existsSync(CLAUDE_BIN)) return `Claude Code CLI not found at ${CLAUDE_BIN}. ${hint}`;
  const result = spawnSync(CLAUDE_BIN, ['--version'], {
    encoding: 'utf8',
    timeout: 15_000,
    env: baseEnv(),
  });
  const out = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
  if (result.status !== 0 || !/\d+\.\d+\.\d+/.test(out)) {
    return `${CLAUDE_BIN} --version failed (status ${result.status}): ${out}. ${hint}`;
  }
  if (CLAUDE_BIN === PINNED_BIN && CLAUDE_VERSION && !out.startsWith(CLAUDE_VERSION)) {
    return `${CLAUDE_BIN} is "${out}", but package.json pins ${CLAUDE_VERSION}. ${hint}`;
  }
  return null;
}

/** Throws claudeInstallProblem() if there is one. */
export function assertClaudeInstalled(): void {
  const problem = claudeInstallProblem();
  if (problem) throw new Error(problem);
}

export type Scratch = {
  /** The temp dir holding everything below. */
  root: string;
  /** HOME for the CLI (its ~/.claude lives here). */
  home: string;
  /** The CLI's cwd: a fresh git repo. */
  project: string;
  /** TMPDIR for the CLI (its Bash tool leaves cwd files there). */
  tmp: string;
  /** Removes root (kept when SHIM_E2E_KEEP=1, for debugging). */
  cleanup(): void;
};

/** Everything the CLI wrote to its --debug log in this scratch HOME, one file after another. */
export function readDebugLog(scratch: Scratch): string {
  const dir = join(scratch.home, '.claude', 'debug');
  if (!existsSync(dir)) return '';
  return readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
}

/** A scratch HOME and project dir (git-initialised), under a fresh temp dir (realpath'd). */
export function createScratch(prefix = 'shim-e2e-'): Scratch {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const home = join(root, 'home');
  const project = join(root, 'project');
  const tmp = join(root, 'tmp');
  for (const dir of [home, project, tmp]) mkdirSync(dir);
  const git = spawnSync('git', ['init', '-q', '-b', 'main'], {
    cwd: project,
    encoding: 'utf8',
    env: { ...baseEnv(), HOME: home },
  });
  if (git.status !== 0) throw new Error(`git init failed in ${project}: ${git.stderr}`);
  const cleanup = (): void => {
    if (process.env.SHIM_E2E_KEEP === '1') return;
    // A hook's detached `shim checkpoint` or `shim gc --auto` may still be writing into the home
    // (seconds on a loaded 2-core machine): let them finish, then stop stragglers, then remove.
    settleProcessesUnder(root, 30_000);
    rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  };
  return { root, home, project, tmp, cleanup };
}

/**
 * Waits up to `timeoutMs` for processes working under `root` to exit, then SIGKILLs the rest;
 * then stops the services (warm looks) serving a home there.
 */
export function settleProcessesUnder(root: string, timeoutMs: number): void {
  if (!existsSync('/proc/self/environ')) return;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + timeoutMs;
  let pids = processesUnder(root);
  while (pids.length > 0 && Date.now() < deadline) {
    Atomics.wait(pause, 0, 0, 100);
    pids = processesUnder(root);
  }
  for (const pid of pids) signalQuietly(pid, 'SIGKILL');
  if (pids.length > 0) Atomics.wait(pause, 0, 0, 200);
  // Then a warm look still serving the scratch home (a service, left out above) is stopped as a
  // user's shutdown stops it: it leaves its own way, moving its directory aside and removing it,
  // so the tree is removed once it is gone (removing it meanwhile failed with ENOTEMPTY).
  let services = processesUnder(root, true);
  for (const pid of services) signalQuietly(pid, 'SIGTERM');
  const stopBy = Date.now() + 5_000;
  while (services.length > 0 && Date.now() < stopBy) {
    Atomics.wait(pause, 0, 0, 50);
    services = processesUnder(root, true);
  }
  for (const pid of services) signalQuietly(pid, 'SIGKILL');
}

/**
 * Resolves once the background work a session left (hooks' detached checkpoints, the sync
 * worker, gc) has finished under the scratch dir: read its results after this, not after a wait.
 */
export function waitForBackgroundWork(scratch: Scratch): Promise<void> {
  return waitForProcessesUnder(scratch.root);
}

/** Writes `<project>/.claude/settings.json`; returns its path. */
export function writeProjectSettings(scratch: Scratch, settings: Record<string, unknown>): string {
  const dir = join(scratch.project, '.claude');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'settings.json');
  writeFileSync(path, `${JSON.stringify(settings, null, 2)}\n`);
  return path;
}

/** The project's settings run this checkout's shim for every hook event, as `shim install` would. */
export function installShimHooks(scratch: Scratch): void {
  const command = (event: string) =>
    `${shellQuote(process.execPath)} ${shellQuote(SHIM_BIN)} hook ${event}`;
  writeProjectSettings(scratch, {
    hooks: Object.fromEntries(
      ALL_HOOK_EVENTS.map((event) => [
        event,
        [{ matcher: '*', hooks: [{ type: 'command', command: command(event), timeout: 30 }] }],
      ]),
    ),
  });
}

export type HookCommand = { command: string; timeout?: number };

/** A settings `hooks` object running one shell command for each event (matcher `*` everywhere). */
export function hooksFor(
  events: readonly string[],
  hook: HookCommand,
): Record<string, Array<{ matcher: string; hooks: Array<{ type: 'command' } & HookCommand> }>> {
  return Object.fromEntries(
    events.map((event) => [event, [{ matcher: '*', hooks: [{ type: 'command', ...hook }] }]]),
  );
}

export const ALL_HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PreCompact',
  'PostCompact',
  'Stop',
  'SessionEnd',
] as const;

/** Quotes one word for `sh -c`. */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

// Appends its stdin (one JSON line) to argv[1]; for SessionStart with a marker in argv[2], prints
// additionalContext "<marker> source=<source>".
const RECORDER_JS =
  'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{' +
  'const e=JSON.parse(s);require("fs").appendFileSync(process.argv[1],JSON.stringify(e)+"\\n");' +
  'if(process.argv[2]&&e.hook_event_name==="SessionStart")process.stdout.write(JSON.stringify(' +
  '{hookSpecificOutput:{hookEventName:"SessionStart",additionalContext:process.argv[2]+" source="+e.source}}))})';

/**
 * Writes project settings whose hooks (`events`, default ALL_HOOK_EVENTS) append their stdin JSON to
 * a log, one line per call; with `marker`, SessionStart hooks also return the additionalContext
 * `<marker> source=<source>`. Returns the log path (read it with readJsonl).
 */
export function writeRecordingHooks(
  scratch: Scratch,
  options: { events?: readonly string[]; marker?: string; logPath?: string } = {},
): string {
  const logPath = options.logPath ?? join(scratch.root, 'hooks.jsonl');
  const words = [process.execPath, '-e', RECORDER_JS, logPath];
  if (options.marker) words.push(options.marker);
  writeProjectSettings(scratch, {
    hooks: hooksFor(options.events ?? ALL_HOOK_EVENTS, {
      command: words.map(shellQuote).join(' '),
      timeout: 30,
    }),
  });
  return logPath;
}

/** Parses a JSONL file (missing file → []); unparsable lines are skipped. */
export function readJsonl<T = Record<string, unknown>>(path: string): T[] {
  if (!existsSync(path)) return [];
  return parseLines<T>(readFileSync(path, 'utf8'));
}

/** `<home>/.claude/projects/<cwd with non-alphanumerics as "-">`. */
export function projectTranscriptDir(home: string, cwd: string): string {
  return join(home, '.claude', 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'));
}

/** Where Claude Code writes the transcript of `sessionId` run in `cwd` (found on disk if it can). */
export function transcriptPathFor(home: string, cwd: string, sessionId: string): string {
  const expected = join(projectTranscriptDir(home, cwd), `${sessionId}.jsonl`);
  if (existsSync(expected)) return expected;
  const projects = join(home, '.claude', 'projects');
  if (existsSync(projects)) {
    for (const dir of readdirSync(projects)) {
      const candidate = join(projects, dir, `${sessionId}.jsonl`);
      if (existsSync(candidate)) return candidate;
    }
  }
  return expected;
}

/** One line of `--output-format stream-json`. */
export type StreamEvent = {
  type: string;
  subtype?: string;
  session_id?: string;
  [key: string]: unknown;
};

export type ClaudeOptions = {
  scratch: Scratch;
  mock: Pick<MockApi, 'url'>;
  prompt: string;
  /** Extra CLI arguments after the defaults (e.g. ['--continue'], ['--tools', 'Bash,TaskCreate']). */
  args?: string[];
  /** Extra environment, applied last. */
  env?: Record<string, string>;
  /** SIGKILL the process group after this long; default 60 s. */
  timeoutMs?: number;
};

export type ClaudeRun = {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  events: StreamEvent[];
  stdout: string;
  stderr: string;
  durationMs: number;
  /** From the stream's init or result event; '' if neither came. */
  sessionId: string;
  /** '' when sessionId is unknown. */
  transcriptPath: string;
};

export type ClaudeProcess = {
  child: ChildProcess;
  pid: number;
  /** stream-json events parsed so far (grows while the CLI runs). */
  events: StreamEvent[];
  /** From the init event; '' until it has arrived. */
  readonly sessionId: string;
  /** The transcript's path once sessionId is known, else ''. */
  readonly transcriptPath: string;
  /** Resolves with the first event (already seen or future) matching `predicate`; rejects on exit
   *  or after timeoutMs (default 30 s). */
  waitForEvent(
    predicate: (event: StreamEvent) => boolean,
    timeoutMs?: number,
  ): Promise<StreamEvent>;
  /** Signals the CLI's process group and all its descendants, default SIGKILL (a no-op once it
   *  has exited). */
  kill(signal?: NodeJS.Signals): void;
  /** Resolves once the CLI has exited and its output is closed. */
  result: Promise<ClaudeRun>;
};

/** The arguments runClaude passes: `-p <prompt> --output-format stream-json --verbose …`. */
export function claudeArgs(prompt: string, extra: string[] = []): string[] {
  return [
    '-p',
    prompt,
    '--output-format',
    'stream-json',
    '--verbose',
    '--dangerously-skip-permissions',
    ...extra,
  ];
}

/** The environment runClaude gives the CLI (nothing inherited beyond baseEnv()). */
export function claudeEnv(
  scratch: Scratch,
  mock: Pick<MockApi, 'url'>,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    ...baseEnv(),
    HOME: scratch.home,
    TMPDIR: scratch.tmp,
    ANTHROPIC_BASE_URL: mock.url,
    ANTHROPIC_API_KEY: FAKE_API_KEY,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    IS_SANDBOX: '1',
    // The first request waits for the MCP servers to connect (docs/claude-code.md): by default
    // it goes out without a server still starting, as shim's did under load, losing its tools.
    MCP_CONNECTION_NONBLOCKING: '0',
    ...extra,
  };
}

/** Starts the CLI and returns at once. */
export function spawnClaude(options: ClaudeOptions): ClaudeProcess {
  const { scratch } = options;
  const started = Date.now();
  if (!existsSync(CLAUDE_BIN)) throw new Error(claudeInstallProblem() ?? `no ${CLAUDE_BIN}`);
  const child = spawn(CLAUDE_BIN, claudeArgs(options.prompt, options.args), {
    cwd: scratch.project,
    env: claudeEnv(scratch, options.mock, options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  if (child.pid === undefined) {
    child.on('error', () => {}); // reported by the throw below
    throw new Error(`could not spawn ${CLAUDE_BIN}`);
  }
  const pid = child.pid;
  const events: StreamEvent[] = [];
  const waiters = new Set<(event: StreamEvent | null) => void>();
  let stdout = '';
  let stderr = '';
  let pending = '';
  let exited = false;
  let timedOut = false;

  const killGroup = (signal: NodeJS.Signals): void => signalQuietly(-pid, signal);
  // The Bash tool runs commands in their own session, so the group alone would orphan them.
  const killTree = (signal: NodeJS.Signals): void => {
    const tree = listDescendants(pid);
    killGroup(signal);
    for (const child of tree) signalQuietly(child, signal);
  };

  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    stdout += chunk;
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const event of parseLines<StreamEvent>(lines.join('\n'))) {
      events.push(event);
      for (const waiter of waiters) waiter(event);
    }
  });
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk;
  });

  const timer = setTimeout(() => {
    timedOut = true;
    killTree('SIGKILL');
  }, options.timeoutMs ?? 60_000);

  const result = new Promise<ClaudeRun>((resolvePromise, reject) => {
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (exitCode, signal) => {
      clearTimeout(timer);
      exited = true;
      killGroup('SIGKILL'); // stray hook or tool processes left in the group
      for (const event of parseLines<StreamEvent>(pending)) events.push(event);
      for (const waiter of waiters) waiter(null);
      const sessionId = sessionIdOf();
      resolvePromise({
        exitCode,
        signal,
        timedOut,
        events,
        stdout,
        stderr,
        durationMs: Date.now() - started,
        sessionId,
        transcriptPath: sessionId
          ? transcriptPathFor(scratch.home, scratch.project, sessionId)
          : '',
      });
    });
  });

  const sessionIdOf = (): string =>
    events.find((e) => e.type === 'system' && e.subtype === 'init')?.session_id ??
    events.find((e) => typeof e.session_id === 'string')?.session_id ??
    '';

  return {
    child,
    pid,
    events,
    result,
    get sessionId() {
      return sessionIdOf();
    },
    get transcriptPath() {
      const id = sessionIdOf();
      return id ? transcriptPathFor(scratch.home, scratch.project, id) : '';
    },
    kill: (signal = 'SIGKILL') => {
      if (!exited) killTree(signal);
    },
    waitForEvent(predicate, timeoutMs = 30_000) {
      const seen = events.find(predicate);
      if (seen) return Promise.resolve(seen);
      if (exited) return Promise.reject(new Error('claude exited before the awaited event'));
      return new Promise((resolvePromise, reject) => {
        const done = (event: StreamEvent | null): void => {
          if (event !== null && !predicate(event)) return;
          clearTimeout(waitTimer);
          waiters.delete(done);
          if (event) resolvePromise(event);
          else reject(new Error('claude exited before the awaited event'));
        };
        const waitTimer = setTimeout(() => {
          waiters.delete(done);
          reject(new Error(`no matching claude event within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(done);
      });
    },
  };
}

/** Runs the CLI to completion (or timeout). */
export function runClaude(options: ClaudeOptions): Promise<ClaudeRun> {
  return spawnClaude(options).result;
}

/** Polls `check` every intervalMs until it returns a truthy value; rejects after timeoutMs. */
export async function pollUntil<T>(
  check: () => T | undefined | null | false,
  timeoutMs = 10_000,
  intervalMs = 25,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolvePromise) => setTimeout(resolvePromise, intervalMs));
  }
}

/**
 * Kills the CLI once the model has called `marker` (a tool call in its transcript) and shim's
 * hooks have recorded the agent's process (how a later session tells a crash from one running).
 */
export async function killWhenTranscriptHas(
  run: ClaudeProcess,
  marker: string,
  shimHome: string,
): Promise<void> {
  // The model's own call: a restore injected at SessionStart can name the same command, and a
  // kill on that would come before the session's first request.
  const calls = (e: unknown) =>
    (e as { type?: string }).type === 'assistant' &&
    JSON.stringify((e as { message?: { content?: unknown } }).message?.content ?? '').includes(
      marker,
    );
  await pollUntil(
    () =>
      run.transcriptPath &&
      existsSync(run.transcriptPath) &&
      readJsonl(run.transcriptPath).some(calls)
        ? true
        : null,
    30_000,
  );
  const memory = join(shimHome, 'cache', 'hooks', `${run.sessionId}.json`);
  await pollUntil(
    () =>
      existsSync(memory) &&
      (JSON.parse(readFileSync(memory, 'utf8')) as { agentPid?: number | null }).agentPid
        ? true
        : null,
    15_000,
  );
  run.kill('SIGKILL');
  await run.result;
}

/** A short description of a run for assertion messages. */
export function describeRun(run: ClaudeRun): string {
  const result = run.events.find((e) => e.type === 'result');
  return [
    `exit=${run.exitCode} signal=${run.signal} timedOut=${run.timedOut} ${run.durationMs} ms`,
    `result=${JSON.stringify(result ?? null).slice(0, 600)}`,
    `stderr=${run.stderr.slice(0, 1000)}`,
  ].join('\n');
}

/** What the child may inherit from us: enough to find programs and behave, nothing about Claude. */
function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ['PATH', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TMPDIR', 'USER', 'LOGNAME']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  env.SHELL = existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';
  return env;
}

function parseLines<T>(text: string): T[] {
  const out: T[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line) as T);
    } catch {
      // not JSON (a stray log line): kept in stdout only
    }
  }
  return out;
}
