/**
 * The session's memory of its secrets (redact/secret-memory.ts) as the folded state keeps it:
 * `state.secretMemory`, the saved lines. The parsed memory is kept beside the lines it was read
 * from, so folding a long transcript parses it once, not on every tool call.
 * @module
 */
import type { SessionState } from '../core/session.ts';
import { SecretMemory } from '../redact/redact.ts';

const parsed = new WeakMap<readonly string[], SecretMemory>();

/** The state's memory, to learn into and search with; {@link keepMemory} saves what it learns. */
export function memoryOf(state: Pick<SessionState, 'secretMemory'>): SecretMemory {
  const saved = state.secretMemory;
  if (saved === undefined) return new SecretMemory();
  let memory = parsed.get(saved);
  if (memory === undefined) {
    memory = SecretMemory.from(saved);
    parsed.set(saved, memory);
  }
  return memory;
}

/** Saves `memory` into the state when it holds more than the state's lines. */
export function keepMemory(state: Pick<SessionState, 'secretMemory'>, memory: SecretMemory): void {
  if (memory.size === (state.secretMemory?.length ?? 0)) return;
  const saved = memory.saved();
  state.secretMemory = saved;
  parsed.set(saved, memory);
}
