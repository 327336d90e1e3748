/**
 * The calls a session's agent started and has not reported done, as its hooks saw them
 * (SHIM_HOME/cache/hooks/<session>.started.json): kept for an agent whose log holds a call only
 * once it completes (Gemini CLI), so that a call in flight when the agent was killed is known.
 * Its before-call hook adds one, its after-call hook takes it out; a checkpoint folds what is
 * left (app/session/calls-started.ts). The input arrives redacted; a call's key is a hash of its
 * raw input, so its end is matched without redacting it again.
 * @module
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { StartedCall } from '../../core/session.ts';
import { safeFileName } from '../../core/fnv-hash.ts';
import { ensureDir } from '../home/home.ts';
import { dropHeldWrite, readJsonFile, writeJsonFileAtomic } from '../home/json-file.ts';

/** Calls run one after another or a few at once: more than this open at once is a leftover. */
const KEPT = 8;

function getPath(home: string, sessionId: string): string {
  return join(home, 'cache', 'hooks', `${safeFileName(sessionId)}.started.json`);
}

function isStartedCall(v: unknown): v is StartedCall {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Partial<StartedCall>;
  return (
    typeof c.tool === 'string' &&
    typeof c.at === 'number' &&
    typeof c.key === 'string' &&
    typeof c.input === 'object' &&
    c.input !== null &&
    !Array.isArray(c.input)
  );
}

/** The session's started calls not reported done, oldest first (none: no file, or unreadable). */
export function readCallsStarted(home: string, sessionId: string): StartedCall[] {
  const path = getPath(home, sessionId);
  // Asked by every checkpoint of every agent that keeps them, and mostly absent.
  if (!existsSync(path)) return [];
  const value = readJsonFile(path) as { calls?: unknown } | null;
  return Array.isArray(value?.calls) ? value.calls.filter(isStartedCall) : [];
}

function write(home: string, sessionId: string, calls: StartedCall[]): void {
  const path = getPath(home, sessionId);
  if (calls.length === 0) {
    dropHeldWrite(path);
    rmSync(path, { force: true });
    return;
  }
  ensureDir(home, 'cache', 'hooks');
  writeJsonFileAtomic(path, { v: 1, calls });
}

export function noteCallStarted(home: string, sessionId: string, call: StartedCall): void {
  write(home, sessionId, [...readCallsStarted(home, sessionId), call].slice(-KEPT));
}

/** The oldest started call of this tool under this key is done (its result came). */
export function noteCallEnded(
  home: string,
  sessionId: string,
  done: Pick<StartedCall, 'tool' | 'key'>,
): void {
  const calls = readCallsStarted(home, sessionId);
  const index = calls.findIndex((c) => c.tool === done.tool && c.key === done.key);
  if (index === -1) return;
  calls.splice(index, 1);
  write(home, sessionId, calls);
}
