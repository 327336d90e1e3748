/**
 * How good `shim estimate` has been (EST-004): each recorded estimate beside what finishing its
 * tasks took, once they are done — found by reading its session's transcript again.
 * @module
 */
import type { Agents } from '../../agents/agent.ts';
import { detectLogAgent } from '../session/session-log.ts';
import { existsSync } from 'node:fs';
import { openCommandStore } from '../open-command-store.ts';
import { readTaskTimeline } from '../tasks/task-points.ts';

export type EstimateAccuracy = {
  estimates: number;
  /** Estimates whose tasks are all done: their actual is known. */
  resolved: number;
  /** Median |log(estimate / actual)|; null before any is resolved. */
  medianError: number | null;
  /** Share of actuals inside the 80% range. */
  coverage: number | null;
  /** Median actual / estimate: above 1, the estimates were low. */
  medianRatio: number | null;
};

const median = (xs: number[]) =>
  xs.length === 0 ? null : [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

export async function measureAccuracy(
  home: string,
  now: number,
  agents: Agents,
): Promise<EstimateAccuracy> {
  const opened = openCommandStore(home);
  try {
    const store = opened.taskEstimates;
    const open = store.all().filter((e) => e.actual === null);
    const byTranscript = new Map<string, typeof open>();
    for (const e of open)
      byTranscript.set(e.transcriptPath, [...(byTranscript.get(e.transcriptPath) ?? []), e]);
    for (const [path, estimates] of byTranscript) {
      if (!existsSync(path)) continue;
      // The estimate was of a log `shim estimate` was given: its agent is told from it again.
      const timeline = await detectLogAgent(path, null, agents)
        .then((agent) => readTaskTimeline(path, agent))
        .catch(() => null);
      if (!timeline) continue;
      for (const e of estimates) {
        const actual = timeline.spentToFinish(e.taskKeys, e.spentBefore);
        if (actual !== null && actual > 0) store.resolve(e.id, actual, new Date(now).toISOString());
      }
    }
    const all = store.all();
    const done = all.filter((e): e is typeof e & { actual: number } => e.actual !== null);
    return {
      estimates: all.length,
      resolved: done.length,
      medianError: median(done.map((e) => Math.abs(Math.log(e.tokens / e.actual)))),
      coverage:
        done.length === 0
          ? null
          : done.filter((e) => e.actual >= e.low && e.actual <= e.high).length / done.length,
      medianRatio: median(done.map((e) => e.actual / e.tokens)),
    };
  } finally {
    opened.close();
  }
}
