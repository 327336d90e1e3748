/**
 * PostCompact: notes the compaction in the session record and keeps Claude Code's own summary
 * (redacted) beside the checkpoint shim restores from, so SessionStart can say what the summary
 * left out and `shim stats` can count it. The restore itself happens at SessionStart.
 * @module
 */
import { withStore } from '../../app/open-store.ts';
import { loadSessionMemory } from '../../app/session/read-session.ts';
import { redactTextSync } from '../../redact/redact.ts';
import type { HookOutput } from '../../agents/agent.ts';
import type { HookRun } from '../hook-run.ts';
import { markCompaction } from '../compaction-mark.ts';

export async function handlePostCompact(run: HookRun): Promise<HookOutput> {
  const { payload, home, now } = run;
  if (!payload.sessionId) return {};
  await markCompaction(run);
  const sessionId = payload.sessionId;
  const at = new Date(now).toISOString();
  await withStore(home, ({ sessions, checkpoints, compactionSummaries }) => {
    sessions.touch(
      { sessionId, transcriptPath: payload.transcriptPath, cwd: payload.cwd, agent: run.agent.id },
      at,
    );
    if (payload.compactSummary) {
      compactionSummaries.saveOnce({
        sessionId,
        recordedAt: at,
        trigger: payload.trigger ?? 'auto',
        // The session's secrets, wherever the summary restates them.
        summary: redactTextSync(
          payload.compactSummary,
          loadSessionMemory(home, payload.transcriptPath),
        ).text,
        checkpointId: checkpoints.getMostRecent(sessionId)?.id ?? null,
      });
    }
  });
  return {};
}
