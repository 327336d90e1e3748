/**
 * How shim reads a Gemini CLI chat: the agent value's `log` (agent.ts).
 * @module
 */
import type { SessionState } from '../../core/session.ts';
import type { SessionLogReader } from '../agent.ts';
import type { ReadOptions, TranscriptCursor } from '../../transcript/reader.ts';
import {
  createGeminiFoldState,
  finalizeGeminiResponse,
  foldGeminiRecord,
  type GeminiFoldState,
} from './chat-fold.ts';
import { foldStartedCall } from './chat-fold-tools.ts';
import { readRecord, type GeminiRecord } from './chat-record.ts';
import { readGeminiChat, type GeminiReadOptions } from './chat-reader.ts';
import { geminiTail } from './tail-look.ts';

/** The fold's per-message progress, beside each state folded through the generic line reader. */
const foldStates = new WeakMap<SessionState, GeminiFoldState>();
function foldStateOf(state: SessionState): GeminiFoldState {
  let gemini = foldStates.get(state);
  if (!gemini) {
    gemini = createGeminiFoldState();
    foldStates.set(state, gemini);
  }
  return gemini;
}

/** The shared reader's options as the chat reader takes them (onEntry: after each record). */
function geminiOptions(options: ReadOptions | undefined): GeminiReadOptions {
  return {
    ...(options?.listener ? { listener: options.listener } : {}),
    ...(options?.finalize ? { finalize: true } : {}),
    ...(options?.untilLine !== undefined ? { untilLine: options.untilLine } : {}),
    ...(options?.onEntry ? { onRecord: options.onEntry } : {}),
  };
}

export const geminiLog: SessionLogReader = {
  // Line by line, for the shared reader; `read` below is the one that handles `$rewindTo`.
  format: {
    agent: 'gemini',
    readEntry: (value: unknown) => readRecord(value, JSON.stringify(value ?? null).length),
    foldEntry: (state, entry, line, listener) =>
      foldGeminiRecord(state, foldStateOf(state), entry as GeminiRecord, line, listener),
    finalize: finalizeGeminiResponse,
  },
  read: (path, cursor: TranscriptCursor | null, options) =>
    readGeminiChat(path, cursor, geminiOptions(options)),
  readCompressed: async (path, options) =>
    readGeminiChat(path, null, geminiOptions(options)).cursor.state,
  isCompressed: (path) => path.endsWith('.gz'),
  tail: geminiTail,
  // The `<state_snapshot>` is not read as a summary yet: a restore then names no gaps in it.
  compactSummary: () => null,
  usageLimit: () => null,
  foldStarted: foldStartedCall,
};
