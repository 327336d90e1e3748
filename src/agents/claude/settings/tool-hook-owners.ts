/**
 * Whether anything besides shim answers Claude Code's per-tool-call hook events in a project:
 * shim's mod may answer those events itself (no process at all) only where no other hook would be
 * skipped with shim's — a mod that answers without `next()` runs nothing beneath it, the user's
 * own hooks included (docs/claude-code.md, "Mods"). Read from the settings files Claude Code
 * merges (managed, user, project, local); an enabled plugin other than shim's, or a file that
 * cannot be read, counts as another hook (it may carry some).
 * @module
 */
import { readFileSync } from 'node:fs';
import type { Env } from '../../../store/home/home.ts';
import { isJsonObject, type JsonObject } from './json-text.ts';
import { getLocalSettingsPath, getSettingsPath } from './settings-file.ts';
import { isShimHookHandler } from './shim-command.ts';

export const PER_CALL_EVENTS = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'] as const;
export type PerCallEvent = (typeof PER_CALL_EVENTS)[number];

/** Where Claude Code reads managed (policy) settings on Linux. */
const MANAGED_SETTINGS = '/etc/claude-code/managed-settings.json';
/** shim's own plugins: the mod's (`shim install`) and the prebuilt one. */
const SHIM_PLUGIN = /^shim(?:-mod)?@/;

type Settings = JsonObject | 'unreadable' | null;

function readSettings(path: string): Settings {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? null : 'unreadable';
  }
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? value : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

/** True when the settings hold a handler for `event` that is not shim's. */
function othersOn(settings: JsonObject, event: PerCallEvent): boolean {
  const hooks = settings.hooks;
  if (hooks === undefined) return false;
  if (!isJsonObject(hooks)) return true;
  const groups = hooks[event];
  if (groups === undefined) return false;
  if (!Array.isArray(groups)) return true;
  return groups.some(
    (group) =>
      !isJsonObject(group) ||
      !Array.isArray(group.hooks) ||
      group.hooks.some((handler) => !isShimHookHandler(handler)),
  );
}

function foreignPlugins(settings: JsonObject): boolean {
  const enabled = settings.enabledPlugins;
  if (!isJsonObject(enabled)) return false;
  return Object.entries(enabled).some(([id, on]) => on === true && !SHIM_PLUGIN.test(id));
}

/** For each per-call event: true when a hook other than shim's may answer it in `cwd`. */
export function findOtherToolHooks(
  cwd: string | null,
  env: Env,
  managedPath = MANAGED_SETTINGS,
): Record<PerCallEvent, boolean> {
  const paths = [managedPath, getSettingsPath('user', { env, cwd: cwd ?? '/' })];
  if (cwd) paths.push(getSettingsPath('project', { env, cwd }), getLocalSettingsPath(cwd));
  const files = paths.map(readSettings);
  const unsure = !cwd || files.some((f) => f === 'unreadable' || (f !== null && foreignPlugins(f)));
  const found = (event: PerCallEvent) =>
    unsure || files.some((f) => f !== null && f !== 'unreadable' && othersOn(f, event));
  return {
    PreToolUse: found('PreToolUse'),
    PostToolUse: found('PostToolUse'),
    PostToolUseFailure: found('PostToolUseFailure'),
  };
}
