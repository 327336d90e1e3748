/**
 * Gemini CLI behind the agent contract (agents/agent.ts), verified against 0.61.0. The hook bundle
 * takes its parts through hook-entry.ts; everything that serves several agents comes through here.
 * docs/agents.md, "Gemini CLI".
 * @module
 */
import { AppError } from '../../core/errors.ts';
import type { AgentAdapter, SessionFile } from '../agent.ts';
import { TODOS } from './chat-fold-tools.ts';
import { isGeminiChatHead } from './chat-record.ts';
import { GEMINI_HOOK_TEXT_LIMIT, renderGeminiOutput } from './hook-output.ts';
import { GEMINI_HOOK_EVENTS, isGeminiHookEvent, parseGeminiPayload } from './hook-payload.ts';
import { geminiDoctorChecks } from './settings/doctor.ts';
import { withCliVersion } from '../cli-version-check.ts';
import { installGemini, uninstallGemini } from './settings/install.ts';
import {
  findGeminiChatById,
  findLatestGeminiChat,
  geminiDir,
  listAllGeminiChats,
  type GeminiChat,
} from './sessions.ts';
import { geminiReading } from './reading.ts';
import { geminiHeadless } from './headless.ts';

/** The files Gemini CLI reads as standing project instructions. */
export const GEMINI_INSTRUCTION_FILES = ['GEMINI.md', '.gemini/GEMINI.md'] as const;

function asFile(chat: GeminiChat | null): SessionFile | null {
  return chat && chat.sessionId
    ? { path: chat.path, sessionId: chat.sessionId, mtimeMs: chat.mtimeMs }
    : null;
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
  log: geminiReading.log,
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
  threshold: geminiReading.threshold,
  installer: {
    install: (request) => installGemini({ ...request, invocation: request.shim }),
    uninstall: (request) => uninstallGemini(request),
  },
  headless: geminiHeadless,
  instructions: { names: GEMINI_INSTRUCTION_FILES },
  doctor: {
    checks: async (request) =>
      withCliVersion(geminiAdapter, geminiDoctorChecks(request), request.env),
  },
};
