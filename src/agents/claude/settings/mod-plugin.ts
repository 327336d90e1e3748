/**
 * shim's mod as `shim install` sets it up: a one-plugin marketplace under SHIM_HOME/mod (the mod
 * file is copied from the shim that installs it), declared in the settings file with
 * `extraKnownMarketplaces` and switched on with `enabledPlugins`. Claude Code 2.1.330 loads a
 * plugin of a directory marketplace declared in settings in place, with no `claude plugin
 * install` (checked offline, docs/claude-code.md "Mods"). The plugin carries the mod and shim's
 * slash commands: the hooks and the MCP server stay where `shim install` puts them.
 * @module
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ensureDir } from '../../../store/home/home.ts';
import { writeFileSafely } from '../../../store/home/safe-file.ts';
import type { Json, JsonObject } from './json-text.ts';
import { quoteForShell, type ShimInvocation } from './shim-command.ts';
import { slashCommandFiles } from './slash-commands.ts';

/** The marketplace's and the plugin's name: `enabledPlugins` calls it `shim-mod@shim-mod`. */
export const MOD_MARKETPLACE = 'shim-mod';
export const MOD_PLUGIN = 'shim-mod';
export const MOD_PLUGIN_KEY = `${MOD_PLUGIN}@${MOD_MARKETPLACE}`;
/** Claude Code loads mods from this version on. */
export const MODS_SINCE = '2.1.287';

export type ModChange = { kind: 'mod-added'; path: string } | { kind: 'mod-removed'; path: string };

export function getModMarketplaceDir(home: string): string {
  return join(home, 'mod');
}

/** The mod file next to the shim that runs (`<package>/dist/shim-mod.js`). */
export function getBuiltModPath(bin: string): string {
  return join(dirname(bin), '..', 'dist', 'shim-mod.js');
}

/**
 * Writes (or refreshes) the marketplace and its plugin under SHIM_HOME/mod: the mod, and shim's
 * slash commands (`/checkpoint`, `/shard`), which start this shim.
 */
export function writeModPlugin(
  home: string,
  modSource: string,
  version: string,
  invocation: ShimInvocation,
): string {
  const source = readFileSync(modSource, 'utf8');
  const market = ensureDir(home, 'mod', '.claude-plugin');
  writeFileSafely(
    join(market, 'marketplace.json'),
    `${JSON.stringify(
      {
        name: MOD_MARKETPLACE,
        owner: { name: 'shim' },
        plugins: [
          {
            name: MOD_PLUGIN,
            source: `./${MOD_PLUGIN}`,
            description: "shim's mod: each response's usage, live, for shim (no process per call)",
          },
        ],
      },
      null,
      2,
    )}\n`,
    0o644,
  );
  const manifest = ensureDir(home, 'mod', MOD_PLUGIN, '.claude-plugin');
  writeFileSafely(
    join(manifest, 'plugin.json'),
    `${JSON.stringify({ name: MOD_PLUGIN, version, description: "shim's mod" }, null, 2)}\n`,
    0o644,
  );
  const hooks = ensureDir(home, 'mod', MOD_PLUGIN, 'hooks');
  writeFileSafely(
    join(hooks, 'hooks.json'),
    `${JSON.stringify({ modules: ['./shim-mod.js'] }, null, 2)}\n`,
    0o644,
  );
  writeFileSafely(join(hooks, 'shim-mod.js'), source, 0o644);
  const commands = ensureDir(home, 'mod', MOD_PLUGIN, 'commands');
  const start = `${quoteForShell(invocation.node)} ${quoteForShell(invocation.bin)}`;
  for (const command of slashCommandFiles(start))
    writeFileSafely(join(commands, command.name), command.text, 0o644);
  return getModMarketplaceDir(home);
}

const isObject = (v: Json | undefined): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Which containers shim created for the mod, so uninstall can take them away again. */
export type ModContainers = { marketplaces: boolean; plugins: boolean };

/** The settings with shim's marketplace declared and its plugin enabled. */
export function addShimMod(
  settings: JsonObject,
  marketplaceDir: string,
  path: string,
): { settings: JsonObject; changes: ModChange[]; created: ModContainers } {
  const marketplaces = isObject(settings.extraKnownMarketplaces)
    ? settings.extraKnownMarketplaces
    : null;
  const plugins = isObject(settings.enabledPlugins) ? settings.enabledPlugins : null;
  const wanted: JsonObject = { source: { source: 'directory', path: marketplaceDir } };
  const present =
    JSON.stringify(marketplaces?.[MOD_MARKETPLACE]) === JSON.stringify(wanted) &&
    plugins?.[MOD_PLUGIN_KEY] === true;
  const created = { marketplaces: marketplaces === null, plugins: plugins === null };
  if (present) return { settings, changes: [], created: { marketplaces: false, plugins: false } };
  return {
    settings: {
      ...settings,
      extraKnownMarketplaces: { ...(marketplaces ?? {}), [MOD_MARKETPLACE]: wanted },
      enabledPlugins: { ...(plugins ?? {}), [MOD_PLUGIN_KEY]: true },
    },
    changes: [{ kind: 'mod-added', path }],
    created,
  };
}

/** The settings without shim's marketplace and plugin; containers shim created go when empty. */
export function removeShimMod(
  settings: JsonObject,
  created: ModContainers | null,
  path: string,
): { settings: JsonObject; changes: ModChange[] } {
  const marketplaces = isObject(settings.extraKnownMarketplaces)
    ? settings.extraKnownMarketplaces
    : null;
  const plugins = isObject(settings.enabledPlugins) ? settings.enabledPlugins : null;
  if (!(marketplaces && MOD_MARKETPLACE in marketplaces) && !(plugins && MOD_PLUGIN_KEY in plugins))
    return { settings, changes: [] };
  const next: JsonObject = { ...settings };
  const prune = (key: string, value: JsonObject | null, entry: string, madeByShim: boolean) => {
    if (!value) return;
    const rest = Object.fromEntries(Object.entries(value).filter(([k]) => k !== entry));
    if (Object.keys(rest).length === 0 && madeByShim) delete next[key];
    else next[key] = rest;
  };
  prune('extraKnownMarketplaces', marketplaces, MOD_MARKETPLACE, created?.marketplaces ?? false);
  prune('enabledPlugins', plugins, MOD_PLUGIN_KEY, created?.plugins ?? false);
  return { settings: next, changes: [{ kind: 'mod-removed', path }] };
}
