/**
 * The user's deferral of a session's L1/L2 notices (core/policy/deferral.ts), in a file of its
 * own (SHIM_HOME/cache/hooks/<session>.defer.json): `shim defer` writes it while hooks rewrite the
 * session's memory, so it must not ride in that file (a hook would write its older copy over it).
 * @module
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Deferral } from '../../core/policy/deferral.ts';
import { safeFileName } from '../../core/fnv-hash.ts';
import { ensureDir } from '../home/home.ts';
import { dropHeldWrite, readJsonFile, writeJsonFileAtomic } from '../home/json-file.ts';

function getPath(home: string, sessionId: string): string {
  return join(home, 'cache', 'hooks', `${safeFileName(sessionId)}.defer.json`);
}

const HELD = new Set([null, 'L1', 'L2']);

export function loadDeferral(home: string, sessionId: string): Deferral | null {
  const path = getPath(home, sessionId);
  // Read by every full look of the hooks, and almost never there: a failed read throws, which
  // costs ~10× what asking does.
  if (!existsSync(path)) return null;
  const v = readJsonFile(path) as Partial<Deferral> | null;
  if (typeof v !== 'object' || v === null) return null;
  if (typeof v.at !== 'number' || typeof v.epoch !== 'number' || !HELD.has(v.held ?? null))
    return null;
  const task = v.task;
  const taskOk =
    task === null ||
    (typeof task === 'object' &&
      typeof task?.content === 'string' &&
      typeof task.key === 'string' &&
      (task.id === null || typeof task.id === 'string'));
  return taskOk ? (v as Deferral) : null;
}

export function saveDeferral(home: string, sessionId: string, deferral: Deferral): void {
  ensureDir(home, 'cache', 'hooks');
  writeJsonFileAtomic(getPath(home, sessionId), deferral);
}

export function clearDeferral(home: string, sessionId: string): void {
  const path = getPath(home, sessionId);
  dropHeldWrite(path);
  rmSync(path, { force: true });
}

/** Writes the deferral a look left, or removes the file when it ended. */
export function storeDeferral(home: string, sessionId: string, deferral: Deferral | null): void {
  if (deferral) saveDeferral(home, sessionId, deferral);
  else clearDeferral(home, sessionId);
}
