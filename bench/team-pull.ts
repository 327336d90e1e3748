/**
 * The pull at session start as the user meets it (docs/team.md): machine B's first SessionStart
 * in a fresh clone and a fresh SHIM_HOME, the real hook binary, connected to a team store that
 * holds another machine's unfinished work of the project — its wall time (the pull's budget is
 * the default 1.5 s) and whether the work reached that session, beside the same hook with no team
 * store and `node -e ''`, interleaved in one run. Used by bench/team.ts and bench/team-scale.ts.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN } from '../test/helpers/cli.ts';
import { makeTempDir } from '../test/helpers/fixtures.ts';
import { waitForProcessesUnder } from '../test/helpers/processes.ts';
import { makeClone } from '../test/team/team-fixture.ts';

export type PullFigures = {
  runs: number;
  connectedMs: { p50: number; p99: number };
  unconnectedMs: { p50: number; p99: number };
  nodeMs: { p50: number; p99: number };
  /** Sessions the work reached within the budget. */
  restored: number;
};

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN;
const figures = (xs: number[]) => ({ p50: pct(xs, 0.5), p99: pct(xs, 0.99) });

function timed(args: string[], options: { input?: string; cwd?: string; env?: NodeJS.ProcessEnv }) {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { encoding: 'utf8', ...options });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`${args.join(' ')} failed: ${run.stderr.slice(0, 300)}`);
  return { ms, stdout: run.stdout };
}

/**
 * `runs` first sessions on B in clones of `remote`; `expect` is a phrase of the work that must
 * reach the session (its first request).
 */
export async function measurePullAtStart(request: {
  url: string;
  remote: string;
  expect: string;
  runs: number;
}): Promise<PullFigures> {
  const connected: number[] = [];
  const unconnected: number[] = [];
  const node: number[] = [];
  let restored = 0;
  const dirs: string[] = [];
  const env: NodeJS.ProcessEnv = { ...process.env, SHIM_MACHINE: 'bench-desk-b' };
  // The default budget (1.5 s), and no extra certificates to load (RULES: figures without them).
  delete env.SHIM_TEAM_PULL_BUDGET_MS;
  delete env.NODE_EXTRA_CA_CERTS;
  try {
    for (let i = 0; i < request.runs; i++) {
      node.push(timed(['-e', ''], { env }).ms);
      for (const team of [true, false]) {
        const dir = makeTempDir('shim-bench-pull-');
        dirs.push(dir);
        const home = join(dir, 'shim');
        mkdirSync(home, { recursive: true });
        if (team)
          writeFileSync(
            join(home, 'config.json'),
            `${JSON.stringify({ team: { url: request.url } })}\n`,
          );
        const clone = makeClone('work-copy', request.remote);
        const transcript = join(dir, 'session.jsonl');
        writeFileSync(transcript, '');
        const run = timed([BIN, 'hook', 'SessionStart'], {
          input: JSON.stringify({
            session_id: randomUUID(),
            transcript_path: transcript,
            cwd: clone,
            hook_event_name: 'SessionStart',
            source: 'startup',
          }),
          cwd: clone,
          env: { ...env, SHIM_HOME: home, CLAUDE_CONFIG_DIR: join(home, 'no-claude') },
        });
        (team ? connected : unconnected).push(run.ms);
        if (team && run.stdout.includes(request.expect)) restored++;
        // A late pull and the sync worker finish on their own: not into the next run's time.
        await waitForProcessesUnder(home);
      }
    }
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  }
  return {
    runs: request.runs,
    connectedMs: figures(connected),
    unconnectedMs: figures(unconnected),
    nodeMs: figures(node),
    restored,
  };
}
