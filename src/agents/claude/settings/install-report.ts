/**
 * What `shim install` and `shim uninstall` say of Claude Code's settings, line by line (the
 * adapter's InstallReport.lines), and their JSON (its `details`).
 * @module
 */
import type { ShimLocation } from '../../agent.ts';
import { describeChange } from './describe-change.ts';
import type { InstallResult } from './install.ts';
import { hookCommand } from './shim-command.ts';
import type { UninstallResult } from './uninstall.ts';

export function installLines(result: InstallResult, invocation: ShimLocation): string[] {
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
  if (result.backupPath) out.push(`Backup of the previous file: ${result.backupPath}`);
  if (!result.dryRun) out.push(`To undo: ${result.undo}`);
  return out;
}

function summary(result: UninstallResult): string {
  const where = `${result.settingsPath} (${result.scope} settings)`;
  switch (result.method) {
    case 'restored-backup':
      return `Removed shim from ${where}: the file is byte for byte what it was before \`shim install\`.`;
    case 'removed-file':
      return `Removed shim from ${where}: shim had created the file, so it is deleted again.`;
    case 'surgical':
      return `Removed shim's entries from ${where}; the file was changed since the install, and those changes stay.`;
    case 'nothing-to-do':
      return `shim is not installed in ${where}; nothing to do.`;
    default:
      return result.method satisfies never;
  }
}

export function uninstallLines(result: UninstallResult): string[] {
  const out = [summary(result), ...result.changes.map((c) => `  ${describeChange(c)}`)];
  for (const note of result.notes) out.push(`note: ${note}`);
  return out;
}
