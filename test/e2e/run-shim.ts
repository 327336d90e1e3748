/**
 * `shim <args>` as a child process for e2e tests whose mock servers live in this process (a
 * synchronous spawn would stop them answering): its exit code and output, killed after
 * `timeoutMs`.
 */
import { spawn } from 'node:child_process';
import { BIN } from '../helpers/cli.ts';

export type ShimRun = { code: number | null; stdout: string; stderr: string };

export function runShim(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<ShimRun> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
