/**
 * Running git for shim: argument arrays (never a shell), `git -C <dir>`, `GIT_TERMINAL_PROMPT=0`,
 * `LC_ALL=C`, `GIT_OPTIONAL_LOCKS=0` (so even `git status` never rewrites the user's index), and
 * none of the repository-selecting variables (`GIT_DIR`, `GIT_INDEX_FILE`, …) a parent process
 * may have set. Nothing here talks to the network.
 * @module
 */
import { spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

export const SNAPSHOT_REF_PREFIX = 'refs/shim/snapshots/';
export const TRUNCATION_MARKER = '\n… (truncated)';

export const SNAPSHOT_IDENTITY = { name: 'shim', email: 'shim@localhost' };
/** Generous: the diff is cut to 10 KB afterwards; this only bounds what is read. */
export const DIFF_READ_BYTES = 64 * 1024;
export const STATUS_READ_BYTES = 32 * 1024 * 1024;
export const SMALL_READ_BYTES = 1024 * 1024;
export const TIMEOUT_MS = 60_000;

/** Variables that would make git ignore `-C <dir>` and look at some other repository or index. */
export const REPO_SELECTING_VARS = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_PREFIX',
  'GIT_IMPLICIT_WORK_TREE',
  'GIT_GRAFT_FILE',
  'GIT_REPLACE_REF_BASE',
  'GIT_NO_REPLACE_OBJECTS',
  'GIT_SHALLOW_FILE',
  'GIT_QUARANTINE_PATH',
];

export type GitRun = {
  /** Exit status 0. */
  ok: boolean;
  status: number | null;
  stdout: Buffer;
  stderr: string;
  /** More output than `maxBuffer`: git was stopped and `stdout` is a prefix. */
  overflow: boolean;
  /** The git executable could not be started. */
  missing: boolean;
};

export type GitCall = { env?: Record<string, string>; maxBuffer?: number; config?: string[] };

export function gitEnv(extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of REPO_SELECTING_VARS) delete env[name];
  return {
    ...env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    LC_ALL: 'C',
    LANGUAGE: 'C',
    ...extra,
  };
}

export function runGit(cwd: string, args: string[], call: GitCall = {}): GitRun {
  const config = (call.config ?? []).flatMap((c) => ['-c', c]);
  const result = spawnSync('git', [...config, '-C', cwd, ...args], {
    env: gitEnv(call.env),
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: call.maxBuffer ?? SMALL_READ_BYTES,
    timeout: TIMEOUT_MS,
    windowsHide: true,
  });
  const code = (result.error as NodeJS.ErrnoException | undefined)?.code;
  const stdout = result.stdout ?? Buffer.alloc(0);
  return {
    ok: result.error === undefined && result.status === 0,
    status: result.status,
    stdout,
    stderr: (result.stderr ?? Buffer.alloc(0)).toString('utf8').trim(),
    overflow: code === 'ENOBUFS',
    missing: code === 'ENOENT',
  };
}

/**
 * runGit without waiting: for the git processes of a checkpoint that do not depend on each other
 * (status and diff beside the snapshot), which then run at the same time.
 */
export function runGitAsync(cwd: string, args: string[], call: GitCall = {}): Promise<GitRun> {
  const config = (call.config ?? []).flatMap((c) => ['-c', c]);
  const maxBuffer = call.maxBuffer ?? SMALL_READ_BYTES;
  return new Promise((resolve) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let overflow = false;
    let settled = false;
    const settle = (run: GitRun) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(run);
    };
    const child = spawn('git', [...config, '-C', cwd, ...args], {
      env: gitEnv(call.env),
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      if (overflow) return;
      size += chunk.length;
      if (size <= maxBuffer) {
        out.push(chunk);
        return;
      }
      // As spawnSync does past maxBuffer: keep what fits, stop git.
      overflow = true;
      out.push(chunk.subarray(0, chunk.length - (size - maxBuffer)));
      child.kill();
    });
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) =>
      settle({
        ok: false,
        status: null,
        stdout: Buffer.alloc(0),
        stderr: error.message,
        overflow: false,
        missing: error.code === 'ENOENT',
      }),
    );
    child.on('close', (status) =>
      settle({
        ok: !overflow && status === 0,
        status,
        stdout: Buffer.concat(out),
        stderr: Buffer.concat(err).toString('utf8').trim(),
        overflow,
        missing: false,
      }),
    );
  });
}

