/**
 * Runs the pinned real Codex CLI (.e2e/codex/node_modules/.bin/codex, pinned by package.json
 * "e2e.codex", installed there by scripts/install-e2e-codex.mjs) offline against
 * test/e2e/openai-mock.ts, in a scratch HOME, CODEX_HOME, SHIM_HOME and project:
 *
 *   const scratch = createCodexScratch(mock, { compactLimit: 20_000 });
 *   const run = await runCodex(scratch, ['make out.txt']);      // or spawnCodex for a kill test
 *
 * The child gets PATH and the scratch dirs only; `codex exec --json` runs without sandbox or
 * approvals, with stdin closed; each run is its own process group, killed whole on timeout.
 * Set SHIM_E2E_KEEP=1 to keep the scratch dirs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { settleProcessesUnder } from './claude.ts';
import type { OpenAiMock } from './openai-mock.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
export const CODEX_BIN =
  process.env.SHIM_CODEX_BIN || join(ROOT, '.e2e', 'codex', 'node_modules', '.bin', 'codex');

export const CODEX_E2E_SKIP: string | false =
  process.env.SHIM_SKIP_E2E === '1'
    ? 'SHIM_SKIP_E2E=1: real Codex CLI e2e tests skipped'
    : existsSync(CODEX_BIN)
      ? false
      : `the pinned Codex CLI is not installed (${CODEX_BIN}): node scripts/install-e2e-codex.mjs`;

export type CodexScratch = {
  root: string;
  home: string;
  codexHome: string;
  shimHome: string;
  project: string;
  env: Record<string, string>;
  cleanup: () => void;
};

export function createCodexScratch(
  mock: OpenAiMock,
  options: {
    compactLimit?: number;
    project?: string;
    /** Another harness's scratch to share (HOME, SHIM_HOME, project): work moving between agents. */
    shared?: { root: string; home: string; shimHome: string; project: string };
  } = {},
): CodexScratch {
  const root = options.shared?.root ?? mkdtempSync(join(tmpdir(), 'shim-codex-e2e-'));
  const home = options.shared?.home ?? join(root, 'home');
  const codexHome = join(home, '.codex');
  const shimHome = options.shared?.shimHome ?? join(root, 'shim');
  const project = options.shared?.project ?? options.project ?? join(root, 'project');
  mkdirSync(codexHome, { recursive: true });
  mkdirSync(project, { recursive: true });
  // Top-level keys first: in TOML a key after a table header belongs to that table.
  writeFileSync(
    join(codexHome, 'config.toml'),
    [
      "# the user's own config, byte for byte after uninstall",
      'model = "gpt-5.5"',
      'model_provider = "mock"',
      ...(options.compactLimit ? [`model_auto_compact_token_limit = ${options.compactLimit}`] : []),
      '',
      '[tools.update_plan]',
      'enabled = true',
      '',
      '[model_providers.mock]',
      'name = "mock"',
      `base_url = "${mock.url}/v1"`,
      'wire_api = "responses"',
      'env_key = "MOCK_API_KEY"',
      '',
    ].join('\n'),
  );
  return {
    root,
    home,
    codexHome,
    shimHome,
    project,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      CODEX_HOME: codexHome,
      SHIM_HOME: shimHome,
      MOCK_API_KEY: 'dummy',
      TZ: 'UTC',
      LANG: 'C.UTF-8',
    },
    cleanup: () => {
      // A shared scratch is its owner's to remove, as Claude Code's scratch is (claude.ts): its
      // background shim jobs and warm look settled first, which still write into SHIM_HOME's
      // cache as it goes (ENOTEMPTY).
      if (process.env.SHIM_E2E_KEEP !== '1' && !options.shared) {
        settleProcessesUnder(root, 30_000);
        rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
      }
    },
  };
}

export type CodexRun = { exitCode: number | null; stdout: string; stderr: string };
export type CodexProcess = { child: ChildProcess; done: Promise<CodexRun>; kill: () => void };

export function spawnCodex(
  scratch: CodexScratch,
  args: string[],
  timeoutMs = 120_000,
): CodexProcess {
  const child = spawn(
    CODEX_BIN,
    [
      'exec',
      '--json',
      '--skip-git-repo-check',
      '--dangerously-bypass-approvals-and-sandbox',
      ...args,
    ],
    { cwd: scratch.project, env: scratch.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const kill = (): void => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  const timer = setTimeout(kill, timeoutMs);
  const done = new Promise<CodexRun>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code, stdout, stderr });
    }),
  );
  return { child, done, kill };
}

export function runCodex(scratch: CodexScratch, args: string[]): Promise<CodexRun> {
  return spawnCodex(scratch, args).done;
}

/** The rollout files of the scratch CODEX_HOME, oldest first. */
export function listRolloutFiles(scratch: CodexScratch): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.startsWith('rollout-')) out.push(path);
    }
  };
  if (existsSync(join(scratch.codexHome, 'sessions'))) walk(join(scratch.codexHome, 'sessions'));
  return out.sort();
}

/** The developer messages of a request body's input (where SessionStart context lands). */
export function developerTexts(body: Record<string, unknown>): string[] {
  const input = Array.isArray(body.input) ? (body.input as Record<string, unknown>[]) : [];
  return input
    .filter((m) => m.type === 'message' && m.role === 'developer')
    .map((m) =>
      (Array.isArray(m.content) ? (m.content as { text?: string }[]) : [])
        .map((c) => c.text ?? '')
        .join(''),
    );
}

export function readBytes(path: string): Buffer | null {
  return existsSync(path) ? readFileSync(path) : null;
}
