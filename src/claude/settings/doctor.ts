/**
 * `shim doctor`: checks that shim is wired into Claude Code and can do its job — settings valid,
 * every hook event pointing at this shim, the hook command actually running, the statusline, the
 * MCP server registration,
 * SHIM_HOME and the database — and shows recent activity and errors. Each check says how to fix
 * what it found. Healthy means every essential check passed.
 * @module
 */
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  openSync,
  readSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { AppError } from '../../core/errors.ts';
import { openDatabase, type Database } from '../../store/database.ts';
import { ensureDir, type Env } from '../../store/home.ts';
import { getLogPath } from '../../store/log.ts';
import { findPlantedLinks, writeFileSafely } from '../../store/safe-file.ts';
import { findProjectRoot } from '../../capture/project.ts';
import { describeConfigProblem, loadConfig } from '../../store/config.ts';
import { describeRecovery, readRecoveryNotice } from '../../store/recover-database.ts';
import { SHIM_HOOKS } from './hook-spec.ts';
import { findShimHooks } from './hooks-merge.ts';
import { probeCommand } from './hook-probe.ts';
import { isJsonObject, parseSettingsText, type JsonObject } from './json-text.ts';
import { getMcpConfigPath, getShimMcpEntries, sameMcpServer, shimMcpBin } from './mcp-entries.ts';
import { getLocalSettingsPath, getSettingsPath, readSettingsBytes } from './settings-file.ts';
import {
  hookCommand,
  parseShimCommand,
  statusLineCommand,
  type ShimInvocation,
} from './shim-command.ts';
import { readStatusLine } from './statusline-merge.ts';

export type CheckStatus = 'ok' | 'warn' | 'fail';

export type DoctorCheck = {
  id: string;
  title: string;
  status: CheckStatus;
  /** Essential checks decide whether shim is healthy; the others are information. */
  essential: boolean;
  detail: string;
  fix: string | null;
};

export type DoctorReport = { healthy: boolean; checks: DoctorCheck[] };

export type DoctorOptions = {
  home: string;
  env: Env;
  cwd: string;
  invocation: ShimInvocation;
  probeTimeoutMs?: number;
  now?: Date;
};

type SettingsSource = {
  label: 'user' | 'project' | 'local';
  title: string;
  path: string;
  /** null: no such file; undefined: unreadable or invalid. */
  settings: JsonObject | null | undefined;
  problem: string | null;
};

const RECENT_ERRORS_MS = 24 * 60 * 60 * 1000;
const LOG_TAIL_BYTES = 256 * 1024;

function check(
  id: string,
  title: string,
  status: CheckStatus,
  essential: boolean,
  detail: string,
  fix: string | null = null,
): DoctorCheck {
  return { id, title, status, essential, detail, fix };
}

function ago(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}

function readSources(options: DoctorOptions): SettingsSource[] {
  const sources: Array<Pick<SettingsSource, 'label' | 'title' | 'path'>> = [
    { label: 'user', title: 'user settings', path: getSettingsPath('user', options) },
    { label: 'project', title: 'project settings', path: getSettingsPath('project', options) },
    { label: 'local', title: 'local project settings', path: getLocalSettingsPath(options.cwd) },
  ];
  return sources.map((source) => {
    try {
      const bytes = readSettingsBytes(source.path);
      if (bytes === null) return { ...source, settings: null, problem: null };
      return {
        ...source,
        settings: parseSettingsText(bytes.toString('utf8'), source.path),
        problem: null,
      };
    } catch (error) {
      return { ...source, settings: undefined, problem: (error as Error).message };
    }
  });
}

function settingsChecks(sources: SettingsSource[]): DoctorCheck[] {
  const checks: DoctorCheck[] = [];
  for (const source of sources) {
    const id = `settings-${source.label}`;
    if (source.settings === null) {
      if (source.label === 'user') {
        checks.push(check(id, source.title, 'ok', true, `${source.path} does not exist (yet)`));
      }
      continue;
    }
    if (source.settings === undefined) {
      checks.push(
        check(id, source.title, 'fail', true, source.problem ?? 'unreadable', `fix ${source.path}`),
      );
      continue;
    }
    if (source.settings.disableAllHooks === true) {
      checks.push(
        check(
          id,
          source.title,
          'fail',
          true,
          `${source.path} sets "disableAllHooks": true, so Claude Code runs no hooks and no statusline`,
          `remove "disableAllHooks" from ${source.path}`,
        ),
      );
      continue;
    }
    checks.push(check(id, source.title, 'ok', true, `${source.path} is valid`));
  }
  return checks;
}

function installHint(where: Set<string>): string {
  return where.has('project') ? 'shim install --project (and/or shim install)' : 'shim install';
}

