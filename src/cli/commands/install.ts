/**
 * `shim install [--agent <agent>]` / `shim uninstall [--agent <agent>]`: through the agent's
 * adapter (agents/agent.ts `installer`), printing what changed — the agent's own lines where it
 * gives them, else its files and notes; `--json` prints its report (or its own details).
 * `--purge` removes what shim keeps whichever agent it served (SHIM_HOME, snapshot refs).
 * @module
 */
import { createInterface } from 'node:readline/promises';
import { locateShimInvocation } from '../../capture/shim-location.ts';
import type { Agents, InstallReport } from '../../agents/agent.ts';
import type { AgentId } from '../../core/agent-id.ts';
import { findLeftovers, purge, type Leftovers } from '../../app/retention/purge.ts';
import { getShimHome } from '../../store/home/home.ts';
import { formatBytes } from '../format/units.ts';
import { dim } from '../format/text.ts';

function linesOf(report: InstallReport, agentName: string, verb: string): string[] {
  if (report.lines) return report.lines;
  const out = [
    report.changed
      ? `${report.dryRun ? 'Dry run, nothing written. Would have ' : ''}${verb} shim for ${agentName}:`
      : `Nothing to do for ${agentName}.`,
  ];
  for (const file of report.files) {
    out.push(`  ${file.path}`);
    for (const change of file.changes) out.push(`    ${change}`);
  }
  for (const note of report.notes) out.push(`  note: ${note}`);
  return out;
}

export async function runInstall(
  agents: Agents,
  agent: AgentId,
  options: { project?: boolean; dryRun?: boolean; json?: boolean; mod?: boolean },
): Promise<void> {
  const adapter = await agents.adapter(agent);
  const report = adapter.installer.install({
    scope: options.project ? 'project' : 'user',
    shim: locateShimInvocation(),
    dryRun: options.dryRun ?? false,
    home: getShimHome(),
    env: process.env,
    cwd: process.cwd(),
    ...(options.mod !== undefined ? { mod: options.mod } : {}),
  });
  process.stdout.write(
    options.json
      ? `${JSON.stringify(report.details ?? report, null, 2)}\n`
      : `${linesOf(report, adapter.name, 'installed').join('\n')}\n`,
  );
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

export async function runUninstall(
  agents: Agents,
  agent: AgentId,
  options: { project?: boolean; json?: boolean; purge?: boolean; yes?: boolean },
): Promise<void> {
  const home = getShimHome();
  const adapter = await agents.adapter(agent);
  const report = adapter.installer.uninstall({
    scope: options.project ? 'project' : 'user',
    shim: locateShimInvocation(),
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
    process.stdout.write(
      `${JSON.stringify({ ...(report.details ?? report), leftovers, purged }, null, 2)}\n`,
    );
    return;
  }
  const out = linesOf(report, adapter.name, 'uninstalled');
  // The backup lived in SHIM_HOME: after a purge it is gone too.
  if (report.backup && !purged) out.push(dim(`Copy of the file before this: ${report.backup}`));
  if (purged) {
    out.push(
      `Purged: ${purged.home ? `${home} deleted` : `${home} was not there`}, ${purged.refs} snapshot ref${purged.refs === 1 ? '' : 's'} deleted.`,
    );
  } else out.push(dim(describeLeftovers(leftovers)));
  process.stdout.write(`${out.join('\n')}\n`);
}
