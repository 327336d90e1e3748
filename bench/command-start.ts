/**
 * A shell command's start (`shim hook PreToolUse`, Bash, not a risky command) as Claude Code pays
 * it, against `node -e ''` in the same run, interleaved: without a team store (the call notes
 * nothing for Claude Code), with one while the session's command watch runs (the call notes the
 * command's key and asks the watch's lock), and with one as a session's first command (the call
 * also starts the watch, a detached process). The notes are taken out after each call, as a
 * command that ends within the watch's second would have them: no checkpoint runs meanwhile.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { signalQuietly } from '../src/capture/process-tree.ts';
import { makeTempDir } from '../test/helpers/fixtures.ts';
import { processesUnder } from '../test/helpers/processes.ts';

type Report = (name: string, value: string, note?: string) => void;

const BIN = join(import.meta.dirname, '..', 'bin', 'shim.cjs');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

function time(args: string[], input: string, env: NodeJS.ProcessEnv): number {
  const start = performance.now();
  const r = spawnSync(process.execPath, args, { input, env, stdio: ['pipe', 'pipe', 'pipe'] });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr.toString()}`);
  return ms;
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
  // Warm the code caches and start the watch of the session the "watch running" row uses.
  time(hook, payload('bench-plain'), env);
  time(hook, payload('bench-watched'), teamEnv);
  ended(teamHome, 'bench-watched');

  const runs = 20;
  const baseline: number[] = [];
  const plain: number[] = [];
  const watched: number[] = [];
  const starting: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      baseline.push(time(['-e', ''], '', env));
      const calls = [
        () => plain.push(time(hook, payload('bench-plain'), env)),
        () => {
          watched.push(time(hook, payload('bench-watched'), teamEnv));
          ended(teamHome, 'bench-watched');
        },
        () => {
          const session = `bench-first-${i}`;
          starting.push(time(hook, payload(session), teamEnv));
          ended(teamHome, session);
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
  const base = median(baseline);
  const row = (name: string, times: number[], note = '') =>
    report(name, fmt(median(times)), `${(median(times) / base).toFixed(2)}× node${note}`);
  report("node -e '' (same run)", fmt(base), 'baseline');
  row('shim hook PreToolUse (a command, no team store)', plain);
  row('  team store connected, the session watched', watched, ' (notes the command)');
  row(
    "  team store connected, a session's first command",
    starting,
    ' (also starts the command watch)',
  );
  results.commandStart = {
    nodeMs: base,
    preToolUseMs: median(plain),
    preToolUseTeamMs: median(watched),
    preToolUseTeamFirstMs: median(starting),
  };
}
