/**
 * PostToolUse's look at whether Claude Code still writes the session's transcript: one stat of
 * the file per full look, and the alarm (core/transcript-watch.ts) said once to the user and
 * recorded for `shim doctor`.
 * @module
 */
import { statSync } from 'node:fs';
import type { HookMemory } from '../core/hook-policy.ts';
import {
  describeTranscriptAlarm,
  watchTranscript,
  type TranscriptWatch,
} from '../core/transcript-watch.ts';
import { claimOnce } from '../store/hook-memory.ts';
import { appendLog } from '../store/log.ts';
import { recordTranscriptAlarm } from '../store/transcript-alarms.ts';
import type { HookRun } from './hook-run.ts';

export function checkTranscriptWrites(
  run: HookRun,
  memory: HookMemory,
): { watch: TranscriptWatch | null; notice: string | null } {
  const { payload, home, now } = run;
  if (!payload.sessionId || !payload.transcriptPath) return { watch: null, notice: null };
  let size: number | null;
  try {
    size = statSync(payload.transcriptPath).size;
  } catch {
    size = null;
  }
  const { watch, alarm } = watchTranscript(memory.transcript, size);
  const toolCalls = watch.calls;
  if (!alarm || !claimOnce(home, payload.sessionId, 'transcript-alarm'))
    return { watch, notice: null };
  const notice = describeTranscriptAlarm(alarm, toolCalls);
  try {
    recordTranscriptAlarm(home, {
      sessionId: payload.sessionId,
      transcriptPath: payload.transcriptPath,
      cwd: payload.cwd,
      alarm,
      toolCalls,
      at: new Date(now).toISOString(),
    });
  } catch (error) {
    appendLog(home, 'warn', 'PostToolUse: the transcript alarm could not be recorded', {
      error: error instanceof Error ? error.message : String(error),
    });
  }
  appendLog(home, 'warn', `transcript ${alarm}`, {
    sessionId: payload.sessionId,
    transcriptPath: payload.transcriptPath,
    toolCalls,
  });
  return { watch, notice };
}
