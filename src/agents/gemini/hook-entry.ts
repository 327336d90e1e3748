/**
 * What shim's entries outside this folder take from the Gemini CLI adapter without loading the
 * whole contract: the hook bundle (hook/gemini-run.ts), the heavy hook half and the CLI register
 * the chat reader; the hook protocol in and out; the compression point.
 * @module
 */
export { geminiLogReader } from './log-reader.ts';
export { geminiReading } from './reading.ts';
export { TODOS as GEMINI_TASK_TOOL } from './chat-fold-tools.ts';
export {
  GEMINI_HOOK_TEXT_LIMIT,
  renderGeminiOutput,
  type GeminiHookOutput,
} from './hook-output.ts';
export {
  GEMINI_HOOK_EVENTS,
  isGeminiHookEvent,
  parseGeminiPayload,
  type GeminiHookEvent,
} from './hook-payload.ts';
export { geminiThreshold } from './threshold.ts';
export { readGeminiChat } from './chat-reader.ts';
export { isGeminiChat } from './sessions.ts';
