/**
 * Whether a team store is connected and where: SHIM_TEAM_URL, else config `team.url`. A URL is
 * PostgreSQL's (`postgres://` or `postgresql://`, libpq's query options such as `sslmode` and a
 * socket `host` included); a password never sits in shim's config — libpq's PGPASSWORD or
 * ~/.pgpass give it (pg reads both). Who writes a row: the machine (SHIM_MACHINE, else the host
 * name) and the OS user. Light on purpose: the SessionStart hook reads it.
 * @module
 */
import { hostname, userInfo } from 'node:os';
import { AppError } from '../../core/errors.ts';
import type { Env } from '../../store/home/home.ts';
import type { ShimConfig } from '../../store/config/config.ts';

export type TeamUrl = { url: string; source: 'SHIM_TEAM_URL' | 'config' };

/** Parses and checks a team URL; a password is refused where shim would have to keep it. */
export function checkTeamUrl(url: string, source: TeamUrl['source'] | 'argument'): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppError(
      'TEAM_URL_INVALID',
      `not a PostgreSQL URL: ${url.replace(/:[^:@/]*@/, ':***@')}`,
      'give postgres://user@host:5432/database (add ?sslmode=require for TLS, ?host=/run/postgresql for a socket)',
    );
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')
    throw new AppError(
      'TEAM_URL_INVALID',
      `the team store must be PostgreSQL, not ${parsed.protocol.replace(/:$/, '')}`,
      'give postgres://user@host:5432/database',
    );
  if (parsed.password !== '' && source !== 'SHIM_TEAM_URL') {
    parsed.password = '';
    throw new AppError(
      'TEAM_URL_INVALID',
      source === 'config'
        ? 'config team.url holds a password, and shim keeps no passwords: the team store stays disconnected'
        : 'the URL holds a password, and shim keeps no passwords in its config',
      `use ${parsed.toString()} and put the password in PGPASSWORD or ~/.pgpass (host:port:database:user:password)`,
    );
  }
  return url;
}

/** The configured team URL, or null when no team store is connected. Throws for a bad one. */
export function resolveTeamUrl(config: Pick<ShimConfig, 'team'>, env: Env): TeamUrl | null {
  const fromEnv = env.SHIM_TEAM_URL?.trim();
  if (fromEnv) return { url: checkTeamUrl(fromEnv, 'SHIM_TEAM_URL'), source: 'SHIM_TEAM_URL' };
  const fromConfig = config.team?.url?.trim();
  if (fromConfig) return { url: checkTeamUrl(fromConfig, 'config'), source: 'config' };
  return null;
}

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
  return { machine: env.SHIM_MACHINE?.trim() || hostname(), osUser };
}
