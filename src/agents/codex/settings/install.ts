/**
 * `shim install --agent codex` / `shim uninstall --agent codex` (docs/agents.md, "Codex CLI"):
 * shim's hooks go into `$CODEX_HOME/hooks.json`, and one marked block appended to config.toml
 * registers shim's MCP server and trusts exactly those hooks (Codex skips untrusted hooks
 * silently). Nothing else of either file changes: the bytes shim added are recorded under
 * SHIM_HOME, and uninstall takes exactly them out again (or restores hooks.json from its backup
 * when nobody changed it since), so the user's files come back byte for byte.
 * @module
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { ensureDir } from '../../../store/home/home.ts';
import { writeFileSafely } from '../../../store/home/safe-file.ts';
import { dirname, join } from 'node:path';
import type { Env } from '../../../store/home/home.ts';
import type { InstallReport, InstallRequest, ShimLocation } from '../../agent.ts';
import { getCodexConfigPath } from '../config.ts';
import { getCodexHome } from '../sessions.ts';
import { trustHash, trustKey, type CodexHookGroup } from './hook-trust.ts';

import { CODEX_HOOKS } from './hook-spec.ts';

export { CODEX_HOOKS };

const BEGIN =
  '# >>> shim: added by `shim install --agent codex`; `shim uninstall --agent codex` removes it';
const END = '# <<< shim';

const SAFE_WORD = /^[A-Za-z0-9_\-.,/:@%+=]+$/;
const quote = (word: string): string =>
  SAFE_WORD.test(word) ? word : `"${word.replace(/(["\\$`])/g, '\\$1')}"`;

export function codexHookCommand(shim: ShimLocation, event: string): string {
  return `${quote(shim.node)} ${quote(shim.bin)} hook --agent codex ${event}`;
}

const tomlString = (s: string): string => JSON.stringify(s);

type HooksFile = { hooks?: Record<string, CodexHookGroup[]> } & Record<string, unknown>;

type Record_ = {
  hooksPath: string;
  hooksCreated: boolean;
  hooksBefore: string | null;
  hooksAfter: string;
  configPath: string;
  configCreated: boolean;
  block: string;
};

function recordPath(home: string): string {
  return join(home, 'installs', 'codex.json');
}

function isShimCommand(command: unknown): boolean {
  return typeof command === 'string' && / hook --agent codex [A-Za-z]+$/.test(command);
}

/** hooks.json with shim's groups added after the user's, and the trust entries for them. */
function plan(hooksPath: string, before: string | null, shim: ShimLocation) {
  const file: HooksFile = before === null ? {} : (JSON.parse(before) as HooksFile);
  const hooks: Record<string, CodexHookGroup[]> = { ...(file.hooks ?? {}) };
  const trust: string[] = [];
  for (const spec of CODEX_HOOKS) {
    const groups = [...(hooks[spec.event] ?? [])].filter(
      (g) => !g.hooks?.some((h) => isShimCommand(h.command)),
    );
    const group: CodexHookGroup = {
      ...(spec.matcher === undefined ? {} : { matcher: spec.matcher }),
      hooks: [
        { type: 'command', command: codexHookCommand(shim, spec.event), timeout: spec.timeout },
      ],
    };
    groups.push(group);
    hooks[spec.event] = groups;
    const key = trustKey(hooksPath, spec.event, groups.length - 1, 0);
    trust.push(
      `[hooks.state.${tomlString(key)}]\ntrusted_hash = ${tomlString(trustHash(spec.event, group, group.hooks[0]!))}`,
    );
  }
  return { hooksText: `${JSON.stringify({ ...file, hooks }, null, 2)}\n`, trust };
}

function configBlock(existing: string, shim: ShimLocation, trust: string[]): string {
  const lines = [BEGIN];
  // The user may have registered shim's server themselves: one table per name only.
  if (!/^\[mcp_servers\.shim\]/m.test(existing)) {
    lines.push(
      '[mcp_servers.shim]',
      `command = ${tomlString(shim.node)}`,
      `args = [${tomlString(shim.bin)}, "mcp"]`,
      '',
    );
  }
  lines.push(trust.join('\n\n'), END, '');
  const lead = existing === '' ? '' : existing.endsWith('\n') ? '\n' : '\n\n';
  return `${lead}${lines.join('\n')}`;
}

function report(
  changed: boolean,
  dryRun: boolean,
  files: InstallReport['files'],
  notes: string[],
): InstallReport {
  return { agent: 'codex', changed, dryRun, files, notes };
}

export function installCodex(request: InstallRequest): InstallReport {
  if (request.scope !== 'user') {
    return report(
      false,
      request.dryRun,
      [],
      [
        'Codex reads project hooks only from trusted projects: shim installs into $CODEX_HOME (user scope); run without --project',
      ],
    );
  }
  const env: Env = request.env;
  const hooksPath = join(getCodexHome(env), 'hooks.json');
  const configPath = getCodexConfigPath(env);
  const previous = loadRecord(request.home);
  if (previous && isInstalledAsRecorded(previous, request.shim)) {
    return report(
      false,
      request.dryRun,
      [],
      ['shim is already installed into Codex; nothing changed'],
    );
  }
  // Installed before, differently (another shim location, edited files): start from the user's.
  if (previous && !request.dryRun) uninstallCodex({ ...request });
  const hooksBefore = existsSync(hooksPath) ? readFileSync(hooksPath, 'utf8') : null;
  const configBefore = existsSync(configPath) ? readFileSync(configPath, 'utf8') : '';
  const { hooksText, trust } = plan(hooksPath, hooksBefore, request.shim);
  const block = configBlock(configBefore, request.shim, trust);
  const files = [
    { path: hooksPath, changes: CODEX_HOOKS.map((h) => `hook ${h.event} → shim`) },
    { path: configPath, changes: ['MCP server shim', `trust for ${CODEX_HOOKS.length} hooks`] },
  ];
  if (request.dryRun) return report(true, true, files, []);
  mkdirSync(dirname(hooksPath), { recursive: true });
  const record: Record_ = {
    hooksPath,
    hooksCreated: hooksBefore === null,
    hooksBefore,
    hooksAfter: hooksText,
    configPath,
    configCreated: !existsSync(configPath),
    block,
  };
  ensureDir(request.home, 'installs');
  writeFileSafely(recordPath(request.home), `${JSON.stringify(record)}\n`);
  writeFileSync(hooksPath, hooksText);
  writeFileSync(configPath, configBefore + block);
  return report(true, false, files, [
    'Codex runs these hooks without asking: their trust entries are in config.toml (see them with /hooks in Codex)',
  ]);
}

