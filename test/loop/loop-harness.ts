/**
 * A scratch world for loop supervisor tests: a git project, SHIM_HOME, a Claude config dir for
 * transcripts, and test/loop/fake-claude.mjs scripted by a scenario file.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openDatabase, type Database } from '../../src/store/sqlite/database.ts';
import { LOOP_DEFAULTS, type LoopOptions } from '../../src/loop/options.ts';
import { DEFAULT_STUCK_POLICY } from '../../src/core/loop/stuck.ts';
import { DEFAULT_COMPLETION_MARKER } from '../../src/core/loop/loop-prompt.ts';

export const FAKE_CLAUDE = resolve(import.meta.dirname, 'fake-claude.mjs');

export type FakeAction = Record<string, unknown>;
export type FakeRun = {
  actions: FakeAction[];
  sessionId?: string;
  model?: string;
  exitCode?: number;
};

export type LoopWorld = {
  root: string;
  project: string;
  home: string;
  claudeDir: string;
  scenarioPath: string;
  logPath: string;
  env: Record<string, string>;
  /** Writes the fake agent's script. */
  script(runs: FakeRun[], fallback?: FakeRun): void;
  /** The fake agent's invocations so far. */
  invocations(): Array<{
    invocation: number;
    argv: string[];
    prompt: string;
    resume: string | null;
    sessionId: string;
    pid: number;
    /** SHIM_LOOP_RUN_ID / SHIM_LOOP_ITERATION as the agent saw them; absent outside a loop. */
    loop?: { runId: string; iteration: string | null };
  }>;
  options(overrides?: Partial<LoopOptions>): LoopOptions;
  openDb(): Database;
  cleanup(): void;
};

export function createLoopWorld(): LoopWorld {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'shim-loop-')));
  const project = join(root, 'project');
  const home = join(root, 'shim-home');
  const claudeDir = join(root, 'claude');
  for (const dir of [project, home, claudeDir]) mkdirSync(dir, { recursive: true });
  const git = (...args: string[]) =>
    spawnSync('git', args, {
      cwd: project,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@t',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@t',
      },
    });
  git('init', '-q', '-b', 'main');
  writeFileSync(join(project, 'README.md'), '# project\n');
  git('add', '.');
  git('commit', '-q', '-m', 'init');
  const scenarioPath = join(root, 'scenario.json');
  const logPath = join(root, 'fake.jsonl');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: root,
    SHIM_HOME: home,
    CLAUDE_CONFIG_DIR: claudeDir,
    FAKE_CLAUDE_SCENARIO: scenarioPath,
    FAKE_CLAUDE_LOG: logPath,
    NO_COLOR: '1',
    TZ: 'UTC',
    // 200k window: auto-compact at 167k, the default 70% restart at ~117k tokens.
    CLAUDE_CODE_DISABLE_1M_CONTEXT: '1',
  };
  return {
    root,
    project,
    home,
    claudeDir,
    scenarioPath,
    logPath,
    env,
    script(runs, fallback) {
      writeFileSync(
        scenarioPath,
        JSON.stringify({ runs, ...(fallback ? { default: fallback } : {}) }),
      );
      rmSync(`${scenarioPath}.state`, { force: true });
      rmSync(logPath, { force: true });
    },
    invocations() {
      try {
        return readFileSync(logPath, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as ReturnType<LoopWorld['invocations']>[number]);
      } catch {
        return [];
      }
    },
    options(overrides = {}) {
      return {
        goal: 'Create done.txt containing "ok".',
        goalSource: '--goal',
        maxIterations: 10,
        maxRestarts: 3,
        thresholdPercent: 70,
        contextWindow: null,
        testCommand: null,
        testTimeoutMs: 30_000,
        iterationTimeoutMs: 30_000,
        budgetUsd: null,
        agent: 'claude',
        fallbackAgent: null,
        bins: { claude: FAKE_CLAUDE },
        agentArgs: [],
        fallbackArgs: [],
        completionMarker: DEFAULT_COMPLETION_MARKER,
        stuck: DEFAULT_STUCK_POLICY,
        safePointWaitMs: 5_000,
        limitMarginMs: 0,
        retryBaseMs: 50,
        ...overrides,
      } satisfies LoopOptions;
    },
    openDb: () => openDatabase(home),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

export const DEFAULTS = LOOP_DEFAULTS;

/** A response action of the fake agent. */
export const respond = (context: number, extra: Record<string, unknown> = {}): FakeAction => ({
  respond: { context, ...extra },
});

export const bash = (context: number, command: string): FakeAction =>
  respond(context, { tool: { name: 'Bash', input: { command }, result: '' } });

export const done = (marker = DEFAULT_COMPLETION_MARKER, context = 20_000): FakeAction =>
  respond(context, { text: `All finished.\n${marker}` });
