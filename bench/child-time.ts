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
