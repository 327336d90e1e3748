/**
 * What a quiet PostToolUse (core/policy/quiet-window.ts) needs from the rollout lines Codex CLI
 * appended since the last full look: the newest response's context, the calls asked for, and
 * whether anything happened there that only a full look may judge. Reads no more than it must
 * and folds nothing (the rollout's shapes: docs/agents.md, "The rollout format").
 * @module
 */
import type { TailLook } from '../agent.ts';
import { readTail } from '../../transcript/log-tail.ts';

/**
 * Line types and values that only appear when something happened: a compaction, an API error,
 * a turn aborted, a new turn (its `turn_context` may name another model, so another threshold),
 * another session's start. Inside a string value the quotes would be escaped, so a message's
 * text cannot spell them.
 */
const EVENTFUL = [
  '"type":"compacted"',
  '"type":"context_compacted"',
  '"type":"turn_context"',
  '"type":"session_meta"',
  '"type":"error"',
  '"type":"stream_error"',
  '"type":"turn_aborted"',
];

/**
 * A tool output that failed, in every way Codex reports it (agents/codex/fold-tools.ts
 * `readToolOutput`): a non-zero exit code in the header or in the old JSON metadata, or
 * `success: false`. A command's own output that prints such a line only costs a full look.
 */
const FAILED =
  /(?:Exit code:|Process exited with code)\s*-?[1-9]|exit_code\\?"\s*:\s*-?[1-9]|"success":false/;

const CALLS = new Set(['function_call', 'custom_tool_call', 'local_shell_call']);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

export function lookAtRolloutTail(text: string): TailLook {
  if (EVENTFUL.some((marker) => text.includes(marker)) || FAILED.test(text))
    return { contextTokens: null, responses: 0, toolCalls: 0, eventful: true };
  let contextTokens: number | null = null;
  let lastTotal: string | null = null;
  let responses = 0;
  const toolCalls = new Set<string>();
  for (const line of text.split('\n')) {
    const usage = line.includes('"token_count"');
    if (!usage && !line.includes('"call_id"')) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      continue; // the line Codex is still writing
    }
    if (!isObj(raw) || !isObj(raw.payload)) continue;
    const p = raw.payload;
    if (raw.type === 'response_item' && CALLS.has(String(p.type))) {
      if (typeof p.call_id === 'string') toolCalls.add(p.call_id);
      continue;
    }
    if (p.type !== 'token_count' || !isObj(p.info) || !isObj(p.info.last_token_usage)) continue;
    const last = p.info.last_token_usage;
    const context = num(last.total_tokens) || num(last.input_tokens) + num(last.output_tokens);
    // Input and output 0: Codex's estimate after a compaction (which the markers catch).
    if (num(last.input_tokens) === 0 && num(last.output_tokens) === 0) continue;
    // A line repeating the cumulative total is the same response written twice (fold.ts).
    const total = isObj(p.info.total_token_usage) ? num(p.info.total_token_usage.total_tokens) : 0;
    const key = `${total}:${context}`;
    if (key !== lastTotal) responses++;
    lastTotal = key;
    contextTokens = context;
  }
  return { contextTokens, responses, toolCalls: toolCalls.size, eventful: false };
}

/** The agent's `log.tail`: the rollout's bytes appended since `offset`, looked at. */
export function codexTail(path: string, offset: number): TailLook | null {
  const tail = readTail(path, offset);
  return tail === null ? null : lookAtRolloutTail(tail);
}