function hooksCheck(sources: SettingsSource[], invocation: ShimInvocation): DoctorCheck {
  const found = sources.flatMap((source) =>
    source.settings ? findShimHooks(source.settings).map((h) => ({ ...h, source })) : [],
  );
  const missing: string[] = [];
  const stale: string[] = [];
  const where = new Set<string>();
  for (const h of found) where.add(h.source.label);
  const wanted = new Map(SHIM_HOOKS.map((spec) => [spec.event, spec]));
  for (const spec of SHIM_HOOKS) {
    const expected = hookCommand(invocation, spec.event);
    const exact = found.some(
      (h) => h.event === spec.event && h.command === expected && h.matcher === spec.matcher,
    );
    if (!exact) missing.push(spec.event);
  }
  for (const h of found) {
    const spec = wanted.get(h.event);
    const expected = spec ? hookCommand(invocation, spec.event) : null;
    if (spec && h.command === expected && h.matcher === spec.matcher) continue;
    const bin = parseShimCommand(h.command)?.bin ?? '';
    const reason = !spec
      ? 'an event shim no longer uses'
      : h.command !== expected
        ? existsSync(bin)
          ? `another shim: ${h.command}`
          : `a path that no longer exists: ${bin}`
        : `matcher ${JSON.stringify(h.matcher ?? '')} instead of ${JSON.stringify(spec.matcher ?? '')}`;
    stale.push(`${h.event} in ${h.source.title} (${reason})`);
  }
  if (missing.length === 0 && stale.length === 0) {
    const labels = [...where].map((l) => `${l} settings`).join(', ');
    return check(
      'hooks',
      'hooks',
      'ok',
      true,
      `all ${SHIM_HOOKS.length} events call ${hookCommand(invocation, '<Event>')} (${labels})`,
    );
  }
  const parts: string[] = [];
  if (missing.length === SHIM_HOOKS.length && found.length === 0) {
    parts.push('shim is not wired into any settings file');
  } else if (missing.length > 0) {
    parts.push(`not wired to this shim: ${missing.join(', ')}`);
  }
  if (stale.length > 0) parts.push(`stale: ${stale.join('; ')}`);
  return check('hooks', 'hooks', 'fail', true, parts.join('; '), installHint(where));
}

function statusLineCheck(sources: SettingsSource[], invocation: ShimInvocation): DoctorCheck {
  // Precedence: local > project > user; the first file that sets a statusLine wins.
  const ordered = [...sources].reverse();
  const effective = ordered.find((s) => s.settings && Object.hasOwn(s.settings, 'statusLine'));
  const shimSomewhere = sources.find(
    (s) => s.settings && readStatusLine(s.settings).kind === 'shim',
  );
  if (!effective?.settings) {
    return check('statusline', 'statusline', 'fail', true, 'no statusLine is set', 'shim install');
  }
  const state = readStatusLine(effective.settings);
  if (state.kind === 'shim') {
    const expected = statusLineCommand(invocation, state.wrapped ?? undefined);
    if (state.command !== expected) {
      return check(
        'statusline',
        'statusline',
        'fail',
        true,
        `the statusLine in ${effective.title} runs another shim: ${state.command}`,
        effective.label === 'project' ? 'shim install --project' : 'shim install',
      );
    }
    return check(
      'statusline',
      'statusline',
      'ok',
      true,
      state.wrapped === null
        ? `shim's statusline (${effective.title})`
        : `shim's statusline, shown with yours: ${state.wrapped} (${effective.title})`,
    );
  }
  const overridden =
    shimSomewhere && shimSomewhere !== effective
      ? `; shim's statusline in ${shimSomewhere.title} is overridden by ${effective.title}`
      : '';
  return check(
    'statusline',
    'statusline',
    'fail',
    true,
    `the statusLine in ${effective.title} is not shim's${overridden}`,
    effective.label === 'user'
      ? 'shim install (it keeps your statusline and shows it next to shim’s)'
      : `shim install --project, or remove "statusLine" from ${effective.path}`,
  );
}

