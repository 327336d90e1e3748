/**
 * The Claude Code settings that decide where it compacts: `autoCompactWindow` (top level and
 * `modelSettings[<model>]`) and the threshold variables in each file's `env` block, from the
 * files Claude Code reads for a project, highest precedence first: managed, local
 * (.claude/settings.local.json), project (.claude/settings.json), user (~/.claude/settings.json).
 * Facts: docs/claude-code.md, "Context window and the auto-compact threshold".
 * @module
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { pickThresholdEnv, type SettingsScope, type SettingsWindows } from './compact-window.ts';
import type { Env } from '../../../store/home/home.ts';
import { getClaudeConfigDir } from '../sessions.ts';

export type CompactSettings = {
  /** Files that set a compaction window, highest precedence first. */
  windows: SettingsWindows[];
  /** Threshold variables from the files' `env` blocks, the higher file winning. */
  env: Record<string, string>;
};

/** Where an administrator's managed settings live on this platform. */
export function getManagedSettingsPath(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode/managed-settings.json';
  if (platform === 'win32') return 'C:\\Program Files\\ClaudeCode\\managed-settings.json';
  return '/etc/claude-code/managed-settings.json';
}

export type SettingsLocations = {
  /** The session's project directory (its cwd); null reads the user and managed files only. */
  cwd: string | null;
  env: Env;
  managedPath?: string;
};

/** `~/.claude.json`, or `.claude.json` inside CLAUDE_CONFIG_DIR when that is set. */
export function getGlobalConfigPath(env: Env): string {
  const configured = env.CLAUDE_CONFIG_DIR?.trim();
  return configured ? join(resolve(configured), '.claude.json') : join(homedir(), '.claude.json');
}

function settingsFiles(where: SettingsLocations): Array<{ scope: SettingsScope; path: string }> {
  const files: Array<{ scope: SettingsScope; path: string }> = [
    { scope: 'managed', path: where.managedPath ?? getManagedSettingsPath() },
  ];
  if (where.cwd) {
    files.push({ scope: 'local', path: join(where.cwd, '.claude', 'settings.local.json') });
    files.push({ scope: 'project', path: join(where.cwd, '.claude', 'settings.json') });
  }
  files.push({ scope: 'user', path: join(getClaudeConfigDir(where.env), 'settings.json') });
  // The global config `/config` writes (autoCompactEnabled lives there, default true).
  files.push({ scope: 'user', path: getGlobalConfigPath(where.env) });
  return files;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const tokens = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : null;

function readSettingsFile(path: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return isObject(value) ? value : null;
  } catch {
    // Missing or unreadable: Claude Code skips it too (doctor reports broken settings).
    return null;
  }
}

export function readCompactSettings(where: SettingsLocations): CompactSettings {
  const windows: SettingsWindows[] = [];
  const envLayers: Array<Record<string, string>> = [];
  for (const { scope, path } of settingsFiles(where)) {
    const settings = readSettingsFile(path);
    if (!settings) continue;
    const modelWindows: Record<string, number> = {};
    if (isObject(settings.modelSettings)) {
      for (const [model, entry] of Object.entries(settings.modelSettings)) {
        const value = isObject(entry) ? tokens(entry.autoCompactWindow) : null;
        if (value !== null) modelWindows[model] = value;
      }
    }
    const autoCompactWindow = tokens(settings.autoCompactWindow);
    const autoCompactEnabled =
      typeof settings.autoCompactEnabled === 'boolean' ? settings.autoCompactEnabled : null;
    if (
      autoCompactWindow !== null ||
      Object.keys(modelWindows).length > 0 ||
      autoCompactEnabled !== null
    )
      windows.push({ scope, path, autoCompactWindow, modelWindows, autoCompactEnabled });
    if (isObject(settings.env)) {
      const strings: Record<string, string> = {};
      for (const [key, value] of Object.entries(settings.env))
        if (typeof value === 'string' || typeof value === 'number') strings[key] = String(value);
      envLayers.push(pickThresholdEnv(strings));
    }
  }
  // Lowest precedence first, so the higher file's value is the one left standing.
  return { windows, env: Object.assign({}, ...envLayers.reverse()) as Record<string, string> };
}
