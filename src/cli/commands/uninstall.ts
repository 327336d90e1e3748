import { describeChange } from '../../claude/settings/describe-change.ts';
import { uninstallShim, type UninstallResult } from '../../claude/settings/uninstall.ts';
import { getShimHome } from '../../store/home.ts';
import { dim } from '../format/text.ts';

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

export async function runUninstall(options: {
  project?: boolean;
  user?: boolean;
  json?: boolean;
}): Promise<void> {
  const result = uninstallShim({
    scope: options.project ? 'project' : 'user',
    home: getShimHome(),
    env: process.env,
    cwd: process.cwd(),
  });
  if (options.json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  const out = [summary(result), ...result.changes.map((c) => `  ${describeChange(c)}`)];
  for (const note of result.notes) out.push(`note: ${note}`);
  if (result.backupPath) out.push(dim(`Copy of the file before this: ${result.backupPath}`));
  process.stdout.write(`${out.join('\n')}\n`);
}
