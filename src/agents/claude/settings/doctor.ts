/**
 * `shim doctor` for Claude Code: the settings files, every hook event pointing at this shim, the
 * hook command actually running (a probe), the statusline, the MCP server registration and the
 * mod.
 * @module
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SHIM_HOOKS } from './hook-spec.ts';
import { findShimHooks } from './hooks-merge.ts';
import { probeCommand } from './hook-probe.ts';
import { isJsonObject, parseSettingsText, type JsonObject } from './json-text.ts';
import { getMcpConfigPath, getShimMcpEntries, sameMcpServer, shimMcpBin } from './mcp-entries.ts';
import { getLocalSettingsPath, getSettingsPath, readSettingsBytes } from './settings-file.ts';
import { hookCommand, parseShimCommand, statusLineCommand } from './shim-command.ts';
import { readStatusLine } from './statusline-merge.ts';
import { getClaudeConfigDir } from '../sessions.ts';
import { getBuiltModPath, getModMarketplaceDir, MOD_PLUGIN, MOD_PLUGIN_KEY } from './mod-plugin.ts';
import { ago } from '../../../core/time-ago.ts';
import type { AgentCheck, DoctorRequest } from '../../agent.ts';

type DoctorCheck = AgentCheck;
type DoctorOptions = DoctorRequest;

function check(
  id: string,
  title: string,
  status: AgentCheck['status'],
  essential: boolean,
  detail: string,
  fix: string | null = null,
): AgentCheck {
  return { id, title, status, essential, detail, fix };
}

type SettingsSource = {
  label: 'user' | 'project' | 'local';
  title: string;
  path: string;
  /** null: no such file; undefined: unreadable or invalid. */
  settings: JsonObject | null | undefined;
  problem: string | null;
};

export function readSources(options: DoctorOptions): SettingsSource[] {
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

export function settingsChecks(sources: SettingsSource[]): DoctorCheck[] {
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

export function hooksCheck(
  sources: SettingsSource[],
  invocation: DoctorRequest['shim'],
): DoctorCheck {
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

export function statusLineCheck(
  sources: SettingsSource[],
  invocation: DoctorRequest['shim'],
): DoctorCheck {
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

export function mcpCheck(options: DoctorOptions): DoctorCheck {
  const [entry] = getShimMcpEntries(options.shim);
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

export async function hookRunsCheck(options: DoctorOptions): Promise<DoctorCheck> {
  const command = hookCommand(options.shim, 'SessionStart');
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

/**
 * shim's mod: which settings file enables it, whether the copy under SHIM_HOME/mod is this shim's,
 * and when it last reported. Information only: hooks alone are a complete setup.
 */
export function modCheck(sources: SettingsSource[], options: DoctorOptions): DoctorCheck {
  const title = 'mod';
  const enabledIn = sources.filter(
    (s) =>
      isJsonObject(s.settings?.enabledPlugins) &&
      s.settings.enabledPlugins[MOD_PLUGIN_KEY] === true,
  );
  if (enabledIn.length === 0) {
    return check(
      'mod',
      title,
      'ok',
      false,
      'not set up: the hooks watch every tool call (Claude Code 2.1.287+ can load it: shim install --mod)',
      'with Claude Code 2.1.287 or later: shim install --mod',
    );
  }
  const installed = join(getModMarketplaceDir(options.home), MOD_PLUGIN, 'hooks', 'shim-mod.js');
  const built = getBuiltModPath(options.shim.bin);
  const read = (path: string) => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return null;
    }
  };
  const where = enabledIn.map((s) => s.title).join(', ');
  const copy = read(installed);
  if (copy === null)
    return check(
      'mod',
      title,
      'warn',
      false,
      `enabled in ${where}, but ${installed} is missing`,
      'shim install --mod',
    );
  const seen = lastModReport(options.home);
  const last = seen === null ? 'no report yet' : `last report ${ago(options.now.getTime() - seen)}`;
  const current = read(built);
  if (current !== null && current !== copy)
    return check(
      'mod',
      title,
      'warn',
      false,
      `enabled in ${where}; ${installed} is from another shim version (${last})`,
      'shim install --mod (refreshes the copy)',
    );
  return check('mod', title, 'ok', false, `enabled in ${where}; ${last}`);
}

/** The newest time shim's mod reported on any session (SHIM_HOME/cache/mod). */
function lastModReport(home: string): number | null {
  const dir = join(home, 'cache', 'mod');
  let newest: number | null = null;
  try {
    for (const file of readdirSync(dir)) {
      const at = statSync(join(dir, file)).mtimeMs;
      if (newest === null || at > newest) newest = at;
    }
  } catch {
    // none yet
  }
  return newest;
}

/**
 * Every line, in the order `shim doctor` shows them; none where Claude Code is not used (no
 * config directory, no settings file in the project), like any agent shim is not installed into.
 */
export async function claudeDoctorChecks(request: DoctorRequest): Promise<AgentCheck[]> {
  const sources = readSources(request);
  const used =
    existsSync(getClaudeConfigDir(request.env)) ||
    sources.some((s) => s.settings !== null || s.problem !== null);
  if (!used) return [];
  return [
    ...settingsChecks(sources),
    hooksCheck(sources, request.shim),
    await hookRunsCheck(request),
    statusLineCheck(sources, request.shim),
    mcpCheck(request),
    modCheck(sources, request),
  ];
}
