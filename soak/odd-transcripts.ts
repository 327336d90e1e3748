/**
 * FIFOs and directories where a hook's payload names its transcript (test/transcript-not-a-file
 * .test.ts's set-up, run again and again, for Claude Code's, Codex CLI's and Gemini CLI's hooks):
 * opened the usual way, a FIFO with no writer waits for one for good. Every hook of every event
 * must return within the limit (1 s: the agent waits on it), exit 0 with protocol only, and leave no process waiting on a pipe — the warm look, asked
 * about such a path, goes on answering the session's own calls.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CODEX_HOOKS } from '../src/agents/codex/settings/hook-spec.ts';
import { GEMINI_HOOK_EVENTS } from '../src/agents/gemini/hook-payload.ts';
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

/** Each agent's hooks as the agent runs them, with the events shim registers for it. */
const DOORS = [
  { events: EVENTS, args: (e: string) => ['hook', e] },
  {
    events: CODEX_HOOKS.map((h) => h.event),
    args: (e: string) => ['hook', '--agent', 'codex', e],
  },
  { events: Object.keys(GEMINI_HOOK_EVENTS), args: (e: string) => ['gemini-hook', e] },
];

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
      const runHook = async (args: string[], input: string, timed: boolean) => {
        const outcome = await run(process.execPath, [BIN, ...args], {
          env: env(s, { HOME: sandbox.home }),
          cwd: s.dir,
          input,
          timeoutMs: 30_000,
        });
        const event = args.join(' ');
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
        await runHook(
          ['hook', 'PostToolUse'],
          payload(s, 'Read', respond(s, 'Read', 40_000)),
          false,
        );
        const pid = await waitForWarmLook(s.home, () => true, 30_000).catch(() => null);
        if (pid === null) fail('no warm look started');
        const odd = join(s.dir, 'other-session.jsonl');
        // An ordinary file first (the hooks remember its size), then the path replaced.
        writeFileSync(odd, '');
        await runHook(['hook', 'PostToolUse'], payloadFor('PostToolUse', odd, s.dir, 99), false);
        replaceWith(kind, odd);
        report.paths++;
        // Every agent's hook of every event, in a random order.
        const calls = DOORS.flatMap(({ events, args }) =>
          events.map((e) => ({ e, args: args(e) })),
        );
        calls.sort(() => random.next() - 0.5);
        for (const [n, { e, args }] of calls.entries())
          await runHook(args, payloadFor(e, odd, s.dir, round * 100 + n), true);
        // The warm look still answers the session's own calls, from the same process.
        const answered = warmLookStats(s.home)?.answered ?? 0;
        await runHook(
          ['hook', 'PostToolUse'],
          payload(s, 'Read', respond(s, 'Read', 41_000)),
          false,
        );
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
