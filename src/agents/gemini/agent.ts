/**
 * Gemini CLI as an agent value (agents/agent.ts, `Agent`; verified against the pinned CLI,
 * docs/agents.md "Gemini CLI"): what every call about its sessions needs, its own bundle
 * (dist/agent-gemini.cjs). The commands' parts are adapter.ts's.
 * @module
 */
import { AppError } from '../../core/errors.ts';
import type { Agent, SessionFile } from '../agent.ts';
import { TODOS } from './chat-fold-tools.ts';
import { isGeminiChatHead } from './chat-record.ts';
import { GEMINI_HOOK_TEXT_LIMIT } from './hook-output.ts';
import { GEMINI_HOOK_EVENTS } from './hook-payload.ts';
import { geminiQuick } from './quick.ts';
import { GEMINI_INSTRUCTION_FILES } from './instructions.ts';
import {
  findGeminiChatById,
  findLatestGeminiChat,
  geminiDir,
  listAllGeminiChats,
  type GeminiChat,
} from './sessions.ts';
import { geminiThreshold } from './threshold.ts';
import { geminiLog } from './reading.ts';

function asFile(chat: GeminiChat | null): SessionFile | null {
  return chat && chat.sessionId
    ? { path: chat.path, sessionId: chat.sessionId, mtimeMs: chat.mtimeMs }
    : null;
}

export const geminiAgent: Agent = {
  id: geminiQuick.id,
  name: geminiQuick.name,
  capabilities: {
    restoreSources: ['startup'],
    taskTools: [TODOS],
    taskChanges: /^write_todos$/,
    ...geminiQuick.capabilities,
    compactsBeforeNextRequest: true,
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
    namedLike: (path) => /\/chats\/(?:[^/]+\/)?session-[^/]+\.jsonl?(?:\.gz)?$/.test(path),
    recordName: 'a Gemini CLI chat record',
    example: '~/.gemini/tmp/<project>/chats/session-….jsonl',
  },
  log: geminiLog,
  hooks: {
    events: GEMINI_HOOK_EVENTS,
    ...geminiQuick.hooks,
    textLimit: GEMINI_HOOK_TEXT_LIMIT,
    // PreCompress output does not reach Gemini's summary (docs/agents.md).
    compactInstructions: () => null,
  },
  threshold: geminiThreshold,
  instructions: { names: GEMINI_INSTRUCTION_FILES },
};
