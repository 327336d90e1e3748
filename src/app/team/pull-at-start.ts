/**
 * The team's unfinished work for a session starting now (docs/team.md, "Pull at session start"):
 * `shim team pull` runs as a child — the hook loads no pg — and is waited for up to the budget
 * (1.5 s, the bound claude-mem puts on its own pull at session start). Past it the session starts
 * from this machine's work, the child goes on filling the local copy for the next session, and
 * the user is told once: not again until a pull is on time.
 * @module
 */
import { existsSync, fstatSync, rmSync, writeSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { join } from 'node:path';
import type { Env } from '../../store/home/home.ts';
import { ensureDir } from '../../store/home/home.ts';
import { dropHeldWrite, readJsonFile, writeJsonFileAtomic } from '../../store/home/json-file.ts';
import { appendLog } from '../../store/home/log.ts';
import type { ShimConfig } from '../../store/config/config.ts';
import { isShimBinary } from '../run-in-background.ts';
import { isTeamConfigured } from './team-settings.ts';

export const TEAM_PULL_BUDGET_MS = 1_500;

export type StartPull = {
  outcome: 'pulled' | 'late' | 'failed' | 'skipped';
  ms: number;
  /** One line for the user, the first time a pull is late or fails. */
  tell: string | null;
};

/**
 * The child says "pulled" on this descriptor (a pipe the session start holds) as soon as the work
 * is in the local store: its exit comes later (the connection closed, the code cache written at
 * the first run in a home: 50–90 ms under load) and the session need not wait for it.
 */
const DONE_FD = 3;
const DONE_ENV = 'SHIM_TEAM_PULL_DONE_FD';

/** In the child: tells the session start waiting on it that the work is in (best effort). */
export function tellPulled(env: Env): void {
  if (env[DONE_ENV] !== String(DONE_FD)) return;
  try {
    // Only into the pipe the session start made (Node's pipes are socket pairs): a descriptor
    // given some other way (a file) is not ours to write.
    const fd = fstatSync(DONE_FD);
    if (fd.isSocket() || fd.isFIFO()) writeSync(DONE_FD, 'pulled\n');
  } catch {
    // the session start is gone (late): its exit closed the pipe
  }
}

const markPath = (home: string) => join(home, 'cache', 'team-pull-late.json');

function budgetOf(env: Env): number {
  const set = Number(env.SHIM_TEAM_PULL_BUDGET_MS);
  return Number.isFinite(set) && set > 0 ? set : TEAM_PULL_BUDGET_MS;
}

/** A `shim team pull` under way since `started`; `exit` is null when none could be started. */
export type TeamPullStarted = {
  started: number;
  budget: number;
  home: string;
  exit: Promise<number> | null;
};

/**
 * Starts `shim team pull` for the project at `cwd` now, detached: the caller does its own work
 * meanwhile (a session start opens its store while the child loads and connects) and waits with
 * `waitForTeamPull`. The child is never killed: late, it goes on filling the local copy.
 */
export async function startTeamPull(request: {
  cwd: string;
  env: Env;
  home: string;
}): Promise<TeamPullStarted> {
  const budget = budgetOf(request.env);
  const bin = process.argv[1];
  if (!isShimBinary() || !bin)
    return { started: Date.now(), budget, home: request.home, exit: null };
  const { spawn } = await import('node:child_process');
  const started = Date.now();
  const child = spawn(process.execPath, [bin, 'team', 'pull', '--quiet'], {
    cwd: existsSync(request.cwd) ? request.cwd : process.cwd(),
    env: { ...request.env, SHIM_HOME: request.home, [DONE_ENV]: String(DONE_FD) },
    detached: true,
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  // Whoever waits holds the process open with its timer; the child and its pipe alone never do.
  child.unref();
  const done = child.stdio[DONE_FD] as (Readable & { unref?: () => void }) | null;
  done?.unref?.();
  const exit = new Promise<number>((resolve) => {
    child.on('error', (error) => {
      appendLog(request.home, 'error', 'shim team pull did not start', { error: String(error) });
      resolve(-1);
    });
    done?.on('error', () => {});
    done?.once('data', () => resolve(0));
    child.on('exit', (code) => resolve(code ?? -1));
  });
  return { started, budget, home: request.home, exit };
}

/**
 * The pull a session starting now waits for, started as early as the hook can (before it loads
 * its handler): only at a new session's start (`startup`) in a directory, with a team store
 * configured and `team.resume` on; null otherwise.
 */
export async function startTeamPullAtStart(request: {
  source: string | null;
  cwd: string | null;
  config: Pick<ShimConfig, 'team'>;
  env: Env;
  home: string;
}): Promise<TeamPullStarted | null> {
  const { source, cwd, config, env, home } = request;
  if (source !== 'startup' || !cwd || !isTeamConfigured(config, env) || !config.team.resume)
    return null;
  return startTeamPull({ cwd, env, home });
}

/**
 * The started pull, waited for up to its budget counted from its start: `pulled`, `late` (it goes
 * on alone), `failed` (the server could not be reached), `skipped` (not the shim binary).
 */
export async function waitForTeamPull(
  pull: TeamPullStarted,
): Promise<{ outcome: StartPull['outcome']; ms: number; budget: number }> {
  const { budget, started, home } = pull;
  if (pull.exit === null) return { outcome: 'skipped', ms: 0, budget };
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([
    pull.exit,
    new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), Math.max(0, started + budget - Date.now()));
    }),
  ]);
  clearTimeout(timer);
  const ms = Date.now() - started;
  const outcome = code === 0 ? 'pulled' : code === null ? 'late' : 'failed';
  if (outcome !== 'pulled') appendLog(home, 'warn', `team pull ${outcome}`, { ms, budget, code });
  return { outcome, ms, budget };
}

/** `shim team pull` for the project at `cwd`, started now and waited for up to the budget. */
export async function pullTeamWithin(request: {
  cwd: string;
  env: Env;
  home: string;
}): Promise<{ outcome: StartPull['outcome']; ms: number; budget: number }> {
  return waitForTeamPull(await startTeamPull(request));
}

/**
 * The pull a starting session started (`startTeamPull`) and now waits for, and the line that
 * says once when it was not in time.
 */
export async function pullAtStart(pull: TeamPullStarted): Promise<StartPull> {
  const request = { home: pull.home };
  const { outcome, ms, budget } = await waitForTeamPull(pull);
  if (outcome === 'skipped') return { outcome, ms, tell: null };
  if (outcome === 'pulled') {
    dropHeldWrite(markPath(request.home));
    rmSync(markPath(request.home), { force: true });
    return { outcome, ms, tell: null };
  }
  if (readJsonFile(markPath(request.home)) !== null) return { outcome, ms, tell: null };
  ensureDir(request.home, 'cache');
  writeJsonFileAtomic(markPath(request.home), { at: new Date().toISOString(), outcome });
  const tell =
    outcome === 'late'
      ? `shim: the team store did not answer within ${(budget / 1000).toFixed(1)} s; this session starts from this machine's work (the team's arrives for the next session; said once)`
      : "shim: the team store could not be reached; this session starts from this machine's work (shim team status says why; said once)";
  return { outcome, ms, tell };
}
