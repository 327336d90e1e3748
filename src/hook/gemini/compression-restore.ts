/**
 * Gemini CLI compresses its chat before a request whose previous prompt reached the threshold,
 * with no event after it that can add context. So shim acts one step earlier: when the newest
 * response's context has reached the threshold, the next request compresses, and the hook that
 * runs now (AfterTool, BeforeAgent) adds the session's state to what that request carries — the
 * tool result or the prompt, which the compression keeps (it summarises only the older history).
 * Once per compression: the claim is keyed by the compressions the chat shows so far.
 * @module
 */
import { withStore } from '../../app/open-store.ts';
import { checkpointFromLiveTranscript, recordRestore } from '../../app/restore/restore-session.ts';
import type { GeminiHookOutput } from '../../agents/gemini/hook-entry.ts';
import { renderRestoreFor } from '../../app/restore/render-restore.ts';
import { compactionDetection } from '../../core/resume/resume.ts';
import type { HookRun } from '../hook-run.ts';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export async function restoreBeforeGeminiCompression(
  run: HookRun,
  context: { contextTokens: number; threshold: number },
): Promise<GeminiHookOutput> {
  const { payload, home, env, now } = run;
  const sessionId = payload.sessionId!;
  return withStore(home, async (store) => {
    const live = await checkpointFromLiveTranscript({
      store,
      home,
      env,
      now,
      transcriptPath: payload.transcriptPath,
      latest: store.checkpoints.getMostRecent(sessionId),
      trigger: 'pre_compact',
      cwd: payload.cwd ?? process.cwd(),
    });
    const { checkpoint } = live;
    const detection = compactionDetection(
      checkpoint.id,
      `Gemini CLI compresses this chat now (context ${context.contextTokens} of ${context.threshold} tokens); its exact state is kept here beside the summary.`,
    );
    const prompt = await renderRestoreFor(checkpoint, detection, 'gemini');
    recordRestore(store, {
      checkpoint,
      intoSession: sessionId,
      detection,
      now,
      notes: `Gemini ${payload.raw.hook_event_name ?? payload.event} before compression`,
      restoreText: prompt,
      compactSummary: null,
      messagesAtRestore: checkpoint.signals.messageCount,
    });
    return {
      context: prompt,
      userMessage: `shim: checkpoint #${checkpoint.checkpointNumber} kept through the compression: ${plural(checkpoint.taskState.items.length, 'task')}, ${plural(checkpoint.conversationState.userRequests.length, 'request')}.`,
    };
  });
}
