/** Gemini CLI's chats as the use cases read them (app/session/agent-logs.ts registers this). @module */
import type { Env } from '../../store/home/home.ts';
import { readGeminiChat } from './chat-reader.ts';
import { findGeminiChatById, isGeminiChat } from './sessions.ts';

export const geminiLogReader = {
  agent: 'gemini' as const,
  matches: isGeminiChat,
  read: readGeminiChat,
  findById: (sessionId: string, env: Env) => findGeminiChatById(sessionId, env)?.path ?? null,
};
