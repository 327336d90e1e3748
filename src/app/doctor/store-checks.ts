/**
 * Doctor checks of shim's own side: the config files, SHIM_HOME, the database (and a recovery
 * from corruption), recent activity and recent errors in the log.
 * @module
 */
import {
  accessSync,
  closeSync,
  constants,
  openSync,
  readSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../core/errors.ts';
import { openStore } from '../open-store.ts';
import type { Maintenance } from '../../store/ports/maintenance.ts';
import { ensureDir } from '../../store/home/home.ts';
import { getLogPath } from '../../store/home/log.ts';
import { findPlantedLinks, writeFileSafely } from '../../store/home/safe-file.ts';
import { findProjectRoot } from '../../capture/project.ts';
import { describeConfigProblem, loadConfig } from '../../store/config/config.ts';
import { describeRecovery, readRecoveryNotice } from '../../store/home/recovery-notice.ts';
import { check, type DoctorCheck, type DoctorOptions } from './doctor-check.ts';
import { ago } from '../../core/time-ago.ts';

const RECENT_ERRORS_MS = 24 * 60 * 60 * 1000;
const LOG_TAIL_BYTES = 256 * 1024;

export async function configCheck(options: DoctorOptions): Promise<DoctorCheck> {
  const config = await loadConfig(options.home, {
    lenient: true,
    projectRoot: findProjectRoot(options.cwd),
  });
  if (config.problems.length === 0) {
    const custom = Object.values(config.sources).filter((s) => s !== 'default');
    return check(
      'config',
      'configuration',
      'ok',
      true,
      custom.length === 0
        ? 'defaults (no config file)'
        : `valid (${[...new Set(custom)].join(', ')}); \`shim config\` shows it`,
    );
  }
  return check(
    'config',
    'configuration',
    'fail',
    true,
    `${config.problems.map(describeConfigProblem).join('; ')} — the hooks run on the defaults for ${config.problems.length === 1 ? 'that file' : 'those files'}`,
    config.problems[0]!.fix,
  );
}

/** A corrupt store shim moved aside and rebuilt (said until a week has passed). */
export function recoveryCheck(home: string): DoctorCheck | null {
  const notice = readRecoveryNotice(home);
  if (!notice || Date.now() - Date.parse(notice.at) > 7 * 86_400_000) return null;
  return check(
    'store-recovery',
    'store recovery',
    'warn',
    false,
    describeRecovery(notice).replace(/^shim: /, ''),
    `inspect or delete ${notice.movedTo} once you no longer need it`,
  );
}

export function homeCheck(home: string): DoctorCheck {
  try {
    ensureDir(home);
    accessSync(home, constants.W_OK);
    const probe = join(home, `.doctor-${process.pid}`);
    writeFileSafely(probe, 'ok');
    unlinkSync(probe);
  } catch (error) {
    return check(
      'home',
      'SHIM_HOME',
      'fail',
      true,
      `${home} is not writable: ${(error as Error).message}`,
      'point SHIM_HOME at a directory you own, or fix the permissions of this one',
    );
  }
  const stat = statSync(home);
  const mode = stat.mode & 0o777;
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) {
    return check(
      'home',
      'SHIM_HOME',
      'fail',
      true,
      `${home} is owned by uid ${stat.uid}, not by you (uid ${uid}): its owner can read and change your checkpoints`,
      'point SHIM_HOME at a directory of your own (default ~/.shim), or chown it to yourself',
    );
  }
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    return check(
      'home',
      'SHIM_HOME',
      'fail',
      true,
      `${home} is readable by others (mode ${mode.toString(8)}); checkpoints hold your work`,
      `chmod 700 ${home}`,
    );
  }
  const links = findPlantedLinks(home, SHIM_FILES);
  if (links.length > 0) {
    return check(
      'home',
      'SHIM_HOME',
      'fail',
      true,
      `symbolic links where shim keeps its own files: ${links.join(', ')} (shim refuses to write through them)`,
      `remove them: rm ${links.join(' ')}`,
    );
  }
  return check('home', 'SHIM_HOME', 'ok', true, `${home} is writable and owner-only`);
}

