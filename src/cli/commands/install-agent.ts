/**
 * `shim install --agent <agent>` / `shim uninstall --agent <agent>` for the agents other than
 * Claude Code: their adapter's installer (agents/dispatch.ts), its report printed.
 * @module
 */
import { isAgentId, type AgentId } from '../../core/agent-id.ts';
import { AppError } from '../../core/errors.ts';
import { loadAdapter } from '../../agents/dispatch.ts';
import type { InstallReport } from '../../agents/agent.ts';
import { getShimHome } from '../../store/home.ts';
import { locateShimInvocation } from '../../agents/claude/settings/bin-location.ts';

/** The agent an `--agent` value names; Claude Code when none is given. */
export function readAgentOption(value: string | undefined): AgentId {
  if (value === undefined) return 'claude';
  if (!isAgentId(value))
    throw new AppError('USAGE', `unknown agent "${value}"`, 'use --agent claude, codex or gemini');
  return value;
}

function print(report: InstallReport, json: boolean | undefined): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  for (const file of report.files) {
    process.stdout.write(
      `${report.dryRun ? 'would change' : report.changed ? 'changed' : 'unchanged'} ${file.path}\n`,
    );
    for (const change of file.changes) process.stdout.write(`  ${change}\n`);
  }
  for (const note of report.notes) process.stdout.write(`${note}\n`);
}

export async function runAgentInstall(
  agent: AgentId,
  options: { project?: boolean; dryRun?: boolean; json?: boolean },
): Promise<void> {
  const adapter = await loadAdapter(agent);
  print(
    adapter.installer.install({
      scope: options.project ? 'project' : 'user',
      shim: locateShimInvocation(),
      dryRun: options.dryRun ?? false,
      home: getShimHome(),
      env: process.env,
      cwd: process.cwd(),
    }),
    options.json,
  );
}

export async function runAgentUninstall(
  agent: AgentId,
  options: { project?: boolean; json?: boolean },
): Promise<void> {
  const adapter = await loadAdapter(agent);
  print(
    adapter.installer.uninstall({
      scope: options.project ? 'project' : 'user',
      shim: locateShimInvocation(),
      home: getShimHome(),
      env: process.env,
      cwd: process.cwd(),
    }),
    options.json,
  );
}
