/**
 * Many hooks at once, as several Claude Code sessions with parallel tool calls produce: rounds of
 * N hook processes started together on the same SHIM_HOME, over real transcripts that grow
 * between rounds. Every one must exit 0 with nothing but JSON (or nothing) on stdout.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { checkpointCount, integrityOf, BIN, type Sandbox } from './sandbox.ts';
import { crashIn, percentile, run } from './process.ts';
import type { Random } from './random.ts';

export type BurstReport = {
  processes: number;
  rounds: number;
  concurrency: number;
  failures: string[];
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  checkpointsStored: number;
  integrity: string;
  seconds: number;
};

const EVENTS = [
  'PostToolUse',
  'PostToolUse',
  'PostToolUse',
  'PostToolUse',
  'PreToolUse',
  'UserPromptSubmit',
  'PostToolUseFailure',
  'Stop',
] as const;

/** What Claude Code may legitimately read on a hook's stdout: nothing, or one JSON object. */
export function stdoutProblem(stdout: string): string | null {
  if (stdout.trim() === '') return null;
  try {
    const value: unknown = JSON.parse(stdout);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? null
      : `stdout is JSON but not an object: ${stdout.slice(0, 80)}`;
  } catch {
    return `stdout is not JSON: ${stdout.slice(0, 80)}`;
  }
}

function payload(event: string, sessionId: string, transcript: string, cwd: string, n: number) {
  const tool = n % 3 === 0 ? 'Bash' : n % 3 === 1 ? 'Edit' : 'Read';
  return JSON.stringify({
    session_id: sessionId,
    transcript_path: transcript,
    cwd,
    hook_event_name: event,
    tool_name: tool,
    tool_input:
      tool === 'Bash'
        ? { command: n % 7 === 0 ? 'rm -rf build' : 'npm test' }
        : { file_path: `${cwd}/src/file${n}.ts`, old_string: 'a', new_string: 'b' },
    tool_response: { stdout: 'ok', exitCode: 0 },
    ...(event === 'UserPromptSubmit' ? { prompt: `keep going with step ${n}` } : {}),
    ...(event === 'PostToolUseFailure' ? { error: 'Exit code 1' } : {}),
  });
}

export async function runBurst(
  sandbox: Sandbox,
  random: Random,
  options: { concurrency: number; rounds: number; progress: (line: string) => void },
): Promise<BurstReport> {
  const started = performance.now();
  const shimHome = sandbox.newShimHome('burst');
  const env = sandbox.envFor(shimHome);
  const failures: string[] = [];
  const latencies: number[] = [];
  // One response per transcript to append between rounds, so each round has new bytes to fold.
  const growth = sandbox.transcripts.map((path) => {
    const lines = readFileSync(path, 'utf8').split('\n');
    return lines.find((l) => l.includes('"type":"assistant"') && l.includes('"usage"')) ?? '';
  });

  for (let round = 0; round < options.rounds; round++) {
    sandbox.transcripts.forEach((path, i) => appendFileSync(path, `${growth[i]}\n`));
    const outcomes = await Promise.all(
      Array.from({ length: options.concurrency }, (_, n) => {
        const transcript = random.pick(sandbox.transcripts);
        const event = random.pick(EVENTS);
        return run(process.execPath, [BIN, 'hook', event], {
          env,
          cwd: sandbox.project,
          input: payload(event, sandbox.sessionOf.get(transcript)!, transcript, sandbox.project, n),
          timeoutMs: 120_000,
        }).then((outcome) => ({ outcome, event }));
      }),
    );
    for (const { outcome, event } of outcomes) {
      latencies.push(outcome.ms);
      const problem =
        (outcome.timedOut && 'hung for 120 s') ||
        (outcome.status !== 0 && `exited ${outcome.status ?? outcome.signal}`) ||
        stdoutProblem(outcome.stdout) ||
        crashIn(outcome.stderr);
      if (problem) failures.push(`round ${round + 1} ${event}: ${problem}`);
    }
    options.progress(
      `  round ${round + 1}/${options.rounds}: ${options.concurrency} hooks, p50 ${percentile(
        outcomes.map((o) => o.outcome.ms),
        0.5,
      ).toFixed(0)} ms`,
    );
  }
  // Background checkpoints the hooks started finish on their own; give them a moment.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  return {
    processes: options.concurrency * options.rounds,
    rounds: options.rounds,
    concurrency: options.concurrency,
    failures,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    maxMs: Math.max(...latencies),
    checkpointsStored: checkpointCount(shimHome),
    integrity: integrityOf(shimHome),
    seconds: (performance.now() - started) / 1000,
  };
}
