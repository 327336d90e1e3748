/**
 * The team's unfinished work for a session starting now (docs/team.md, "Pull at session start"):
 * `shim team pull` runs as a child — the hook loads no pg — and is waited for up to the budget
 * (1.5 s, the bound claude-mem puts on its own pull at session start). Past it the session starts
 * from this machine's work, the child goes on filling the local copy for the next session, and
 * the user is told once: not again until a pull is on time.
 * @module
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from '../../store/home/home.ts';
import { ensureDir } from '../../store/home/home.ts';
import { dropHeldWrite, readJsonFile, writeJsonFileAtomic } from '../../store/home/json-file.ts';
import { appendLog } from '../../store/home/log.ts';
import { isShimBinary } from '../run-in-background.ts';

export const TEAM_PULL_BUDGET_MS = 1_500;

export type StartPull = {
  outcome: 'pulled' | 'late' | 'failed' | 'skipped';
  ms: number;
  /** One line for the user, the first time a pull is late or fails. */
  tell: string | null;
};

const markPath = (home: string) => join(home, 'cache', 'team-pull-late.json');

/**
 * Starts `shim <args>` detached and waits for it up to `budgetMs`: its exit code, or null when it
 * is still running then (it goes on alone: nothing is killed).
 */
async function runShimWithin(
  args: string[],
  cwd: string | null,
  env: Env,
  home: string,
  budgetMs: number,
): Promise<number | null> {
  const bin = process.argv[1];
  if (!bin) return null;
  const { spawn } = await import('node:child_process');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: cwd && existsSync(cwd) ? cwd : process.cwd(),
      env: { ...env, SHIM_HOME: home },
      detached: true,
      stdio: 'ignore',
    });
    const timer = setTimeout(() => {
      child.unref();
      resolve(null);
    }, budgetMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      appendLog(home, 'error', `shim ${args[0]} did not start`, { error: String(error) });
      resolve(-1);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(code ?? -1);
    });
  });
}

function budgetOf(env: Env): number {
  const set = Number(env.SHIM_TEAM_PULL_BUDGET_MS);
  return Number.isFinite(set) && set > 0 ? set : TEAM_PULL_BUDGET_MS;
}

/**
 * `shim team pull` for the project at `cwd`, waited for up to the budget: `pulled`, `late` (it
 * goes on alone), `failed` (the server could not be reached), `skipped` (not the shim binary).
 */
export async function pullTeamWithin(request: {
  cwd: string;
  env: Env;
  home: string;
}): Promise<{ outcome: StartPull['outcome']; ms: number; budget: number }> {
  const budget = budgetOf(request.env);
  if (!isShimBinary()) return { outcome: 'skipped', ms: 0, budget };
  const started = Date.now();
  const code = await runShimWithin(
    ['team', 'pull', '--quiet'],
    request.cwd,
    request.env,
    request.home,
    budget,
  );
  const ms = Date.now() - started;
  const outcome = code === 0 ? 'pulled' : code === null ? 'late' : 'failed';
  if (outcome !== 'pulled')
    appendLog(request.home, 'warn', `team pull ${outcome}`, { ms, budget, code });
  return { outcome, ms, budget };
}

/** The pull a starting session waits for, and the line that says once when it was not in time. */
export async function pullAtStart(request: {
  cwd: string;
  env: Env;
  home: string;
}): Promise<StartPull> {
  const { outcome, ms, budget } = await pullTeamWithin(request);
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
