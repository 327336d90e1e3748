/**
 * Reading a session's log with the agent that wrote it, through the cursor cache so a live
 * session is read only from where the last reader stopped. Every caller that needs a session's
 * state comes through here (which log, and whose: session-log.ts).
 * @module
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Agent } from '../../agents/agent.ts';
import { safeFileName } from '../../core/fnv-hash.ts';
import type { SessionState } from '../../core/session.ts';
import { loadCursor, saveCursor } from '../../store/cache/cursor-cache.ts';
import { appendLog } from '../../store/home/log.ts';
import { scrubSessionState } from '../../transcript/scrub.ts';
import { forgetRememberedValue, SecretMemory } from '../../redact/redact.ts';

/** Reads `agent`'s log at `path` through the cursor cache (the whole file when it is compressed). */
export async function loadSessionState(
  path: string,
  home: string,
  agent: Agent,
): Promise<SessionState> {
  return (await loadSessionStateAt(path, home, agent)).state;
}

/**
 * The state and the byte offset of the log it was folded up to (null for a compressed log, read
 * whole).
 */
export async function loadSessionStateAt(
  path: string,
  home: string,
  agent: Agent,
): Promise<{ state: SessionState; offset: number | null }> {
  const { log } = agent;
  if (log.isCompressed(path)) {
    const state = await log.readCompressed(path);
    return { state: scrubSessionState(state), offset: null };
  }
  const cached = loadCursor(home, path);
  const result = log.read(path, cached);
  // The cached state and all that is built from it hold no secret the redactor knows.
  scrubSessionState(result.cursor.state);
  if (result.bytesRead > 0 || result.restarted || !cached) {
    try {
      saveCursor(home, path, result.cursor);
    } catch (error) {
      appendLog(home, 'warn', 'could not cache the transcript cursor', {
        path,
        error: String(error),
      });
    }
  }
  return { state: result.cursor.state, offset: result.cursor.offset };
}

/**
 * The session's memory of its secrets as the cached cursor of `path` holds it (empty without
 * one): for text of the session that does not come through its state (Claude Code's summary).
 */
export function loadSessionMemory(home: string, path: string | null | undefined): SecretMemory {
  if (!path) return new SecretMemory();
  try {
    return SecretMemory.from(loadCursor(home, path)?.state.secretMemory);
  } catch {
    return new SecretMemory();
  }
}

/**
 * Keeps what a checkpoint taught the session's memory (`memory`, which `state.secretMemory`
 * started it) and how much of it the stored rows have been redacted with (`stored` values):
 * in `state`, and in the cached cursor of `path`, merged with what other processes learned
 * meanwhile. Best effort: a memory lost here is learned again from the transcript.
 */
export function keepSessionMemory(
  home: string,
  path: string,
  state: SessionState,
  memory: SecretMemory,
): void {
  const ours = new Set(memory.saved());
  const merge = (target: SessionState) => {
    const merged = SecretMemory.from(target.secretMemory);
    merged.absorb([...ours]);
    const lines = merged.saved();
    target.secretMemory = lines;
    // The stored rows know every value up to the first one this checkpoint did not.
    const known = lines.findIndex((l) => !ours.has(l));
    target.secretMemoryStored = known === -1 ? lines.length : known;
  };
  merge(state);
  try {
    const cached = loadCursor(home, path);
    if (cached === null) return;
    merge(cached.state);
    saveCursor(home, path, cached);
  } catch (error) {
    appendLog(home, 'warn', "could not keep the session's memory of its secrets", {
      path,
      error: String(error),
    });
  }
}

/**
 * The cached cursor of `path` with every value `memory` holds replaced, and those values added
 * to its memory (the session's next records are redacted with them): what another session of the
 * home learned later. True when the cache changed. Best effort, like the cache itself.
 */
export function forgetInCachedState(home: string, path: string, memory: SecretMemory): boolean {
  try {
    const cached = loadCursor(home, path);
    if (cached === null) return false;
    const { value: state, findings } = forgetRememberedValue(cached.state, memory);
    if (findings === 0) return false;
    const merged = SecretMemory.from(state.secretMemory);
    merged.absorb(memory.saved());
    state.secretMemory = merged.saved();
    saveCursor(home, path, { ...cached, state });
    return true;
  } catch (error) {
    appendLog(home, 'warn', 'could not redact a cached session state again', {
      path,
      error: String(error),
    });
    return false;
  }
}

/** How many `continued-in` hops are followed before giving up (a loop or a long chain). */
const MAX_CONTINUATIONS = 10;

/**
 * A transcript whose conversation moved to another session (a `continued-in` entry) stands for
 * that session: the newest one of the chain whose transcript sits beside it, read instead.
 */
export async function followContinuations(
  path: string,
  state: SessionState,
  home: string,
  agent: Agent,
): Promise<{ path: string; state: SessionState; hops: number }> {
  let current = { path, state, hops: 0 };
  const seen = new Set([path]);
  while (current.state.continuedIn && current.hops < MAX_CONTINUATIONS) {
    const next = join(dirname(current.path), `${safeFileName(current.state.continuedIn)}.jsonl`);
    if (seen.has(next) || !existsSync(next)) break;
    seen.add(next);
    current = {
      path: next,
      state: await loadSessionState(next, home, agent),
      hops: current.hops + 1,
    };
  }
  return current;
}
