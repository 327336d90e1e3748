/**
 * The one place CLI errors become output: an expected failure prints one line and the fix
 * (exit 1); anything else is a bug, printed with where the log is (exit 1). Both are logged.
 * @module
 */
import { AppError } from '../core/errors.ts';
import { withoutTyped } from '../core/typed-words.ts';
import { getShimHome } from '../store/home/home.ts';
import { appendLog, getLogPath } from '../store/home/log.ts';
import { asStorageError } from '../store/home/storage-failure.ts';
import type { CommandLine } from './logged-command.ts';
import {
  describeRecovery,
  markRecoveryShown,
  readRecoveryNotice,
} from '../store/home/recovery-notice.ts';

export class ExitError extends Error {
  readonly exitCode: number;
  constructor(exitCode: number) {
    super(`exit ${exitCode}`);
    this.exitCode = exitCode;
  }
}

/** Says once, on stderr, that the store was found corrupt and rebuilt (recover-database.ts). */
function reportStoreRecovery(): void {
  try {
    const home = getShimHome();
    const notice = readRecoveryNotice(home);
    if (!notice || notice.shownOnStderr) return;
    process.stderr.write(`${describeRecovery(notice)}\n`);
    markRecoveryShown(home, 'stderr');
  } catch {
    // a notice is not worth failing a command for
  }
}

/**
 * Runs a command; `readLine` reads its command line for the log (logged-command.ts): the
 * command and its options' names, never what the user typed after them.
 */
export async function runWithErrorBoundary(
  run: () => Promise<void>,
  readLine: (argv: readonly string[]) => CommandLine,
): Promise<void> {
  try {
    await run();
    reportStoreRecovery();
  } catch (thrown) {
    reportStoreRecovery();
    const home = getShimHome();
    // A full disk or a read-only SHIM_HOME is the user's to fix, not a bug (nor a corrupt store).
    const error = thrown instanceof ExitError ? thrown : (asStorageError(thrown, home) ?? thrown);
    if (error instanceof ExitError) {
      process.exitCode = error.exitCode;
      return;
    }
    const { typed, ...line } = readLine(process.argv.slice(2));
    if (error instanceof AppError) {
      appendLog(home, 'warn', withoutTyped(error.message, typed), { code: error.code, ...line });
      process.stderr.write(`shim: ${error.message}\n`);
      if (error.hint) process.stderr.write(`      ${error.hint}\n`);
      process.exitCode = 1;
      return;
    }
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    const logged = appendLog(home, 'error', 'unexpected error', {
      error: withoutTyped(detail, typed),
      ...line,
    });
    process.stderr.write(
      `shim: unexpected error: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.stderr.write(
      logged
        ? `      this is a bug in shim; details are in ${getLogPath(home)}\n`
        : `      this is a bug in shim; the log could not be written either:\n${detail}\n`,
    );
    process.exitCode = 1;
  }
}
