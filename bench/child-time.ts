/**
 * Timing a fresh Node process the way an agent runs a hook: its input on stdin, its answer read
 * through a pipe; the median of a run's samples.
 */
import { spawnSync } from 'node:child_process';

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Milliseconds `node <args>` took; a failed run throws with its stderr. */
export function timeNode(args: string[], input: string, env: NodeJS.ProcessEnv): number {
  const start = performance.now();
  const r = spawnSync(process.execPath, args, { input, env, stdio: ['pipe', 'pipe', 'pipe'] });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} failed: ${r.stderr.toString()}`);
  return ms;
}

let perfUsable: boolean | undefined;

/**
 * CPU milliseconds (user + system) `node <args>` used, from `perf stat`'s task-clock; null where
 * perf is not installed or not permitted. Wall time on a shared machine moves with everyone
 * else's load; the CPU a call uses moves far less, so two builds compare on it too.
 */
export function cpuNode(args: string[], input: string, env: NodeJS.ProcessEnv): number | null {
  if (perfUsable === false) return null;
  const r = spawnSync(
    'perf',
    ['stat', '-x', ',', '-e', 'task-clock', '--', process.execPath, ...args],
    { input, env, encoding: 'utf8' },
  );
  const line = r.status === 0 ? r.stderr.split('\n').find((l) => l.includes('task-clock')) : null;
  const ms = line ? Number(line.split(',')[0]) : NaN;
  perfUsable = Number.isFinite(ms);
  return perfUsable ? ms : null;
}
