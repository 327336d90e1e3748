import type { Agents } from '../../agents/agent.ts';
import type { AgentId } from '../../core/agent-id.ts';
import { getSessionStatus } from '../../app/session/status.ts';
import { getShimHome } from '../../store/home/home.ts';
import { warnConfigProblems } from '../format/config-warning.ts';
import { renderStatusText } from '../format/status-text.ts';
import { stdoutColumns, writeStdout } from '../stdout.ts';

export async function runStatus(
  agents: Agents,
  transcript: string | undefined,
  options: { session?: string; json?: boolean; history: boolean; agent?: AgentId },
): Promise<void> {
  const status = await getSessionStatus({
    agents,
    ...(options.agent !== undefined ? { agent: options.agent } : {}),
    ...(transcript !== undefined ? { transcript } : {}),
    ...(options.session !== undefined ? { sessionId: options.session } : {}),
    cwd: process.cwd(),
    env: process.env,
    home: getShimHome(),
    now: Date.now(),
    history: options.history,
  });
  warnConfigProblems({ problems: status.configProblems ?? [] });
  if (options.json) writeStdout(`${JSON.stringify(status, null, 2)}\n`);
  else
    writeStdout(
      `${renderStatusText(status, stdoutColumns() || Number(process.env.COLUMNS) || 100)}\n`,
    );
}
