/**
 * Runs the pinned real Gemini CLI (.e2e/gemini-cli, package.json "e2e.geminiCli", installed on
 * demand by scripts/install-e2e-gemini.mjs) offline against test/e2e/mock-gemini.ts, in a scratch
 * HOME and project (test/e2e/claude.ts `createScratch`).
 *
 * Settings as verified offline (docs/agents.md, "Gemini CLI"): API-key auth, model gemini-2.5-pro,
 * usage statistics off; runs are `gemini -p PROMPT --output-format stream-json --yolo --skip-trust`
 * (`--resume latest` for a follow-up) with GEMINI_CLI_NO_RELAUNCH=true. The CLI runs in its own
 * process group; on timeout or kill() the whole group gets SIGKILL.
 * @module
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BIN as SHIM_BIN } from '../helpers/cli.ts';
import type { Scratch } from './claude.ts';
import type { MockGemini } from './mock-gemini.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
export const GEMINI_BIN = join(ROOT, '.e2e', 'gemini-cli', 'node_modules', '.bin', 'gemini');

export const GEMINI_E2E_SKIP: string | false =
  process.env.SHIM_SKIP_E2E === '1' ? 'SHIM_SKIP_E2E=1: real Gemini CLI e2e tests skipped' : false;

/** Installs the pinned CLI when it is missing (once; minutes at most). */
export function ensureGemini(): void {
  if (existsSync(GEMINI_BIN)) return;
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts', 'install-e2e-gemini.mjs')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.status !== 0 || !existsSync(GEMINI_BIN))
    throw new Error(`the pinned Gemini CLI could not be installed into ${GEMINI_BIN}`);
}

/** The user's Gemini settings for an offline run; `extra` is merged in at the top level. */
export function writeGeminiSettings(
  scratch: Scratch,
  extra: Record<string, unknown> = {},
  model: Record<string, unknown> = {},
): string {
  const dir = join(scratch.home, '.gemini');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'settings.json');
  writeFileSync(
    path,
    `${JSON.stringify(
      {
        security: { auth: { selectedType: 'gemini-api-key' } },
        model: { name: 'gemini-2.5-pro', ...model },
        privacy: { usageStatisticsEnabled: false },
        ...extra,
      },
      null,
      2,
    )}\n`,
  );
  return path;
}

export function geminiEnv(scratch: Scratch, mock: MockGemini, shimHome: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'LANG', 'LC_ALL', 'TZ', 'USER', 'LOGNAME'])
    if (process.env[name] !== undefined) env[name] = process.env[name];
  return {
    ...env,
    HOME: scratch.home,
    TMPDIR: scratch.tmp,
    SHIM_HOME: shimHome,
    GOOGLE_GEMINI_BASE_URL: mock.url,
    GEMINI_API_KEY: 'dummy-gemini-key',
    GEMINI_CLI_NO_RELAUNCH: 'true',
  };
}

export type GeminiRun = {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  sessionId: string | null;
};

export type GeminiProcess = { pid: number; result: Promise<GeminiRun>; kill: () => void };

export function spawnGemini(options: {
  scratch: Scratch;
  mock: MockGemini;
  shimHome: string;
  prompt: string;
  resume?: boolean;
  timeoutMs?: number;
  /** More environment for the CLI and its hooks (SHIM_MACHINE, SHIM_TEAM_URL …). */
  env?: Record<string, string>;
}): GeminiProcess {
  const args = [
    '-p',
    options.prompt,
    '--output-format',
    'stream-json',
    '--yolo',
    '--skip-trust',
    ...(options.resume ? ['--resume', 'latest'] : []),
  ];
  const child = spawn(GEMINI_BIN, args, {
    cwd: options.scratch.project,
    env: { ...geminiEnv(options.scratch, options.mock, options.shimHome), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const kill = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Gone already.
    }
  };
  const timer = setTimeout(kill, options.timeoutMs ?? 120_000);
  const result = new Promise<GeminiRun>((resolvePromise) => {
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      kill();
      const init = stdout
        .split('\n')
        .map((l) => {
          try {
            return JSON.parse(l) as { type?: string; session_id?: string };
          } catch {
            return null;
          }
        })
        .find((e) => e?.type === 'init');
      resolvePromise({ exitCode, signal, stdout, stderr, sessionId: init?.session_id ?? null });
    });
  });
  return { pid: child.pid!, result, kill };
}

export function runGemini(options: Parameters<typeof spawnGemini>[0]): Promise<GeminiRun> {
  return spawnGemini(options).result;
}

/** The chat files of the scratch project, newest last by name. */
export function chatFiles(scratch: Scratch): string[] {
  const tmp = join(scratch.home, '.gemini', 'tmp');
  if (!existsSync(tmp)) return [];
  return readdirSync(tmp)
    .flatMap((slug) => {
      const dir = join(tmp, slug, 'chats');
      return existsSync(dir)
        ? readdirSync(dir)
            .filter((f) => f.endsWith('.jsonl'))
            .map((f) => join(dir, f))
        : [];
    })
    .sort();
}

/** Runs this checkout's shim with the scratch HOME and SHIM_HOME. */
export function shim(
  scratch: Scratch,
  shimHome: string,
  args: string[],
  input?: string,
  env: Record<string, string> = {},
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [SHIM_BIN, ...args], {
    cwd: scratch.project,
    env: {
      PATH: process.env.PATH,
      HOME: scratch.home,
      SHIM_HOME: shimHome,
      TMPDIR: scratch.tmp,
      ...env,
    },
    encoding: 'utf8',
    ...(input !== undefined ? { input } : {}),
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Ends the shell command a test's model ran, which wrote `$$` to `pidFile` first. Gemini CLI runs
 * a command as `bash -c '… ( <command> ) …'`, the bash leading a process group of its own: `$$` is
 * that bash, and the command runs in the subshell beside it, so the group is ended, not the pid
 * alone (a `sleep` left running kept a test waiting on the processes under SHIM_HOME for its
 * whole length).
 */
export function endShellCommand(pidFile: string): void {
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {
      // Gone with the CLI, or no group of its own.
    }
  }
}

export function readShimLog(shimHome: string): string {
  const path = join(shimHome, 'logs', 'shim.log');
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}
