/**
 * Once found, gone everywhere — also in what was stored before it was found: when a session's
 * memory of its secrets (redact/secret-memory.ts) has grown since its rows were last gone
 * through, its stored checkpoints (with their search entries), compaction summaries, handoff
 * documents and what it queued for issue trackers are searched again for the values it
 * remembers and rewritten where anything changed (store/session-rewrite.ts erases what SQLite
 * kept of the old text). Each was redacted whole when stored: the rules need not read it again,
 * and reading them over every stored row at every new secret made a long session's rewrite
 * grow with the square of its checkpoints.
 * @module
 */
import { readFileSync } from 'node:fs';
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import { forgetRemembered, forgetRememberedValue, type SecretMemory } from '../../redact/redact.ts';
import type { OutboxPayload } from '../../store/checkpoints/session-rewrite.ts';
import { writeFileSafely } from '../../store/home/safe-file.ts';
import type { Store } from '../open-store.ts';

/**
 * Rewrites the session's stored text with what `memory` knows, and that of every session restored
 * from it (down the chain): their checkpoints, handoffs and team rows carry the requests and tasks
 * they inherited, stored before this session learned what they hold. Returns the rows and files
 * changed.
 */
export function redactStoredSession(store: Store, sessionId: string, memory: SecretMemory): number {
  let changed = 0;
  for (const id of [sessionId, ...store.rewrite.descendants(sessionId)])
    changed += store.rewrite.atomically(() => {
      // Kept for the whole home first, in the same commit as the first rewrite: a checkpoint
      // stored after it is scrubbed with these (checkpoint-writer.ts); one stored before, read here.
      if (id === sessionId) store.learned.add(sessionId, memory.saved(), new Date().toISOString());
      return redactOneSession(store, id, memory);
    });
  return changed;
}

function redactOneSession(store: Store, sessionId: string, memory: SecretMemory): number {
  const checkpoints: Checkpoint[] = [];
  for (const c of store.rewrite.checkpoints(sessionId)) {
    const { value, findings } = forgetRememberedValue(c, memory);
    if (findings > 0) checkpoints.push({ ...value, checkpointNumber: c.checkpointNumber });
  }
  const summaries: Array<{ id: string; summary: string }> = [];
  for (const s of store.rewrite.summaries(sessionId)) {
    const summary = forgetRemembered(s.summary, memory);
    if (summary !== s.summary) summaries.push({ id: s.id, summary });
  }
  const handoffIds: string[] = [];
  for (const { id, path } of store.rewrite.handoffs(sessionId)) {
    let document: string;
    try {
      document = readFileSync(path, 'utf8');
    } catch {
      continue; // gone (shim gc, or by hand)
    }
    const text = forgetRemembered(document, memory);
    if (text === document) continue;
    writeFileSafely(path, text);
    handoffIds.push(id);
  }
  const payloads: OutboxPayload[] = [];
  for (const entry of store.rewrite.trackerPayloads(sessionId)) {
    const { value, findings } = forgetRememberedValue(entry.payload, memory);
    if (findings > 0) payloads.push({ id: entry.id, payload: value });
  }
  return store.rewrite.replace(checkpoints, summaries, handoffIds, payloads) + handoffIds.length;
}
