/**
 * Which team store, if any: SHIM_TEAM_URL, else config `team.url` — a libpq connection string in
 * any of its forms (store/postgres/conninfo.ts). A password never sits in shim's config: one in
 * the argument of `shim team connect` or in `team.url` is refused (the message never repeats it),
 * libpq's PGPASSWORD, password file or service file give it. One in SHIM_TEAM_URL is taken as
 * given and never written anywhere.
 * @module
 */
import { AppError } from '../../core/errors.ts';
import type { ShimConfig } from '../../store/config/config.ts';
import type { Env } from '../../store/home/home.ts';
import {
  ConnStringError,
  hasPassword,
  parseConnString,
  withoutPassword,
} from '../../store/postgres/conninfo.ts';

export type TeamUrl = { url: string; source: 'SHIM_TEAM_URL' | 'config' };

const FORMS =
  'give postgresql://user@host:5432/database, postgresql://user@/database?host=/run/postgresql, host=… dbname=…, or service=<name>';

/** Reads and checks a connection string; a password is refused where shim would have to keep it. */
export function checkTeamUrl(url: string, source: TeamUrl['source'] | 'argument'): string {
  try {
    parseConnString(url);
  } catch (error) {
    if (!(error instanceof ConnStringError)) throw error;
    throw new AppError(
      'TEAM_URL_INVALID',
      `${source === 'config' ? 'config team.url' : source === 'argument' ? 'the connection string' : 'SHIM_TEAM_URL'} cannot be used: ${error.message}`,
      FORMS,
    );
  }
  if (source !== 'SHIM_TEAM_URL' && hasPassword(url))
    throw new AppError(
      'TEAM_URL_INVALID',
      source === 'config'
        ? 'config team.url holds a password, and shim keeps no passwords: the team store stays disconnected'
        : 'the connection string holds a password, and shim keeps no passwords in its config',
      `use ${withoutPassword(url)} and put the password in PGPASSWORD or ~/.pgpass (host:port:database:user:password)`,
    );
  return url;
}

/** The configured team store, or null when none is connected. Throws for a bad one. */
export function resolveTeamUrl(config: Pick<ShimConfig, 'team'>, env: Env): TeamUrl | null {
  const fromEnv = env.SHIM_TEAM_URL?.trim();
  if (fromEnv) return { url: checkTeamUrl(fromEnv, 'SHIM_TEAM_URL'), source: 'SHIM_TEAM_URL' };
  const fromConfig = config.team?.url?.trim();
  if (fromConfig) return { url: checkTeamUrl(fromConfig, 'config'), source: 'config' };
  return null;
}
