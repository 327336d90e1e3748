/**
 * Gemini CLI behind the agent contract (agents/agent.ts), verified against 0.61.0. The hook bundle
 * takes its parts through hook-entry.ts; everything that serves several agents comes through here.
 * docs/agents.md, "Gemini CLI".
 * @module
 */
import { AppError } from '../../core/errors.ts';
import type { SessionState } from '../../core/session.ts';
import type { AgentAdapter, SessionFile } from '../agent.ts';
import type { ReadOptions, TranscriptCursor } from '../../transcript/reader.ts';
import {
  createGeminiFoldState,
  finalizeGeminiResponse,
  foldGeminiRecord,
  type GeminiFoldState,
  TODOS,
} from './chat-fold.ts';
import { isGeminiChatHead, readRecord, type GeminiRecord } from './chat-record.ts';
import { readGeminiChat, type GeminiReadOptions } from './chat-reader.ts';
import { GEMINI_HOOK_TEXT_LIMIT, renderGeminiOutput } from './hook-output.ts';
import { GEMINI_HOOK_EVENTS, isGeminiHookEvent, parseGeminiPayload } from './hook-payload.ts';
import { installGemini, uninstallGemini } from './settings/install.ts';
import {
  findGeminiChatById,
  findLatestGeminiChat,
  geminiDir,
  listAllGeminiChats,
  readConfiguredThreshold,
  type GeminiChat,
} from './sessions.ts';
import { geminiCompactThreshold } from './threshold.ts';
import { geminiHeadless } from './headless.ts';

/** The files Gemini CLI reads as standing project instructions. */
export const GEMINI_INSTRUCTION_FILES = ['GEMINI.md', '.gemini/GEMINI.md'] as const;

function asFile(chat: GeminiChat | null): SessionFile | null {
  return chat && chat.sessionId
    ? { path: chat.path, sessionId: chat.sessionId, mtimeMs: chat.mtimeMs }
    : null;
}

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

export const geminiAdapter: AgentAdapter = {
  id: 'gemini',
  name: 'Gemini CLI',
  verifiedVersion: '0.61.0',
  capabilities: {
    statusline: false,
    compactInstructions: false,
    hookTrust: false,
    mod: false,
    liveUsageInHooks: true,
    restoreSources: ['startup'],
    taskTools: [TODOS],
    forkAtMessage: false,
  },
  sessions: {
    root: (env) => `${geminiDir(env)}/tmp`,
    latest: (cwd, env) => {
      try {
        return asFile(findLatestGeminiChat(cwd, env));
      } catch (error) {
        if (error instanceof AppError && error.code === 'SESSION_NOT_FOUND') return null;
        throw error;
      }
    },
    byId: (id, _cwd, env) => asFile(findGeminiChatById(id, env)),
    all: (env) => listAllGeminiChats(env).flatMap((c) => asFile(c) ?? []),
    sniff: (lines) => lines.length > 0 && isGeminiChatHead(lines[0]),
  },
  log: {
    // Line by line, for the shared reader; `read` below is the one that handles `$rewindTo`.
    format: {
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
  },
  hooks: {
    events: GEMINI_HOOK_EVENTS,
    parse: (text, event) =>
      isGeminiHookEvent(event)
        ? parseGeminiPayload(text, event)
        : parseGeminiPayload(text, 'SessionStart'),
    render: (event, output) => {
      const geminiEvent = Object.entries(GEMINI_HOOK_EVENTS).find(
        ([name, shim]) => name === event || shim === event,
      )?.[0];
      return geminiEvent && isGeminiHookEvent(geminiEvent)
        ? renderGeminiOutput(geminiEvent, output)
        : '';
    },
    textLimit: GEMINI_HOOK_TEXT_LIMIT,
  },
  threshold: {
    // The configured limit is a fraction here (model.compressionThreshold), of the model's limit.
    threshold: ({ model, configuredLimit }) => {
      const rule = geminiCompactThreshold(model, configuredLimit);
      return {
        tokens: rule.compactThreshold,
        windowTokens: rule.windowTokens,
        configured: rule.source === 'settings',
        source: rule.detail,
      };
    },
    configuredLimit: (env) => readConfiguredThreshold(env, null),
  },
  installer: {
    install: (request) => installGemini({ ...request, invocation: request.shim }),
    uninstall: (request) => uninstallGemini(request),
  },
  headless: geminiHeadless,
  instructions: { names: GEMINI_INSTRUCTION_FILES },
};