/** Both files still hold what this install wrote, for this shim. */
function isInstalledAsRecorded(record: Record_, shim: ShimLocation): boolean {
  try {
    return (
      readFileSync(record.hooksPath, 'utf8') === record.hooksAfter &&
      readFileSync(record.configPath, 'utf8').includes(record.block) &&
      record.hooksAfter.includes(
        JSON.stringify(codexHookCommand(shim, 'SessionStart')).slice(1, -1),
      )
    );
  } catch {
    return false;
  }
}

function loadRecord(home: string): Record_ | null {
  try {
    return JSON.parse(readFileSync(recordPath(home), 'utf8')) as Record_;
  } catch {
    return null;
  }
}

export function uninstallCodex(request: Omit<InstallRequest, 'dryRun'>): InstallReport {
  const record = loadRecord(request.home);
  if (!record)
    return report(
      false,
      false,
      [],
      ['shim was not installed into Codex (no record under SHIM_HOME)'],
    );
  const notes: string[] = [];
  const files: InstallReport['files'] = [];
  // config.toml: exactly the bytes shim appended come out.
  if (existsSync(record.configPath)) {
    const text = readFileSync(record.configPath, 'utf8');
    if (text === record.block && record.configCreated) rmSync(record.configPath);
    else if (text.includes(record.block))
      writeFileSync(record.configPath, text.replace(record.block, ''));
    else
      notes.push(
        `${record.configPath} no longer holds shim's block as written: remove the lines between "${BEGIN.slice(0, 12)}…" and "${END}" by hand`,
      );
    files.push({ path: record.configPath, changes: ['MCP server and hook trust removed'] });
  }
  // hooks.json: as it was when nobody changed it since; else shim's groups taken out.
  if (existsSync(record.hooksPath)) {
    const text = readFileSync(record.hooksPath, 'utf8');
    if (text === record.hooksAfter) {
      if (record.hooksBefore === null) rmSync(record.hooksPath);
      else writeFileSync(record.hooksPath, record.hooksBefore);
    } else {
      const file = JSON.parse(text) as HooksFile;
      for (const [event, groups] of Object.entries(file.hooks ?? {})) {
        const kept = groups.filter((g) => !g.hooks?.some((h) => isShimCommand(h.command)));
        if (kept.length > 0) file.hooks![event] = kept;
        else delete file.hooks![event];
      }
      writeFileSync(record.hooksPath, `${JSON.stringify(file, null, 2)}\n`);
      notes.push(
        `${record.hooksPath} had changed since the install: shim's hooks were taken out, the rest rewritten`,
      );
    }
    files.push({
      path: record.hooksPath,
      changes: CODEX_HOOKS.map((h) => `hook ${h.event} removed`),
    });
  }
  rmSync(recordPath(request.home), { force: true });
  return report(true, false, files, notes);
}

/** Whether `shim install --agent codex` recorded an install under SHIM_HOME. */
export function isCodexInstallRecorded(home: string): boolean {
  return loadRecord(home) !== null;
}

export type CodexHookTrust = {
  hook: string;
  /** The `[hooks.state."<key>"]` table Codex looks for. */
  key: string;
  state: 'trusted' | 'untrusted' | 'modified';
};

/** What `shim doctor` sees: shim's hooks present, and whether config.toml trusts each as it is. */
export function checkCodexTrust(env: Env): CodexHookTrust[] {
  const hooksPath = join(getCodexHome(env), 'hooks.json');
  let file: HooksFile;
  let config = '';
  try {
    file = JSON.parse(readFileSync(hooksPath, 'utf8')) as HooksFile;
  } catch {
    return [];
  }
  try {
    config = readFileSync(getCodexConfigPath(env), 'utf8');
  } catch {
    // no config: nothing is trusted
  }
  const out: CodexHookTrust[] = [];
  for (const [event, groups] of Object.entries(file.hooks ?? {})) {
    groups.forEach((group, g) =>
      group.hooks?.forEach((handler, h) => {
        if (!isShimCommand(handler.command)) return;
        const key = trustKey(hooksPath, event, g, h);
        const at = config.indexOf(`[hooks.state.${tomlString(key)}]`);
        if (at < 0) return void out.push({ hook: event, key, state: 'untrusted' });
        const hash = /trusted_hash\s*=\s*"([^"]+)"/.exec(config.slice(at))?.[1];
        out.push({
          hook: event,
          key,
          state: hash === trustHash(event, group, handler) ? 'trusted' : 'modified',
        });
      }),
    );
  }
  return out;
}
