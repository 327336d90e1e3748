import type { Agents } from '../../agents/agent.ts';
import pc from 'picocolors';
import { locateShimInvocation } from '../../capture/shim-location.ts';
import { runDoctor, type CheckStatus } from '../../app/doctor/run-doctor.ts';
import { clearCheckpointFailures } from '../../store/cache/checkpoint-failures.ts';
import { clearFailedPendingCheckpoints } from '../../store/checkpoints/pending-checkpoints.ts';
import { getShimHome } from '../../store/home/home.ts';
import { ExitError } from '../error-boundary.ts';

const MARK: Record<CheckStatus, string> = {
  ok: pc.green('✓'),
  warn: pc.yellow('!'),
  fail: pc.red('✗'),
};

const TITLE_WIDTH = 24;

export async function runDoctorCommand(
  agents: Agents,
  options: { json?: boolean; clearFailures?: boolean },
): Promise<void> {
  const cleared = options.clearFailures ? clearCheckpointFailures(getShimHome()) : null;
  const clearedAside = options.clearFailures ? clearFailedPendingCheckpoints(getShimHome()) : null;
  if (cleared !== null && !options.json)
    process.stdout.write(
      `cleared ${cleared} recorded checkpoint failure${cleared === 1 ? '' : 's'}${clearedAside ? ` and ${clearedAside} set-aside note${clearedAside === 1 ? '' : 's'} of risky commands' checkpoints (their git snapshots stay under refs/shim/snapshots/)` : ''}\n\n`,
    );
  const report = await runDoctor({
    agents,
    home: getShimHome(),
    env: process.env,
    cwd: process.cwd(),
    invocation: locateShimInvocation(),
  });
  if (options.json) {
    const json =
      cleared === null
        ? report
        : { ...report, clearedFailures: cleared, clearedSetAside: clearedAside ?? 0 };
    process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  } else {
    const out: string[] = [];
    for (const c of report.checks) {
      out.push(`${MARK[c.status]} ${c.title.padEnd(TITLE_WIDTH)}${c.detail}`);
      if (c.fix && c.status !== 'ok')
        out.push(`  ${' '.repeat(TITLE_WIDTH)}${pc.dim(`fix: ${c.fix}`)}`);
    }
    const failed = report.checks.filter((c) => c.essential && c.status !== 'ok').length;
    out.push(
      '',
      report.healthy
        ? pc.green('shim is healthy')
        : pc.red(`${failed} essential check${failed === 1 ? '' : 's'} failed; see the fixes above`),
    );
    process.stdout.write(`${out.join('\n')}\n`);
  }
  if (!report.healthy) throw new ExitError(1);
}
