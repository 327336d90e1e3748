/**
 * `shim install --agent <agent>` / `shim uninstall --agent <agent>` for agents other than Claude
 * Code: through the agent's adapter (agents/agent.ts `installer`), printing what changed.
 * @module
 */
import { locateShimInvocation } from '../../agents/claude/settings/bin-location.ts';
import { loadAdapter } from '../../agents/dispatch.ts';
import { agentName, type AgentId } from '../../core/agent-id.ts';
import type { InstallReport } from '../../agents/agent.ts';
import { getShimHome } from '../../store/home/home.ts';

function print(report: InstallReport, json: boolean | undefined, verb: string): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  const out: string[] = [];
  out.push(
    report.changed
      ? `${report.dryRun ? 'Dry run, nothing written. Would have ' : ''}${verb} shim for ${agentName(report.agent)}:`
      : `Nothing to do for ${agentName(report.agent)}.`,
  );
  for (const file of report.files) {
    out.push(`  ${file.path}`);
    for (const change of file.changes) out.push(`    ${change}`);
  }
  for (const note of report.notes) out.push(`  note: ${note}`);
  process.stdout.write(`${out.join('\n')}\n`);
}

export async function runAgentInstall(
  agent: AgentId,
  options: { project?: boolean; dryRun?: boolean; json?: boolean },
): Promise<void> {
  const adapter = await loadAdapter(agent);
  const report = adapter.installer.install({
    scope: options.project ? 'project' : 'user',
    shim: locateShimInvocation(),
    dryRun: options.dryRun ?? false,
    home: getShimHome(),
    env: process.env,
    cwd: process.cwd(),
  });
  print(report, options.json, 'installed');
}

export async function runAgentUninstall(
  agent: AgentId,
  options: { project?: boolean; json?: boolean },
): Promise<void> {
  const adapter = await loadAdapter(agent);
  const report = adapter.installer.uninstall({
    scope: options.project ? 'project' : 'user',
    shim: locateShimInvocation(),
    home: getShimHome(),
    env: process.env,
    cwd: process.cwd(),
  });
  print(report, options.json, 'uninstalled');
}
