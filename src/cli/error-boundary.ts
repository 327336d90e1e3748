/**
 * The one place CLI errors become output: an expected failure prints one line and the fix
 * (exit 1); anything else is a bug, printed with where the log is (exit 1). Both are logged.
 * @module
 */
import { AppError } from '../core/errors.ts';
import { getShimHome } from '../store/home.ts';
import { appendLog, getLogPath } from '../store/log.ts';

export class ExitError extends Error {
  readonly exitCode: number;
  constructor(exitCode: number) {
    super(`exit ${exitCode}`);
    this.exitCode = exitCode;
  }
}

export async function runWithErrorBoundary(run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    const home = getShimHome();
    if (error instanceof ExitError) {
      process.exitCode = error.exitCode;
      return;
    }
    if (error instanceof AppError) {
      appendLog(home, 'warn', error.message, { code: error.code, argv: process.argv.slice(2) });
      process.stderr.write(`shim: ${error.message}\n`);
      if (error.hint) process.stderr.write(`      ${error.hint}\n`);
      process.exitCode = 1;
      return;
    }
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    appendLog(home, 'error', 'unexpected error', { error: detail, argv: process.argv.slice(2) });
    process.stderr.write(
      `shim: unexpected error: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.stderr.write(`      this is a bug in shim; details are in ${getLogPath(home)}\n`);
    process.exitCode = 1;
  }
}
