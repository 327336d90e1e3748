/**
 * A Claude Code transcript's main chain as rescue-point.ts needs it: each entry's uuid, what it
 * is (a prompt, a tool call, its result, an answer, a refusal over the context limit) and the
 * context of the newest response at that point.
 * @module
 */
import type { ChainEntry } from '../../core/checkpoint/rescue-point.ts';
import { readLogFile } from '../../transcript/open-log.ts';
import { classifyErrorEntry } from './turn-end.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

export function readRescueChain(path: string): { sessionId: string | null; entries: ChainEntry[] } {
  const entries: ChainEntry[] = [];
  let context = 0;
  let sessionId: string | null = null;
  for (const line of readLogFile(path).toString('utf8').split('\n')) {
    if (!line.trim()) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isObj(raw) || raw.isSidechain === true || typeof raw.uuid !== 'string') continue;
    if (typeof raw.sessionId === 'string') sessionId ??= raw.sessionId;
    const message = isObj(raw.message) ? raw.message : {};
    const content = Array.isArray(message.content) ? message.content.filter(isObj) : [];
    if (raw.type === 'assistant') {
      if (raw.isApiErrorMessage === true) {
        const end = classifyErrorEntry(raw);
        entries.push({
          uuid: raw.uuid,
          kind: end?.kind === 'prompt_too_long' ? 'refused' : 'error',
          contextTokens: context,
        });
        continue;
      }
      const usage = isObj(message.usage) ? message.usage : null;
      if (usage) {
        const tokens =
          num(usage.input_tokens) +
          num(usage.cache_creation_input_tokens) +
          num(usage.cache_read_input_tokens);
        if (tokens > 0) context = tokens;
      }
      const calls = content.some((b) => b.type === 'tool_use');
      entries.push({
        uuid: raw.uuid,
        kind: calls ? 'tool_call' : 'answer',
        contextTokens: context,
      });
    } else if (raw.type === 'user') {
      const result = content.some((b) => b.type === 'tool_result');
      entries.push({
        uuid: raw.uuid,
        kind: result ? 'tool_result' : 'prompt',
        contextTokens: context,
      });
    }
  }
  return { sessionId, entries };
}
