/**
 * The loop's test command: the user's word on whether the goal is met. Runs in its own process
 * group through the shell, bounded in time and output.
 * @module
 */
import { spawn } from 'node:child_process';
import { signalTree } from '../capture/process-tree.ts';

export type TestRun = {
  command: string;
  passed: boolean;
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  /** The last few thousand characters of stdout and stderr together. */
  outputTail: string;
};

const TAIL_CHARS = 4000;

export function runTestCommand(
  command: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<TestRun> {
  const started = Date.now();
  return new Promise((resolve) => {
    let tail = '';
    let timedOut = false;
    const child = spawn('/bin/sh', ['-c', command], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const keep = (chunk: Buffer): void => {
      tail = (tail + chunk.toString('utf8')).slice(-TAIL_CHARS);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid) signalTree(child.pid, 'SIGKILL');
    }, timeoutMs);
    const finish = (exitCode: number | null, error?: Error): void => {
      clearTimeout(timer);
      if (child.pid) signalTree(child.pid, 'SIGKILL'); // background leftovers
      resolve({
        command,
        passed: exitCode === 0 && !timedOut,
        exitCode,
        timedOut,
        durationMs: Date.now() - started,
        outputTail: error ? `could not run the test command: ${error.message}` : tail,
      });
    };
    child.once('error', (error) => finish(null, error));
    child.once('close', (code) => finish(code));
  });
}
