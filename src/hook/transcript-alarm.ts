/**
 * PostToolUse's look at whether Claude Code still writes the session's transcript: one stat of
 * the file per full look, and the alarm (core/policy/transcript-watch.ts) said once to the user and
 * recorded for `shim doctor`.
 * @module
 */
import { closeSync, readSync, statSync } from 'node:fs';
import type { HookMemory } from '../core/policy/hook-policy.ts';
import {
  describeTranscriptAlarm,
  watchTranscript,
  type TranscriptWatch,
} from '../core/policy/transcript-watch.ts';
import { claimOnce } from '../store/cache/hook-memory.ts';
import { appendLog } from '../store/home/log.ts';
import { recordTranscriptAlarm } from '../store/cache/transcript-alarms.ts';
import type { HookRun } from './hook-run.ts';
import { openLogFile } from '../transcript/open-log.ts';

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
  // Unchanged since the last call: it may be a call of the same response (parallel calls).
  const written = size !== null && size === memory.transcript?.size && holdsCall(payload, size);
  const { watch, alarm } = watchTranscript(memory.transcript, size, written);
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

/** How much of the transcript's end is searched for the call: a response's entries and more. */
const TAIL_BYTES = 256 * 1024;

/**
 * True when the transcript's end names this call's tool_use id: its response was written. A
 * payload without an id cannot tell, and counts as written (no alarm on a guess).
 */
function holdsCall(payload: HookRun['payload'], size: number): boolean {
  const id = payload.raw.tool_use_id;
  if (typeof id !== 'string' || id === '' || !payload.transcriptPath) return true;
  let fd: number | null = null;
  try {
    fd = openLogFile(payload.transcriptPath);
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.allocUnsafe(length);
    const read = readSync(fd, buffer, 0, length, size - length);
    return buffer.subarray(0, read).includes(`"${id}"`);
  } catch {
    return true;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