/** shim's own files and directories under SHIM_HOME: none of them may be a link. */
const SHIM_FILES = [
  'shim.db',
  'shim.db-wal',
  'shim.db-shm',
  'config.json',
  'logs',
  'logs/shim.log',
  'cache',
  'cache/cursors',
  'cache/hooks',
  'cache/statusline',
  'handoffs',
  'backups',
  'loops',
];

export function databaseCheck(home: string): {
  check: DoctorCheck;
  db: Maintenance | null;
} {
  let db: Maintenance;
  try {
    // Its close() closes the store (doctor's later checks read through it).
    db = openStore(home).maintenance;
  } catch (error) {
    return {
      check: check(
        'database',
        'database',
        'fail',
        true,
        (error as Error).message,
        error instanceof AppError ? (error.hint ?? null) : null,
      ),
      db: null,
    };
  }
  try {
    const results = db.quickCheck();
    if (results.length === 1 && results[0] === 'ok') {
      return { check: check('database', 'database', 'ok', true, 'opens, quick_check ok'), db };
    }
    return {
      check: check(
        'database',
        'database',
        'fail',
        true,
        `quick_check: ${results.slice(0, 3).join('; ')}`,
        `move ${join(home, 'shim.db')} aside; shim starts a new one`,
      ),
      db,
    };
  } catch (error) {
    return {
      check: check('database', 'database', 'fail', true, (error as Error).message, null),
      db,
    };
  }
}

export function activityCheck(db: Maintenance | null, now: Date): DoctorCheck {
  if (db === null) {
    return check(
      'activity',
      'recent activity',
      'warn',
      false,
      'unknown: the database is unavailable',
    );
  }
  const { session, checkpoint } = db.newestActivity();
  const at = (iso: string) => `${iso} (${ago(now.getTime() - Date.parse(iso))})`;
  const parts = [
    session
      ? `last session seen ${at(session.lastSeenAt)}, ${session.sessionId.slice(0, 8)}`
      : 'no session seen yet',
    checkpoint
      ? `last checkpoint ${at(checkpoint.createdAt)}, ${checkpoint.sessionId.slice(0, 8)}`
      : 'no checkpoint yet',
  ];
  return session
    ? check('activity', 'recent activity', 'ok', false, parts.join('; '))
    : check(
        'activity',
        'recent activity',
        'warn',
        false,
        parts.join('; '),
        'start or resume a session in an agent shim is installed into; its hooks record it here',
      );
}

/** The last LOG_TAIL_BYTES of the log, as whole lines. */
function readLogTail(path: string): string[] {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return [];
  }
  try {
    const size = statSync(path).size;
    const length = Math.min(size, LOG_TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    const lines = buffer.toString('utf8').split('\n');
    if (length < size) lines.shift();
    return lines.filter((l) => l.trim() !== '');
  } finally {
    closeSync(fd);
  }
}

export function logCheck(home: string, now: Date): DoctorCheck {
  const path = getLogPath(home);
  const errors: Array<{ at: string; message: string }> = [];
  for (const line of readLogTail(path)) {
    try {
      const entry = JSON.parse(line) as { level?: unknown; at?: unknown; message?: unknown };
      if (entry.level !== 'error') continue;
      const at = typeof entry.at === 'string' ? entry.at : '';
      if (now.getTime() - Date.parse(at) > RECENT_ERRORS_MS) continue;
      errors.push({ at, message: typeof entry.message === 'string' ? entry.message : '' });
    } catch {
      // not a log entry
    }
  }
  if (errors.length === 0)
    return check('log', 'recent errors', 'ok', false, 'none in the last 24 h');
  const newest = errors[errors.length - 1]!;
  return check(
    'log',
    'recent errors',
    'warn',
    false,
    `${errors.length} in the last 24 h; newest ${ago(now.getTime() - Date.parse(newest.at))}: ${newest.message}`,
    `see ${path}`,
  );
}

/** shim's MCP server: registered (user ~/.claude.json, local project entry there, or .mcp.json). */
