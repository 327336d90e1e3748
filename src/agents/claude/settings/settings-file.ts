/**
 * Claude Code's settings files on disk: where they are, reading them as bytes, and replacing
 * them safely — atomically (temp file + rename), through a symlink to its target (dotfile
 * managers link ~/.claude/settings.json), keeping the file's mode, and only if nobody changed
 * the file since it was read.
 * @module
 */
import {
  chmodSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { AppError } from '../../../core/errors.ts';
import type { Env } from '../../../store/home/home.ts';
import { getClaudeConfigDir } from '../sessions.ts';

export type SettingsScope = 'user' | 'project';

/** `--user`: ~/.claude/settings.json (or CLAUDE_CONFIG_DIR); `--project`: <cwd>/.claude/settings.json. */
export function getSettingsPath(scope: SettingsScope, context: { env: Env; cwd: string }): string {
  return scope === 'user'
    ? join(getClaudeConfigDir(context.env), 'settings.json')
    : join(resolve(context.cwd), '.claude', 'settings.json');
}

/** The personal, uncommitted project settings (read by doctor; shim never writes there). */
export function getLocalSettingsPath(cwd: string): string {
  return join(resolve(cwd), '.claude', 'settings.local.json');
}

/** The file's bytes, or null when there is no file. */
export function readSettingsBytes(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    throw new AppError(
      'CONFIG_INVALID',
      `cannot read ${path}: ${(error as Error).message}`,
      code === 'EISDIR' ? 'it is a directory, not a file' : 'check its permissions',
      { cause: error },
    );
  }
}

function targetOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function assertUnchanged(path: string, expected: Buffer | null): void {
  const now = readSettingsBytes(path);
  const same = now === null || expected === null ? now === expected : now.equals(expected);
  if (!same) {
    throw new AppError(
      'CONFIG_INVALID',
      `${path} changed while shim was working on it; nothing was written`,
      'run the command again',
    );
  }
}

/**
 * Replaces the file with `content` if it still holds `expected` (null: still absent). Returns the
 * topmost directory it had to create, if any.
 */
export function writeSettingsFile(
  path: string,
  content: string | Buffer,
  expected: Buffer | null,
): { createdDir: string | null } {
  const target = targetOf(path);
  const dir = dirname(target);
  const createdDir = mkdirSync(dir, { recursive: true }) ?? null;
  assertUnchanged(target, expected);
  let mode = 0o600;
  try {
    mode = statSync(target).mode & 0o7777;
  } catch {
    // a new file: owner-only
  }
  const temp = join(dir, `.${basename(target)}.shim-${process.pid}-${Date.now()}.tmp`);
  try {
    const fd = openSync(temp, 'wx', mode);
    try {
      writeSync(fd, typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    chmodSync(temp, mode);
    renameSync(temp, target);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // never created
    }
    throw new AppError(
      'CONFIG_INVALID',
      `cannot write ${path}: ${(error as Error).message}`,
      'check the permissions of the file and its directory',
      { cause: error },
    );
  }
  return { createdDir };
}

/** Deletes the file (if it still holds `expected`), and `createdDir` when that is now empty. */
export function removeSettingsFile(
  path: string,
  expected: Buffer,
  createdDir: string | null,
): void {
  const target = targetOf(path);
  assertUnchanged(target, expected);
  unlinkSync(target);
  if (createdDir === null) return;
  // Remove the directories shim created, innermost first, as long as they are empty.
  const inside = (dir: string) => dir === createdDir || dir.startsWith(`${createdDir}${sep}`);
  for (let dir = dirname(target); inside(dir); dir = dirname(dir)) {
    try {
      rmdirSync(dir);
    } catch {
      return;
    }
    if (dir === createdDir) return;
  }
}
