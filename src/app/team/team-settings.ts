/**
 * Whether a team store is configured (SHIM_TEAM_URL, else config `team.url`: no check, the hooks'
 * cheap question; team-url.ts reads and checks it), and who writes a row: the machine
 * (SHIM_MACHINE, else the host name) and the OS user. Light on purpose: the hooks read it.
 * @module
 */
import { userInfo } from 'node:os';
import { machineName } from '../../capture/machine.ts';
import type { Env } from '../../store/home/home.ts';
import type { ShimConfig } from '../../store/config/config.ts';

/** Whether a team store is configured at all (no checks: for the hot path's cheap question). */
export function isTeamConfigured(config: Pick<ShimConfig, 'team'>, env: Env): boolean {
  return Boolean(env.SHIM_TEAM_URL?.trim() || config.team?.url?.trim());
}

export type Writer = { machine: string; osUser: string };

export function currentWriter(env: Env): Writer {
  let osUser = env.USER ?? 'unknown';
  try {
    osUser = userInfo().username;
  } catch {
    // no passwd entry (some containers): the environment's name stands
  }
  return { machine: machineName(env), osUser };
}
