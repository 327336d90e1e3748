/**
 * A shell command's start (`shim hook PreToolUse`, Bash, not a risky command) as Claude Code pays
 * it, against `node -e ''` in the same run, interleaved: without a team store (the call notes
 * nothing for Claude Code), with one while the session's command watch runs (the call notes the
 * command's key and asks the watch's lock), and with one as a session's first command (the call
 * also starts the watch, a detached process). The notes are taken out after each call, as a
 * command that ends within the watch's second would have them: no checkpoint runs meanwhile.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { signalQuietly } from '../src/capture/process-tree.ts';
import { makeTempDir } from '../test/helpers/fixtures.ts';
import { processesUnder } from '../test/helpers/processes.ts';
import { cpuNode, median, timeNode } from './child-time.ts';

type Report = (name: string, value: string, note?: string) => void;

const BIN = join(import.meta.dirname, '..', 'bin', 'shim.cjs');
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

/** A row's samples: wall time, and CPU time (perf's task-clock) where perf runs. */
type Samples = { wall: number[]; cpu: number[] };
const samples = (): Samples => ({ wall: [], cpu: [] });

function time(into: Samples, args: string[], input: string, env: NodeJS.ProcessEnv): void {
  into.wall.push(timeNode(args, input, env));
}

export function runCommandStartBench(report: Report, results: Record<string, unknown>): void {
  const root = makeTempDir('shim-bench-command-start-');
  const project = join(root, 'project');
  mkdirSync(project, { recursive: true });
  const transcript = join(root, 'session.jsonl');
  writeFileSync(transcript, '');
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: root, SHIM_HOME: join(root, 'shim') };
  delete env.NODE_EXTRA_CA_CERTS;
  delete env.SHIM_TEAM_URL;
  const teamHome = join(root, 'shim-team');
  mkdirSync(teamHome, { recursive: true });
  // An address nothing listens on: the hook never connects (docs/team.md).
  writeFileSync(
    join(teamHome, 'config.json'),
    `${JSON.stringify({ team: { url: 'postgres://bench@127.0.0.1:9/shim' } })}\n`,
  );
  const teamEnv: NodeJS.ProcessEnv = { ...env, SHIM_HOME: teamHome };
  const payload = (sessionId: string) =>
    JSON.stringify({
      session_id: sessionId,
      transcript_path: transcript,
      cwd: project,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'npm run test -- --grep parser' },
      tool_use_id: 'toolu_bench',
    });
  const ended = (home: string, sessionId: string) =>
    rmSync(join(home, 'cache', 'hooks', `${sessionId}.started.json`), { force: true });
  const hook = [BIN, 'hook', 'PreToolUse'];
  const watcherOf = (sessionId: string) => {
    try {
      return Number(
        readFileSync(join(teamHome, 'cache', 'hooks', `${sessionId}.watch.lock`), 'utf8'),
      );
    } catch {
      return null;
    }
  };
  // Warm the code caches and start the watch of the session the "watch running" row uses.
  timeNode(hook, payload('bench-plain'), env);
  timeNode(hook, payload('bench-watched'), teamEnv);
  ended(teamHome, 'bench-watched');

  const runs = 20;
  const baseline = samples();
  const plain = samples();
  const watched = samples();
  const starting = samples();
  // Each call timed once for wall time and once under perf for CPU, the same way each time.
  const both = (
    into: Samples,
    args: string[],
    input: string,
    e: NodeJS.ProcessEnv,
    after = () => {},
  ) => {
    time(into, args, input, e);
    after();
    const cpu = cpuNode(args, input, e);
    after();
    if (cpu !== null) into.cpu.push(cpu);
  };
  try {
    for (let i = 0; i < runs; i++) {
      both(baseline, ['-e', ''], '', env);
      const calls = [
        () => both(plain, hook, payload('bench-plain'), env),
        () =>
          both(watched, hook, payload('bench-watched'), teamEnv, () =>
            ended(teamHome, 'bench-watched'),
          ),
        () => {
          const session = `bench-first-${i}`;
          both(starting, hook, payload(session), teamEnv, () => {
            ended(teamHome, session);
            // The next sample of this row starts a watch again.
            for (const pid of processesUnder(teamHome))
              if (pid !== watcherOf('bench-watched')) signalQuietly(pid, 'SIGKILL');
          });
        },
      ];
      // A different order each time: no row always goes first or last.
      for (let k = 0; k < calls.length; k++) calls[(i + k) % calls.length]!();
    }
  } finally {
    // The watches would otherwise wait out their idle time.
    for (const pid of processesUnder(teamHome)) signalQuietly(pid, 'SIGKILL');
    rmSync(root, { recursive: true, force: true });
  }
  const base = median(baseline.wall);
  const baseCpu = baseline.cpu.length > 0 ? median(baseline.cpu) : null;
  const cpuNote = (xs: number[]) =>
    baseCpu !== null && xs.length > 0
      ? `; CPU ${fmt(median(xs))} = ${(median(xs) / baseCpu).toFixed(2)}× node's`
      : '';
  const row = (name: string, times: Samples, note = '') =>
    report(
      name,
      fmt(median(times.wall)),
      `${(median(times.wall) / base).toFixed(2)}× node${cpuNote(times.cpu)}${note}`,
    );
  report(
    "node -e '' (same run)",
    fmt(base),
    `baseline${baseCpu !== null ? `; CPU ${fmt(baseCpu)}` : ''}`,
  );
  row('shim hook PreToolUse (a command, no team store)', plain);
  row('  team store connected, the session watched', watched, ' (notes the command)');
  row(
    "  team store connected, a session's first command",
    starting,
    ' (also starts the command watch)',
  );
  results.commandStart = {
    nodeMs: base,
    nodeCpuMs: baseCpu,
    preToolUseMs: median(plain.wall),
    preToolUseTeamMs: median(watched.wall),
    preToolUseTeamFirstMs: median(starting.wall),
    preToolUseCpuMs: plain.cpu.length > 0 ? median(plain.cpu) : null,
    preToolUseTeamCpuMs: watched.cpu.length > 0 ? median(watched.cpu) : null,
    preToolUseTeamFirstCpuMs: starting.cpu.length > 0 ? median(starting.cpu) : null,
  };
}
