/**
 * Once found, gone everywhere — also in what was stored before it was found: when a session's
 * memory of its secrets (redact/secret-memory.ts) has grown since its rows were last gone
 * through, its stored checkpoints (with their search entries), compaction summaries, handoff
 * documents and what it queued for issue trackers are searched again for the values it
 * remembers and rewritten where anything changed (store/session-rewrite.ts erases what SQLite
 * kept of the old text) — and, once the home has learned it, every other session's too. Each was
 * redacted whole when stored: the rules need not read it again,
 * and reading them over every stored row at every new secret made a long session's rewrite
 * grow with the square of its checkpoints.
 * @module
 */
import { readFileSync } from 'node:fs';
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import { forgetRemembered, forgetRememberedValue, SecretMemory } from '../../redact/redact.ts';
import type { OutboxPayload } from '../../store/ports/session-rewrite.ts';
import { writeFileSafely } from '../../store/home/safe-file.ts';
import type { Store } from '../open-store.ts';
import { forgetInCachedState } from '../session/read-session.ts';

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

/**
 * What the home learned since row `after` of its learned secrets (store `learned`), looked for in
 * every session's stored text and cached state: a session that neither learned the value nor was restored from
 * its learner may hold it too — a request that quoted it bare before anything said what it is.
 * A session is read outside a write transaction first (most hold none of it: the hooks' writes
 * are not kept waiting for them), then rewritten in its own. Returns the rows and files changed.
 */
export function spreadLearnedSecrets(store: Store, home: string, after: number): number {
  const memory = SecretMemory.from(store.learned.since(after).lines);
  if (memory.size === 0) return 0;
  let changed = 0;
  for (const id of store.rewrite.sessionIds()) {
    if (isNone(rewritesOf(store, id, memory))) continue;
    changed += store.rewrite.atomically(() => redactOneSession(store, id, memory));
  }
  // And the sessions' folded states cached for the hooks.
  for (const path of store.rewrite.transcriptPaths())
    if (forgetInCachedState(home, path, memory)) changed++;
  return changed;
}

/** A session's stored text that `memory` changes, as it would be written. */
type Rewrites = {
  checkpoints: Checkpoint[];
  summaries: Array<{ id: string; summary: string }>;
  handoffs: Array<{ id: string; path: string; text: string }>;
  payloads: OutboxPayload[];
};

function isNone(r: Rewrites): boolean {
  return r.checkpoints.length + r.summaries.length + r.handoffs.length + r.payloads.length === 0;
}

function rewritesOf(store: Store, sessionId: string, memory: SecretMemory): Rewrites {
  const checkpoints: Checkpoint[] = [];
  for (const c of store.rewrite.checkpoints(sessionId)) {
    const { value, findings } = forgetRememberedValue(c, memory);
    if (findings > 0) checkpoints.push({ ...value, checkpointNumber: c.checkpointNumber });
  }
  const summaries: Rewrites['summaries'] = [];
  for (const s of store.rewrite.summaries(sessionId)) {
    const summary = forgetRemembered(s.summary, memory);
    if (summary !== s.summary) summaries.push({ id: s.id, summary });
  }
  const handoffs: Rewrites['handoffs'] = [];
  for (const { id, path } of store.rewrite.handoffs(sessionId)) {
    let document: string;
    try {
      document = readFileSync(path, 'utf8');
    } catch {
      continue; // gone (shim gc, or by hand)
    }
    const text = forgetRemembered(document, memory);
    if (text !== document) handoffs.push({ id, path, text });
  }
  const payloads: OutboxPayload[] = [];
  for (const entry of store.rewrite.trackerPayloads(sessionId)) {
    const { value, findings } = forgetRememberedValue(entry.payload, memory);
    if (findings > 0) payloads.push({ id: entry.id, payload: value });
  }
  return { checkpoints, summaries, handoffs, payloads };
}

function redactOneSession(store: Store, sessionId: string, memory: SecretMemory): number {
  const { checkpoints, summaries, handoffs, payloads } = rewritesOf(store, sessionId, memory);
  for (const { path, text } of handoffs) writeFileSafely(path, text);
  const handoffIds = handoffs.map((h) => h.id);
  return store.rewrite.replace(checkpoints, summaries, handoffIds, payloads) + handoffIds.length;
}
