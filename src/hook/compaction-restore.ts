/**
 * The one restore through a compaction, for every agent: the session's exact state as the
 * compaction began, rendered for the agent the hook serves (its name, text limit, task tools),
 * recorded, and said to the user. After it (SessionStart `compact`: Claude Code, Codex CLI), with
 * the agent's own summary to say what it left out; or just before it, where the agent compacts
 * before the next request with no hook in between (compaction-due.ts: Gemini CLI).
 * @module
 */
import { withStore, type Store } from '../app/open-store.ts';
import { checkpointFromLiveTranscript, recordRestore } from '../app/restore/restore-session.ts';
import type { ResumeDetection } from '../core/resume/resume.ts';
import { renderForHook } from './restore-text.ts';
import type { HookOutput } from '../agents/agent.ts';
import type { HookRun } from './hook-run.ts';

/** A PostCompact summary older than this belongs to an earlier compaction. */
const SUMMARY_MAX_AGE_MS = 10 * 60_000;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

async function restoreCompacted(
  store: Store,
  run: HookRun,
  how: {
    explanation: string;
    summary: string | null;
    notes: string;
    said: (checkpointNumber: number) => string;
  },
): Promise<HookOutput> {
  const { payload, home, env, now, agent } = run;
  const sessionId = payload.sessionId!;
  const { checkpoint } = await checkpointFromLiveTranscript({
    store,
    home,
    env,
    now,
    agent,
    transcriptPath: payload.transcriptPath,
    latest: store.checkpoints.getMostRecent(sessionId),
    trigger: 'pre_compact',
    cwd: payload.cwd ?? process.cwd(),
  });
  const detection: ResumeDetection = {
    shouldResume: true,
    lastCheckpointId: checkpoint.id,
    interruptionReason: 'compaction',
    timeSinceInterruption: 0,
    confidence: 1,
    explanation: how.explanation,
  };
  const prompt = renderForHook(run, store, checkpoint, detection, { compactSummary: how.summary });
  recordRestore(store, {
    checkpoint,
    intoSession: sessionId,
    detection,
    now,
    notes: how.notes,
    restoreText: prompt,
    compactSummary: how.summary,
    messagesAtRestore: checkpoint.signals.messageCount,
  });
  return {
    context: prompt,
    userMessage: `shim: ${how.said(checkpoint.checkpointNumber)}: ${plural(checkpoint.taskState.items.length, 'task')}, ${plural(checkpoint.conversationState.userRequests.length, 'request')}.`,
  };
}

/** SessionStart after a compaction: the state as it began, on top of the agent's summary. */
export async function restoreAfterCompaction(store: Store, run: HookRun): Promise<HookOutput> {
  const { payload, now, agent } = run;
  // A PostCompact hook may have handed over the agent's summary; else it is in the log.
  const recent = new Date(now - SUMMARY_MAX_AGE_MS).toISOString();
  const summary =
    store.compactionSummaries.getLatest(payload.sessionId!, recent)?.summary ??
    (payload.transcriptPath ? agent.log.compactSummary(payload.transcriptPath) : null);
  return restoreCompacted(store, run, {
    explanation: `${agent.name} compacted this session; its exact state is restored on top of the summary.`,
    summary,
    notes: 'SessionStart compact',
    said: (n) => `restored checkpoint #${n} after the compaction`,
  });
}

/** A compaction the next request will make (compaction-due.ts finds it): where the context is. */
export type DueCompaction = { contextTokens: number; threshold: number };

/** Just before a compaction that is due (compaction-due.ts): the state, kept through it. */
export async function restoreBeforeCompaction(
  run: HookRun,
  due: DueCompaction,
): Promise<HookOutput> {
  const { payload, home, agent } = run;
  return withStore(home, (store) =>
    restoreCompacted(store, run, {
      explanation: `${agent.name} compacts this session now (context ${due.contextTokens} of ${due.threshold} tokens); its exact state is kept here beside the summary.`,
      summary: null,
      notes: `${agent.name} ${String(payload.raw.hook_event_name ?? payload.event)} before compaction`,
      said: (n) => `checkpoint #${n} kept through the compaction`,
    }),
  );
}
