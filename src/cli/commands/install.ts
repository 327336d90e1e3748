import { locateShimInvocation } from '../../agents/claude/settings/bin-location.ts';
import { describeChange } from '../../agents/claude/settings/describe-change.ts';
import { installShim } from '../../agents/claude/settings/install.ts';
import { getBuiltModPath, MODS_SINCE } from '../../agents/claude/settings/mod-plugin.ts';
import { detectClaudeVersion } from '../../agents/claude/cli-version.ts';
import { compareVersions } from '../../core/version.ts';
import { existsSync } from 'node:fs';
import { getVersion } from '../version.ts';
import { hookCommand } from '../../agents/claude/settings/shim-command.ts';
import { getShimHome } from '../../store/home/home.ts';
import { dim } from '../format/text.ts';

export type InstallCommandOptions = {
  project?: boolean;
  user?: boolean;
  dryRun?: boolean;
  json?: boolean;
  /** true: --mod, false: --no-mod, undefined: when the Claude Code on PATH loads mods. */
  mod?: boolean;
};

/** Whether to set up shim's mod, and what to say about it. */
function decideMod(
  wanted: boolean | undefined,
  bin: string,
): { mod: { source: string; version: string } | null; note: string | null } {
  if (wanted === false) return { mod: null, note: null };
  const source = getBuiltModPath(bin);
  if (!existsSync(source))
    return {
      mod: null,
      note: `shim's mod was not set up: ${source} is missing (build shim first)`,
    };
  const mod = { source, version: getVersion() };
  if (wanted === true) return { mod, note: null };
  const version = detectClaudeVersion(process.env);
  if (version === null)
    return {
      mod: null,
      note: `no \`claude\` on PATH to ask its version: hooks only. With Claude Code ${MODS_SINCE} or later, \`shim install --mod\` adds shim's mod`,
    };
  if (compareVersions(version, MODS_SINCE) < 0)
    return {
      mod: null,
      note: `Claude Code ${version} loads no mods (${MODS_SINCE}+): hooks only; run \`shim install\` again after upgrading`,
    };
  return { mod, note: null };
}

export async function runInstall(options: InstallCommandOptions): Promise<void> {
  const invocation = locateShimInvocation();
  const decided = decideMod(options.mod, invocation.bin);
  const result = installShim({
    scope: options.project ? 'project' : 'user',
    dryRun: options.dryRun ?? false,
    home: getShimHome(),
    env: process.env,
    cwd: process.cwd(),
    invocation,
    mod: decided.mod,
  });
  if (decided.note) result.notes.push(decided.note);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  const where = `${result.settingsPath} (${result.scope} settings)`;
  const out: string[] = [];
  if (!result.changed) {
    out.push(`shim is already installed in ${where}; nothing changed.`);
  } else {
    out.push(
      result.dryRun
        ? `Dry run, nothing written. shim install would change ${where}:`
        : result.changes.some((c) => !c.kind.startsWith('mcp'))
          ? `Installed shim into ${where}:`
          : "Installed shim's MCP server:",
    );
    for (const change of result.changes) out.push(`  ${describeChange(change)}`);
    out.push(`Each hook runs: ${hookCommand(invocation, '<Event>')}`);
  }
  for (const note of result.notes) out.push(`note: ${note}`);
  if (result.dryRun && result.diff) out.push('', result.diff.trimEnd());
  if (result.backupPath) out.push(dim(`Backup of the previous file: ${result.backupPath}`));
  if (!result.dryRun) out.push(`To undo: ${result.undo}`);
  process.stdout.write(`${out.join('\n')}\n`);
}
