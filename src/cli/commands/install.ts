import { locateShimInvocation } from '../../claude/settings/bin-location.ts';
import { describeChange } from '../../claude/settings/describe-change.ts';
import { installShim } from '../../claude/settings/install.ts';
import { hookCommand } from '../../claude/settings/shim-command.ts';
import { getShimHome } from '../../store/home.ts';
import { dim } from '../format/text.ts';

export type InstallCommandOptions = {
  project?: boolean;
  user?: boolean;
  dryRun?: boolean;
  json?: boolean;
};

export async function runInstall(options: InstallCommandOptions): Promise<void> {
  const invocation = locateShimInvocation();
  const result = installShim({
    scope: options.project ? 'project' : 'user',
    dryRun: options.dryRun ?? false,
    home: getShimHome(),
    env: process.env,
    cwd: process.cwd(),
    invocation,
  });
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
