/**
 * SessionStart: records the session. After a compaction, injects the state captured just
 * before it; at startup, injects the resume context of this project's interrupted session.
 * @module
 */
import { withStore } from '../../app/open-store.ts';
import { planResume } from '../../app/plan-resume.ts';
import { renderResumePrompt } from '../../core/resume-prompt.ts';
import { findAgentPid } from '../../capture/agent-process.ts';
import { loadHookMemory, saveHookMemory } from '../../store/hook-memory.ts';
import { HOOK_TEXT_LIMIT, type HookOutput } from '../output.ts';
import type { HookRun } from '../run.ts';

export async function handleSessionStart({ payload, home, now }: HookRun): Promise<HookOutput> {
  const { sessionId, source } = payload;
  if (!sessionId) return {};
  saveHookMemory(home, sessionId, { ...loadHookMemory(home, sessionId), agentPid: findAgentPid() });
  return withStore(home, async (store) => {
    const at = new Date(now).toISOString();
    store.sessions.touch(
      { sessionId, transcriptPath: payload.transcriptPath, cwd: payload.cwd },
      at,
    );
    const checkpoint =
      source === 'compact'
        ? store.checkpoints.getMostRecent(sessionId)
        : source === 'startup' && payload.cwd
          ? store.checkpoints.getMostRecentForCwd(payload.cwd)
          : null;
    if (!checkpoint) return {};
    if (source === 'startup' && checkpoint.sessionId === sessionId) return {};
    const plan = await planResume(store, checkpoint, home, now);
    // After a compaction the checkpoint is always worth having; at startup only when interrupted.
    if (source !== 'compact' && !plan.detection.shouldResume) return {};
    const prompt = renderResumePrompt(checkpoint, plan.detection, { maxChars: HOOK_TEXT_LIMIT });
    store.resumes.record({
      checkpointId: checkpoint.id,
      sessionId,
      restoredAt: at,
      interruptionReason: source === 'compact' ? 'compaction' : plan.detection.interruptionReason,
      timeSinceCheckpoint: now - Date.parse(checkpoint.createdAt),
      resumeConfidence: plan.detection.confidence,
      notes: `SessionStart ${source}`,
    });
    const what =
      source === 'compact'
        ? 'after compaction'
        : `from the interrupted session ${checkpoint.sessionId.slice(0, 8)} (${plan.detection.interruptionReason})`;
    return {
      context: prompt,
      userMessage: `shim: restored checkpoint #${checkpoint.checkpointNumber} ${what}: ${checkpoint.taskState.items.length} tasks, ${checkpoint.conversationState.userRequests.length} requests.`,
    };
  });
}
