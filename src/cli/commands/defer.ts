import { deferNotices } from '../../app/session/defer-notices.ts';
import type { AgentId } from '../../core/agent-id.ts';
import type { Agents } from '../../agents/agent.ts';
import { getShimHome } from '../../store/home/home.ts';
import { dim } from '../format/text.ts';

export type DeferOptions = {
  session?: string;
  agent?: AgentId;
  off?: boolean;
  json?: boolean;
};

export async function runDefer(
  agents: Agents,
  transcript: string | undefined,
  options: DeferOptions,
) {
  const result = await deferNotices({
    ...(transcript !== undefined ? { transcript } : {}),
    ...(options.session !== undefined ? { sessionId: options.session } : {}),
    ...(options.agent !== undefined ? { agent: options.agent } : {}),
    off: options.off === true,
    agents,
    cwd: process.cwd(),
    env: process.env,
    home: getShimHome(),
    now: Date.now(),
  });
  if (options.json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  const session = dim(`session ${result.sessionId.slice(0, 8)}`);
  if (!result.deferral) {
    process.stdout.write(
      result.replaced
        ? `shim: L1/L2 notices are back on (${session}); one held back comes with the next tool call.\n`
        : `shim: nothing was deferred (${session}).\n`,
    );
    return;
  }
  const held = result.deferral.held
    ? ` The ${result.deferral.held} notice already reached waits too.`
    : '';
  process.stdout.write(
    `shim: L1/L2 notices held ${result.until} (${session}); checkpoints go on as usual, and L3 ends it.${held}\n` +
      `${dim('Undo: shim defer --off')}\n`,
  );
}