/** config.json and the project's files: each problem named with its line and the fix. */
async function configCheck(options: DoctorOptions): Promise<DoctorCheck> {
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
function recoveryCheck(home: string): DoctorCheck | null {
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

function homeCheck(home: string): DoctorCheck {
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
  const mode = statSync(home).mode & 0o777;
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

function databaseCheck(home: string): { check: DoctorCheck; db: Database | null } {
  let db: Database;
  try {
    db = openDatabase(home);
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
    const rows = db.prepare('PRAGMA quick_check').all() as Array<Record<string, unknown>>;
    const results = rows.map((row) => String(Object.values(row)[0]));
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

function activityCheck(db: Database | null, now: Date): DoctorCheck {
  if (db === null) {
    return check(
      'activity',
      'recent activity',
      'warn',
      false,
      'unknown: the database is unavailable',
    );
  }
  const session = db
    .prepare(
      "SELECT session_id, last_seen_at FROM sessions WHERE session_id <> 'doctor' ORDER BY last_seen_at DESC LIMIT 1",
    )
    .get() as { session_id: string; last_seen_at: string } | undefined;
  const checkpoint = db
    .prepare('SELECT session_id, created_at FROM checkpoints ORDER BY created_at DESC LIMIT 1')
    .get() as { session_id: string; created_at: string } | undefined;
  const at = (iso: string) => `${iso} (${ago(now.getTime() - Date.parse(iso))})`;
  const parts = [
    session
      ? `last session seen ${at(session.last_seen_at)}, ${session.session_id.slice(0, 8)}`
      : 'no session seen yet',
    checkpoint
      ? `last checkpoint ${at(checkpoint.created_at)}, ${checkpoint.session_id.slice(0, 8)}`
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
        'start or resume a Claude Code session; its hooks record it here',
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

function logCheck(home: string, now: Date): DoctorCheck {
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
function mcpCheck(options: DoctorOptions): DoctorCheck {
  const [entry] = getShimMcpEntries(options.invocation);
  const title = 'MCP server';
  if (!entry) return check('mcp', title, 'ok', false, 'shim registers no MCP server');
  const userPath = getMcpConfigPath('user', options);
  const projectPath = getMcpConfigPath('project', options);
  const places: Array<{ where: string; servers: unknown }> = [];
  const problems: string[] = [];
  for (const path of [userPath, projectPath]) {
    try {
      const bytes = readSettingsBytes(path);
      if (bytes === null) continue;
      const config = parseSettingsText(bytes.toString('utf8'), path);
      places.push({ where: path, servers: config.mcpServers });
      if (path === userPath && isJsonObject(config.projects)) {
        const local = config.projects[resolve(options.cwd)];
        if (isJsonObject(local)) {
          places.push({ where: `${path} (local, this project)`, servers: local.mcpServers });
        }
      }
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  const found: string[] = [];
  const stale: string[] = [];
  for (const place of places) {
    if (!isJsonObject(place.servers)) continue;
    for (const [name, server] of Object.entries(place.servers)) {
      const bin = shimMcpBin(server);
      if (bin === null) continue;
      if (sameMcpServer(server, entry)) found.push(`"${name}" in ${place.where}`);
      else {
        const why = existsSync(bin) ? 'another shim' : 'a path that no longer exists';
        stale.push(`"${name}" in ${place.where} runs ${bin} (${why})`);
      }
    }
  }
  const command = [entry.command, ...entry.args].join(' ');
  if (found.length > 0 && stale.length === 0) {
    return check('mcp', title, 'ok', false, `${command}: ${found.join(', ')}`);
  }
  const parts = [
    ...(found.length === 0
      ? [`not registered with Claude Code (${userPath}, ${projectPath})`]
      : []),
    ...(stale.length > 0 ? [`stale: ${stale.join('; ')}`] : []),
    ...problems,
  ];
  return check(
    'mcp',
    title,
    'warn',
    false,
    parts.join('; '),
    'shim install (registers it as "shim"); other MCP clients: see the README',
  );
}

async function hookRunsCheck(options: DoctorOptions): Promise<DoctorCheck> {
  const command = hookCommand(options.invocation, 'SessionStart');
  const payload = JSON.stringify({
    session_id: 'doctor',
    transcript_path: '/nonexistent',
    cwd: options.cwd,
    hook_event_name: 'SessionStart',
    source: 'startup',
  });
  const timeoutMs = options.probeTimeoutMs ?? 5000;
  const result = await probeCommand(command, payload, {
    cwd: options.cwd,
    env: { ...options.env, CLAUDE_PROJECT_DIR: options.cwd },
    timeoutMs,
  });
  const fix = `run it by hand: echo '${payload}' | ${command}`;
  if (result.error !== null) {
    return check(
      'hook-runs',
      'hook command runs',
      'fail',
      true,
      `cannot start: ${result.error}`,
      fix,
    );
  }
  if (result.timedOut) {
    return check(
      'hook-runs',
      'hook command runs',
      'fail',
      true,
      `${command} did not finish within ${timeoutMs / 1000} s`,
      fix,
    );
  }
  if (result.exitCode !== 0) {
    const firstLine = result.stderr.trim().split('\n')[0] ?? '';
    return check(
      'hook-runs',
      'hook command runs',
      'fail',
      true,
      `${command} exited with ${result.exitCode ?? result.signal}${firstLine ? `: ${firstLine}` : ''}`,
      fix,
    );
  }
  return check(
    'hook-runs',
    'hook command runs',
    'ok',
    true,
    `SessionStart exits 0 in ${result.durationMs} ms`,
  );
}

export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const now = options.now ?? new Date();
  const sources = readSources(options);
  const settings = settingsChecks(sources);
  const hooks = hooksCheck(sources, options.invocation);
  const statusLine = statusLineCheck(sources, options.invocation);
  const home = homeCheck(options.home);
  const config = await configCheck(options);
  const recovered = recoveryCheck(options.home);
  const database = databaseCheck(options.home);
  let activity: DoctorCheck;
  try {
    activity = activityCheck(database.db, now);
  } finally {
    database.db?.close();
  }
  // Before the probe, so that what the probe itself logs or records is not reported.
  const log = logCheck(options.home, now);
  const hookRuns = await hookRunsCheck(options);
  const checks = [
    ...settings,
    hooks,
    hookRuns,
    statusLine,
    mcpCheck(options),
    home,
    config,
    ...(recovered ? [recovered] : []),
    database.check,
    activity,
    log,
  ];
  return { healthy: checks.every((c) => !c.essential || c.status === 'ok'), checks };
}
