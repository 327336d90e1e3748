/**
 * Runs a hook command the way Claude Code does (`sh -c`, JSON on stdin, a time limit) and
 * reports how it went. On timeout the whole process group is killed, not just the shell.
 * @module
 */
import { spawn } from 'node:child_process';

export type ProbeResult = {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  stdout: string;
  stderr: string;
  /** Set when the command could not be started at all. */
  error: string | null;
};

const MAX_OUTPUT = 64 * 1024;

export function probeCommand(
  command: string,
  input: string,
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<ProbeResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    const ownGroup = process.platform !== 'win32';
    const child = spawn(command, {
      shell: true,
      cwd: options.cwd,
      env: options.env,
      detached: ownGroup,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let error: string | null = null;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (stdout.length < MAX_OUTPUT) stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < MAX_OUTPUT) stderr += chunk;
    });
    // The command may exit without reading its input.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (ownGroup && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, options.timeoutMs);
    child.on('error', (e) => {
      error = e.message;
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      resolve({
        exitCode,
        signal,
        timedOut,
        durationMs: Date.now() - started,
        stdout,
        stderr,
        error,
      });
    });
  });
}
