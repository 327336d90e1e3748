/**
 * Whether `shim install` sets up shim's mod (a Claude Code plugin), and what to say about it:
 * asked for (`--mod`), refused (`--no-mod`), else where the \`claude\` on PATH loads mods.
 * @module
 */
import { existsSync } from 'node:fs';
import { compareVersions } from '../../../core/version.ts';
import type { Env } from '../../../store/home/home.ts';
import { detectClaudeVersion } from '../cli-version.ts';
import { getBuiltModPath, MODS_SINCE } from './mod-plugin.ts';

/** Whether to set up shim's mod, and what to say about it. */
export function decideMod(
  wanted: boolean | undefined,
  bin: string,
  env: Env,
  shimVersion: string,
): { mod: { source: string; version: string } | null; note: string | null } {
  if (wanted === false) return { mod: null, note: null };
  const source = getBuiltModPath(bin);
  if (!existsSync(source))
    return {
      mod: null,
      note: `shim's mod was not set up: ${source} is missing (build shim first)`,
    };
  const mod = { source, version: shimVersion };
  if (wanted === true) return { mod, note: null };
  const claudeVersion = detectClaudeVersion(env);
  if (claudeVersion === null)
    return {
      mod: null,
      note: `no \`claude\` on PATH to ask its version: hooks only. With Claude Code ${MODS_SINCE} or later, \`shim install --mod\` adds shim's mod`,
    };
  if (compareVersions(claudeVersion, MODS_SINCE) < 0)
    return {
      mod: null,
      note: `Claude Code ${claudeVersion} loads no mods (${MODS_SINCE}+): hooks only; run \`shim install\` again after upgrading`,
    };
  return { mod, note: null };
}
