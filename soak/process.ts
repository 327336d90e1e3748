/** Child processes for the soak: started as Claude Code starts hooks, killed as a crash would. */
import { spawn } from 'node:child_process';

export type Outcome = {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  timedOut: boolean;
};

export type RunOptions = {
  env: NodeJS.ProcessEnv;
  cwd?: string;
  input?: string | Buffer;
  /** SIGKILL after this many ms from the start (or from the first `ready` line, with killAfterReady). */
  killAfterMs?: number;
  killAfterReady?: boolean;
  timeoutMs?: number;
};

/** Runs a process to its end (or its kill), collecting what it printed. */
export function run(command: string, args: string[], options: RunOptions): Promise<Outcome> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(command, args, {
      env: options.env,
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    let killTimer: NodeJS.Timeout | undefined;
    const kill = () => child.kill('SIGKILL');
    const timeout = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.timeoutMs ?? 30_000);
    if (options.killAfterMs !== undefined && !options.killAfterReady)
      killTimer = setTimeout(kill, options.killAfterMs);
    let sawReady = false;
    child.stdout.on('data', (chunk: Buffer) => {
      out.push(chunk);
      if (options.killAfterReady && !sawReady && Buffer.concat(out).includes('ready\n')) {
        sawReady = true;
        killTimer = setTimeout(kill, options.killAfterMs ?? 0);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    // A process killed before it read its input closes the pipe under us: not an error here.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
    child.on('close', (status, signal) => {
      clearTimeout(timeout);
      clearTimeout(killTimer);
      resolve({
        status,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        ms: performance.now() - started,
        timedOut,
      });
    });
  });
}

/** Runs `work` over `items`, at most `width` at a time, results in order. */
export async function inPool<T, R>(
  items: readonly T[],
  width: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  return results;
}

/** What a crash looks like on stderr: shim's own "bug" message, a stack frame, V8 aborting. */
export function crashIn(stderr: string): string | null {
  const line = stderr
    .split('\n')
    .find(
      (l) =>
        /this is a bug in shim|FATAL ERROR|Segmentation fault|Unhandled|RangeError|TypeError/.test(
          l,
        ) || /^\s+at .+:\d+:\d+\)?$/.test(l),
    );
  return line === undefined ? null : line.trim().slice(0, 200);
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}