/** The first line of stdout, or null when git failed. */
export function gitLine(cwd: string, args: string[], call?: GitCall): string | null {
  const run = runGit(cwd, args, call);
  if (!run.ok) return null;
  return run.stdout.toString('utf8').split('\n', 1)[0] ?? '';
}

export function gitOrThrow(cwd: string, args: string[], call?: GitCall): string {
  const run = runGit(cwd, args, call);
  if (!run.ok) {
    const why = run.missing ? 'git is not installed' : run.stderr || `exit ${run.status}`;
    throw new Error(`git ${args[0] ?? ''} failed: ${why}`);
  }
  return run.stdout.toString('utf8').trim();
}

/** Cuts `text` to at most `maxBytes` UTF-8 bytes on a character boundary, marking the cut. */
export function capUtf8(text: string, maxBytes: number, forceMarker = false): string {
  if (!forceMarker && Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  const room = Math.max(0, maxBytes - Buffer.byteLength(TRUNCATION_MARKER, 'utf8'));
  // Re-encoding a JS string always yields valid UTF-8, so backing up over continuation bytes
  // (10xxxxxx) lands on the first byte of a character.
  const bytes = Buffer.from(text, 'utf8');
  let end = Math.min(room, bytes.length);
  while (end > 0 && end < bytes.length && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8') + TRUNCATION_MARKER;
}

export type RepoInfo = { root: string; gitDir: string; indexPath: string; head: string | null };

export const OBJECT_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * Top level, git dir, index path and HEAD in one process. `--verify -q HEAD^{commit}` comes last,
 * so in a repository without commits git prints the first three and exits 1; outside a
 * repository (or in a bare one) it prints nothing and exits 128.
 */
export function repoInfo(cwd: string): RepoInfo | null {
  return toRepoInfo(cwd, runGit(cwd, REPO_INFO_ARGS));
}

/** {@link repoInfo} without waiting for it. */
export async function repoInfoAsync(cwd: string): Promise<RepoInfo | null> {
  return toRepoInfo(cwd, await runGitAsync(cwd, REPO_INFO_ARGS));
}

const REPO_INFO_ARGS = [
  'rev-parse',
  '--show-toplevel',
  '--absolute-git-dir',
  '--git-path',
  'index',
  '--verify',
  '-q',
  'HEAD^{commit}',
];

function toRepoInfo(cwd: string, run: GitRun): RepoInfo | null {
  if (run.missing || (run.status !== 0 && run.status !== 1)) return null;
  const [root, gitDir, index, head] = run.stdout.toString('utf8').split('\n');
  if (!root || !gitDir || !index) return null;
  return {
    root,
    gitDir,
    // --git-path is relative to the directory git ran in (-C cwd).
    indexPath: resolve(cwd, index),
    head: run.status === 0 && head !== undefined && OBJECT_ID.test(head) ? head : null,
  };
}

export function resolveCommit(root: string, rev: string): string | null {
  if (rev.startsWith('-')) return null;
  return gitLine(root, ['rev-parse', '-q', '--verify', `${rev}^{commit}`]) || null;
}

/** The branch checked out at `cwd` (also on a branch with no commit yet); null when detached or not a repository. */
export function currentBranch(cwd: string): string | null {
  const head = runGit(cwd, ['symbolic-ref', '--short', '-q', 'HEAD']);
  return head.ok ? head.stdout.toString('utf8').trim() || null : null;
}
