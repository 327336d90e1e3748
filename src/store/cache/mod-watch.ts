/**
 * What shim's Claude Code mod last saw of a session (SHIM_HOME/cache/mod/<session>.json): the
 * newest responses' usage, the level it led to, and a note for the model that a hook still has
 * to deliver (a mod cannot add context to the model's next request; the PostToolUse hook can).
 * While the mod is watching, the per-call hooks skip their own fold and decisions: one watcher
 * per session, so nothing is counted or alerted twice.
 * @module
 */
import { join } from 'node:path';
import type { Level } from '../../core/context/level.ts';
import type { ObservedResponse } from '../../core/context/observed-response.ts';
import { safeFileName } from '../../core/fnv-hash.ts';
import { ensureDir } from '../home/home.ts';
import { readJsonFile, writeJsonFileAtomic } from '../home/json-file.ts';

/** The mod counts as watching while it reported within this long (a long tool call included). */
export const MOD_WATCH_FRESH_MS = 15 * 60 * 1000;
/** Responses kept: the transcript catches up within a few. */
const KEPT_OBSERVATIONS = 8;

export type ModWatch = {
  v: 1;
  sessionId: string;
  /** Epoch ms of the newest report. */
  seenAt: number;
  observed: ObservedResponse[];
  level: Level;
  percent: number;
  /**
   * Guidance for the model at a level reached, for the next PostToolUse hook to deliver once
   * (`key`: `<compactions>-<level>`, the claim that makes it once).
   */
  guidance: { key: string; text: string } | null;
};

function getPath(home: string, sessionId: string): string {
  return join(home, 'cache', 'mod', `${safeFileName(sessionId)}.json`);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function loadModWatch(home: string, sessionId: string): ModWatch | null {
  const value = readJsonFile(getPath(home, sessionId));
  if (!isObject(value) || value.v !== 1 || value.sessionId !== sessionId) return null;
  if (typeof value.seenAt !== 'number' || !Array.isArray(value.observed)) return null;
  return value as ModWatch;
}

/** True while the mod reports on the session: the hooks then leave the watching to it. */
export function isModWatching(watch: ModWatch | null, now: number): watch is ModWatch {
  return watch !== null && now - watch.seenAt < MOD_WATCH_FRESH_MS;
}

export function saveModWatch(home: string, watch: Omit<ModWatch, 'v'>): void {
  ensureDir(home, 'cache', 'mod');
  writeJsonFileAtomic(getPath(home, watch.sessionId), {
    v: 1,
    ...watch,
    observed: watch.observed.slice(-KEPT_OBSERVATIONS),
  });
}
