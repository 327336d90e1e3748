import { describeChange } from '../../agents/claude/settings/describe-change.ts';
import { uninstallShim, type UninstallResult } from '../../agents/claude/settings/uninstall.ts';
import { createInterface } from 'node:readline/promises';
import { findLeftovers, purge, type Leftovers } from '../../app/retention/purge.ts';
import { getShimHome } from '../../store/home/home.ts';
import { formatBytes } from '../format/units.ts';
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

function describeLeftovers(l: Leftovers): string {
  const refs = l.snapshotRepos.reduce((n, r) => n + r.refs, 0);
  const parts = [
    l.homeExists
      ? `${l.home} (${formatBytes(l.homeBytes)}: ${l.checkpoints} checkpoint${l.checkpoints === 1 ? '' : 's'}, handoffs, logs)`
      : null,
    refs > 0
      ? `${refs} git snapshot ref${refs === 1 ? '' : 's'} (refs/shim/snapshots/) in ${l.snapshotRepos.map((r) => r.repo).join(', ')}`
      : null,
  ].filter((p) => p !== null);
  return parts.length === 0
    ? 'shim left nothing else behind.'
    : `Still here: ${parts.join('; ')}. \`shim uninstall --purge\` removes them too.`;
}

async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}

export async function runUninstall(options: {
  project?: boolean;
  user?: boolean;
  json?: boolean;
  purge?: boolean;
  yes?: boolean;
}): Promise<void> {
  const home = getShimHome();
  const result = uninstallShim({
    scope: options.project ? 'project' : 'user',
    home,
    env: process.env,
    cwd: process.cwd(),
  });
  const leftovers = await findLeftovers(home);
  let purged: { refs: number; home: boolean } | null = null;
  if (options.purge) {
    const ask = process.stdin.isTTY === true && !options.yes && !options.json;
    if (
      !ask ||
      (await confirm(
        `Delete ${home} and every shim snapshot ref? Checkpoints cannot be restored after this.`,
      ))
    ) {
      purged = { refs: purge(leftovers), home: leftovers.homeExists };
    }
  }
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ ...result, leftovers, purged }, null, 2)}\n`);
    return;
  }
  const out = [summary(result), ...result.changes.map((c) => `  ${describeChange(c)}`)];
  for (const note of result.notes) out.push(`note: ${note}`);
  // The backup lived in SHIM_HOME: after a purge it is gone too.
  if (result.backupPath && !purged)
    out.push(dim(`Copy of the file before this: ${result.backupPath}`));
  if (purged) {
    out.push(
      `Purged: ${purged.home ? `${home} deleted` : `${home} was not there`}, ${purged.refs} snapshot ref${purged.refs === 1 ? '' : 's'} deleted.`,
    );
  } else out.push(dim(describeLeftovers(leftovers)));
  process.stdout.write(`${out.join('\n')}\n`);
}
