/**
 * Opening a session log (a transcript, a rollout, a chat file) without ever waiting on it: the
 * path comes from a hook's payload or a user's flag, and a FIFO opened the usual way blocks until
 * a writer comes — a hook that never returns, a warm process stuck in open() for good. Opened
 * non-blocking and checked on the descriptor itself, a path that is not a regular file (a FIFO,
 * a directory, a socket, a device) is refused with a clear error, whatever it was swapped for.
 * @module
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { AppError } from '../core/errors.ts';

/**
 * A descriptor of the regular file at `path` (the caller closes it); an AppError when it is
 * missing, unreadable or not a regular file.
 */
export function openLogFile(path: string): number {
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO opens at once instead of waiting for a writer (no effect on a file).
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw describeOpenError(path, error);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    if (!stat.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'ENOTREG' });
    return fd;
  } catch (error) {
    closeSync(fd);
    throw describeOpenError(path, error);
  }
}

/** The whole regular file at `path` (a log read at once), refused as {@link openLogFile} does. */
export function readLogFile(path: string): Buffer {
  const fd = openLogFile(path);
  try {
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function describeOpenError(path: string, error: unknown): AppError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') {
    return new AppError(
      'TRANSCRIPT_NOT_FOUND',
      `transcript not found: ${path}`,
      'check the path, or run `shim status` with no argument to use the latest session of this directory',
    );
  }
  if (code === 'EISDIR') {
    return new AppError(
      'TRANSCRIPT_UNREADABLE',
      `${path} is a directory, not a transcript`,
      'pass a .jsonl file, e.g. ~/.claude/projects/<project>/<session>.jsonl',
    );
  }
  if (code === 'ENOTREG') {
    return new AppError(
      'TRANSCRIPT_UNREADABLE',
      `${path} is not a regular file (a pipe, socket or device)`,
      'pass the transcript file itself',
    );
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return new AppError(
      'TRANSCRIPT_UNREADABLE',
      `no permission to read ${path}`,
      'check the file permissions',
    );
  }
  return new AppError(
    'TRANSCRIPT_UNREADABLE',
    `cannot read ${path}: ${(error as Error).message}`,
    'pass the session log file itself, one you can read',
    { cause: error },
  );
}
