/**
 * FIFOs and directories where a hook's payload names its transcript (test/transcript-not-a-file
 * .test.ts's set-up, run again and again): opened the usual way, a FIFO with no writer waits for
 * one for good. Every hook of every event must return within the limit (1 s: the agent waits on
 * it), exit 0 with protocol only, and leave no process waiting on a pipe — the warm look, asked
 * about such a path, goes on answering the session's own calls.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { blockedOnPipe, EVENTS, payloadFor, replaceWith } from '../test/helpers/odd-transcript.ts';
import { waitForProcessesUnder } from '../test/helpers/processes.ts';
import {
  env,
  payload,
  respond,
  session,
  waitForWarmLook,
  warmLookStats,
  type Session,
} from '../test/helpers/warm-look.ts';
import { stdoutProblem } from './burst.ts';
import { percentile, run } from './process.ts';
import type { Random } from './random.ts';
import { BIN, type Sandbox } from './sandbox.ts';
import { endSession } from './warm-session.ts';

export type OddTranscriptReport = {
  paths: number;
  hooks: number;
  /** Hooks that took longer than the limit, and the slowest. */
  overLimit: number;
  p50Ms: number;
  maxMs: number;
  /** Processes found waiting on a pipe after a round (should be none). */
  blocked: number;
  failures: string[];
  seconds: number;
};

export async function runOddTranscripts(
  sandbox: Sandbox,
  random: Random,
  options: { rounds: number; limitMs: number; progress: (line: string) => void },
): Promise<OddTranscriptReport> {
  const started = performance.now();
  const times: number[] = [];
  const report: OddTranscriptReport = {
    paths: 0,
    hooks: 0,
    overLimit: 0,
    p50Ms: 0,
    maxMs: 0,
    blocked: 0,
    failures: [],
    seconds: 0,
  };
  for (let round = 0; round < options.rounds; round++) {
    for (const kind of ['fifo', 'directory'] as const) {
      const fail = (what: string) =>
        report.failures.push(`transcript a ${kind} (round ${round + 1}): ${what}`);
      // A session the warm look serves; then every event's hook names an odd path as its log.
      const s: Session = session({ name: `soak-${kind}` });
      /** One hook; `timed`: it names the odd path, so it must return within the limit. */
      const runHook = async (event: string, input: string, timed: boolean) => {
        const outcome = await run(process.execPath, [BIN, 'hook', event], {
          env: env(s, { HOME: sandbox.home }),
          cwd: s.dir,
          input,
          timeoutMs: 30_000,
        });
        if (outcome.timedOut) fail(`${event} did not return (killed after 30 s)`);
        else if (outcome.status !== 0) fail(`${event} exited ${outcome.status}`);
        if (outcome.stderr.trim())
          fail(`${event} wrote to stderr: ${outcome.stderr.slice(0, 160)}`);
        const problem = stdoutProblem(outcome.stdout);
        if (problem) fail(`${event}: ${problem}`);
        if (!timed) return;
        report.hooks++;
        times.push(outcome.ms);
        if (outcome.ms > options.limitMs) {
          report.overLimit++;
          fail(`${event} took ${outcome.ms.toFixed(0)} ms`);
        }
      };

      try {
        await runHook('PostToolUse', payload(s, 'Read', respond(s, 'Read', 40_000)), false);
        const pid = await waitForWarmLook(s.home, () => true, 30_000).catch(() => null);
        if (pid === null) fail('no warm look started');
        const odd = join(s.dir, 'other-session.jsonl');
        // An ordinary file first (the hooks remember its size), then the path replaced.
        writeFileSync(odd, '');
        await runHook('PostToolUse', payloadFor('PostToolUse', odd, s.dir, 99), false);
        replaceWith(kind, odd);
        report.paths++;
        const events = [...EVENTS].sort(() => random.next() - 0.5);
        for (const [n, event] of events.entries())
          await runHook(event, payloadFor(event, odd, s.dir, round * 10 + n), true);
        // The warm look still answers the session's own calls, from the same process.
        const answered = warmLookStats(s.home)?.answered ?? 0;
        await runHook('PostToolUse', payload(s, 'Read', respond(s, 'Read', 41_000)), false);
        const after = await waitForWarmLook(
          s.home,
          (stats) => (stats?.answered ?? 0) > answered,
          30_000,
        ).catch(() => null);
        if (pid !== null && after !== pid) fail(`the warm look ${pid} stopped answering`);
        await waitForProcessesUnder(s.dir).catch((error: Error) => fail(error.message));
        const blocked = blockedOnPipe(s.dir);
        report.blocked += blocked.length;
        for (const { pid: p, wchan } of blocked) fail(`process ${p} waits on a pipe (${wchan})`);
      } finally {
        await endSession(s, fail);
      }
    }
    options.progress(
      `  round ${round + 1}/${options.rounds}: ${report.hooks} hooks, slowest ${Math.max(0, ...times).toFixed(0)} ms`,
    );
  }
  report.p50Ms = percentile(times, 0.5);
  report.maxMs = Math.max(0, ...times);
  report.seconds = (performance.now() - started) / 1000;
  return report;
}
