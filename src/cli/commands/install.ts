/**
 * `shim install [--agent <agent>]` / `shim uninstall [--agent <agent>]`: through the agent's
 * adapter (agents/agent.ts `installer`), printing what changed — the agent's own lines where it
 * gives them, else its files and notes; `--json` prints its report (or its own details).
 * Without --agent: every agent found on this machine (`installer.found`), each said with why;
 * `--json` then prints a list of `{ agent, foundBy, result }`. None found: a usage error naming
 * the flag. `--purge` removes what shim keeps whichever agent it served (SHIM_HOME, snapshot refs).
 * @module
 */
import { createInterface } from 'node:readline/promises';
import { locateShimInvocation } from '../../capture/shim-location.ts';
import type { AgentAdapter, Agents, InstallReport } from '../../agents/agent.ts';
import type { AgentId } from '../../core/agent-id.ts';
import { AppError } from '../../core/errors.ts';
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

type Chosen = { adapter: AgentAdapter; foundBy: string | null };

/** The named agent; else every agent found on this machine; none found: said, with the flag. */
async function chooseAgents(
  agents: Agents,
  agent: AgentId | undefined,
  command: 'install' | 'uninstall',
): Promise<Chosen[]> {
  if (agent !== undefined) return [{ adapter: await agents.adapter(agent), foundBy: null }];
  const chosen: Chosen[] = [];
  for (const id of agents.ids) {
    const adapter = await agents.adapter(id);
    const foundBy = adapter.installer.found(process.env);
    if (foundBy !== null) chosen.push({ adapter, foundBy });
  }
  if (chosen.length > 0) return chosen;
  throw new AppError(
    'USAGE',
    `no agent found on this machine (none of ${agents.ids.join(', ')} is on PATH, and none of their settings directories exists)`,
    `name the agent: shim ${command} --agent <${agents.ids.join('|')}>`,
  );
}

/**
 * "Found Claude Code (claude on PATH), Codex CLI (~/.codex exists)…" on stderr when none was
 * named: stdout stays each agent's report, as with --agent.
 */
function sayFound(chosen: readonly Chosen[]): void {
  if (chosen[0]?.foundBy === null) return;
  const found = chosen.map((c) => `${c.adapter.name} (${c.foundBy})`).join(', ');
  process.stderr.write(`Found ${found}; --agent <agent> names one.\n`);
}

export async function runInstall(
  agents: Agents,
  agent: AgentId | undefined,
  options: { project?: boolean; dryRun?: boolean; json?: boolean; mod?: boolean },
): Promise<void> {
  const chosen = await chooseAgents(agents, agent, 'install');
  const shim = locateShimInvocation();
  const done = chosen.map(({ adapter, foundBy }) => ({
    adapter,
    foundBy,
    report: adapter.installer.install({
      scope: options.project ? 'project' : 'user',
      shim,
      dryRun: options.dryRun ?? false,
      home: getShimHome(),
      env: process.env,
      cwd: process.cwd(),
      ...(options.mod !== undefined ? { mod: options.mod } : {}),
    }),
  }));
  if (options.json) {
    const json =
      agent !== undefined
        ? (done[0]!.report.details ?? done[0]!.report)
        : done.map((d) => ({
            agent: d.adapter.id,
            foundBy: d.foundBy,
            result: d.report.details ?? d.report,
          }));
    process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    return;
  }
  sayFound(chosen);
  const lines = done.flatMap((d) => linesOf(d.report, d.adapter.name, 'installed'));
  process.stdout.write(`${lines.join('\n')}\n`);
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
  agent: AgentId | undefined,
  options: { project?: boolean; json?: boolean; purge?: boolean; yes?: boolean },
): Promise<void> {
  const home = getShimHome();
  const chosen = await chooseAgents(agents, agent, 'uninstall');
  const shim = locateShimInvocation();
  const done = chosen.map(({ adapter, foundBy }) => ({
    adapter,
    foundBy,
    report: adapter.installer.uninstall({
      scope: options.project ? 'project' : 'user',
      shim,
      home,
      env: process.env,
      cwd: process.cwd(),
    }),
  }));
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
    const json =
      agent !== undefined
        ? { ...(done[0]!.report.details ?? done[0]!.report), leftovers, purged }
        : {
            agents: done.map((d) => ({
              agent: d.adapter.id,
              foundBy: d.foundBy,
              result: d.report.details ?? d.report,
            })),
            leftovers,
            purged,
          };
    process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    return;
  }
  sayFound(chosen);
  const out: string[] = [];
  for (const { adapter, report } of done) {
    out.push(...linesOf(report, adapter.name, 'uninstalled'));
    // The backup lived in SHIM_HOME: after a purge it is gone too.
    if (report.backup && !purged) out.push(dim(`Copy of the file before this: ${report.backup}`));
  }
  if (purged) {
    out.push(
      `Purged: ${purged.home ? `${home} deleted` : `${home} was not there`}, ${purged.refs} snapshot ref${purged.refs === 1 ? '' : 's'} deleted.`,
    );
  } else out.push(dim(describeLeftovers(leftovers)));
  process.stdout.write(`${out.join('\n')}\n`);
}
