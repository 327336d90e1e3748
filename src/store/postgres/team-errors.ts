/**
 * What went wrong talking to the team store, as one line and its fix: PostgreSQL's SQLSTATE codes
 * and Node's socket errors mapped onto the few cases a user can act on (docs/team.md, "Errors").
 * @module
 */
import { AppError } from '../../core/errors.ts';
import { describeConn, resolveConn } from './conninfo.ts';
import { whyPasswordFileIgnored } from './password-file.ts';

type PgLikeError = Error & { code?: string; errno?: number };

/** Where the team store is, safe to print: `ada@db:5433/shim`, never a password. */
export function describeTeamTarget(url: string): string {
  return describeConn(url);
}

/** The user the connection logs in as (the string's, the service's, PGUSER, else the OS user). */
function loginOf(url: string): { user: string; passfile: string | null } {
  try {
    const conn = resolveConn(url);
    return { user: conn.user, passfile: conn.password === null ? conn.passfile : null };
  } catch {
    return { user: 'the user', passfile: null };
  }
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
  'ENOENT',
  'EPIPE',
]);

/** Whether trying again later can help (the server down or away), as opposed to a refusal. */
export function isTransientTeamError(error: unknown): boolean {
  const e = error as PgLikeError;
  if (e?.code !== undefined && UNREACHABLE.has(e.code)) return true;
  if (e?.code === '57P01' || e?.code === '57P03' || e?.code === '53300') return true;
  return /timeout|Connection terminated|ECONNREFUSED|ENOENT/i.test(String(e?.message));
}

/**
 * The error as an AppError with a one-line message and the fix. No `cause`: the message carries
 * the server's words, and a cause saying "permission denied" would read as SHIM_HOME being
 * read-only to the CLI's storage check (store/home/storage-failure.ts).
 */
export function toTeamError(error: unknown, url: string): AppError {
  if (error instanceof AppError) return error;
  const e = error as PgLikeError;
  const target = describeTeamTarget(url);
  const message = String(e?.message ?? error).split('\n')[0]!;
  const login = loginOf(url);
  const user = login.user;
  const ignored = login.passfile !== null ? whyPasswordFileIgnored(login.passfile) : null;
  const fileNote = ignored !== null ? `; ${ignored}` : '';
  switch (e?.code) {
    case '28P01':
    case '28000':
      return new AppError(
        'TEAM_AUTH',
        `the team store at ${target} refused ${user}: ${message}`,
        `set PGPASSWORD or add the password to ~/.pgpass (shim never stores it), or check pg_hba.conf${fileNote}`,
      );
    case '3D000':
      return new AppError(
        'TEAM_UNREACHABLE',
        `the team store at ${target}: ${message}`,
        'create the database (createdb) or fix the name in the URL',
      );
    case '42P01':
    case '3F000':
      return new AppError(
        'TEAM_NO_SCHEMA',
        `the team store at ${target} has no shim tables (${message})`,
        'run shim team connect <url> once as a user who may create tables: it creates them',
      );
    case '42501':
    case '25006':
      return new AppError(
        'TEAM_READ_ONLY',
        `${user} may not write to the team store at ${target} (${message})`,
        'grant the role shim_writer (docs/team.md, "Roles") or connect as a user who may write',
      );
  }
  if (/password must be a string|no password|SASL/i.test(message))
    return new AppError(
      'TEAM_AUTH',
      `the team store at ${target} wants a password for ${user} and none was given`,
      `set PGPASSWORD or add a line to ~/.pgpass (shim never stores passwords)${fileNote}`,
    );
  if (isTransientTeamError(error))
    return new AppError(
      'TEAM_UNREACHABLE',
      `cannot reach the team store at ${target}: ${e?.code ?? message}`,
      'check that the server runs and the host, port or socket in the URL; shim keeps the rows and sends them later',
    );
  return new AppError('TEAM_FAILED', `the team store at ${target}: ${message}`, 'see shim doctor');
}

/** `work`'s answer, or its failure as one line and its fix (toTeamError). */
export async function withTeamErrors<T>(url: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toTeamError(error, url);
  }
}
