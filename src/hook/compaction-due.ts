/**
 * For an agent that compacts before a request once the newest response's context has reached its
 * threshold, with no hook in between (`capabilities.compactsBeforeNextRequest`: Gemini CLI), shim
 * acts one step earlier. When the compaction is due, the hook that runs now — a tool's result
 * (PostToolUse), a new prompt (UserPromptSubmit) — adds the session's state to what the next
 * request carries, which the compaction keeps (it summarises only the older history); and the
 * agent's PreCompact, which then fires before every request, checkpoints only a compaction that is
 * due. Claimed once per compaction (the count of compactions the log shows so far), by whichever
 * hook asks first. docs/agents.md, "The restore after a compression".
 * @module
 */
import { existsSync } from 'node:fs';
import type { HookOutput } from '../agents/agent.ts';
import { loadSessionStateAt } from '../app/session/read-session.ts';
import { getLatestResponse } from '../core/session.ts';
import { claimOnce } from '../store/cache/hook-memory.ts';
import type { HookHandler, HookRun } from './hook-run.ts';
import { loadHeavy } from './load-heavy.ts';
import type { DueCompaction } from './compaction-restore.ts';

/** Will the next request compact? With what the event read, for the handler's look. */
async function compactionDue(
  run: HookRun,
): Promise<{ due: DueCompaction | null; read: HookRun['read'] }> {
  const { payload, home, env, agent } = run;
  if (!payload.transcriptPath || !payload.sessionId || !existsSync(payload.transcriptPath))
    return { due: null, read: undefined };
  const read = await loadSessionStateAt(payload.transcriptPath, home, agent);
  const latest = getLatestResponse(read.state);
  if (!latest) return { due: null, read };
  const session = { ...read.state, cwd: read.state.cwd ?? payload.cwd };
  const threshold = agent.threshold
    .prepare(session, {
      env,
      home,
      now: run.now,
      history: 'none',
      inside: 'hook',
      reportedWindow: null,
    })
    .threshold(session).compactThreshold;
  if (latest.contextTokens < threshold) return { due: null, read };
  if (!claimOnce(home, payload.sessionId, `compact-due-${read.state.compactionCount}`))
    return { due: null, read };
  return { due: { contextTokens: latest.contextTokens, threshold }, read };
}

function merge(a: HookOutput, b: HookOutput): HookOutput {
  const join = (x?: string | null, y?: string | null) =>
    [x, y].filter((s): s is string => Boolean(s)).join('\n\n') || null;
  return {
    ...b,
    context: join(a.context, b.context),
    userMessage: join(a.userMessage, b.userMessage),
  };
}

/** The event's handler, with the state carried through a compaction that is due. */
export async function beforeCompaction(
  event: string,
  run: HookRun,
  handler: HookHandler,
  preCompact: () => Promise<HookHandler>,
): Promise<HookOutput> {
  if (event !== 'PostToolUse' && event !== 'UserPromptSubmit' && event !== 'PreCompact')
    return handler(run);
  const { due, read } = await compactionDue(run);
  // PreCompact fires before every request: only a compaction that is due is checkpointed here
  // (when no tool result or prompt came first to carry the state through it).
  if (event === 'PreCompact') return due ? (await preCompact())(run) : {};
  const withRead = read ? { ...run, read } : run;
  if (!due) return handler(withRead);
  const restore = await (await loadHeavy()).restoreBeforeCompaction(run, due);
  return merge(restore, await handler(withRead));
}
