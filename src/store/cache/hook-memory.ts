/**
 * What hooks remember per session between processes (SHIM_HOME/cache/hooks/<session>.json),
 * and once-only claims (a file created with O_EXCL) so parallel hooks alert and checkpoint
 * once, not once each.
 * @module
 */
import { closeSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { EMPTY_HOOK_MEMORY, type HookMemory } from '../../core/policy/hook-policy.ts';
import { safeFileName } from '../../core/fnv-hash.ts';
import { ensureDir } from '../home/home.ts';
import { readJsonFile, writeJsonFileAtomic } from '../home/json-file.ts';

const safeName = safeFileName;

function getMemoryPath(home: string, sessionId: string): string {
  return join(home, 'cache', 'hooks', `${safeName(sessionId)}.json`);
}

export function loadHookMemory(home: string, sessionId: string): HookMemory {
  const value = readJsonFile(getMemoryPath(home, sessionId));
  return typeof value === 'object' && value !== null
    ? { ...EMPTY_HOOK_MEMORY, ...(value as Partial<HookMemory>) }
    : { ...EMPTY_HOOK_MEMORY };
}

export function saveHookMemory(home: string, sessionId: string, memory: HookMemory): void {
  ensureDir(home, 'cache', 'hooks');
  writeJsonFileAtomic(getMemoryPath(home, sessionId), memory);
}

/** True for the one process that claims `key` first for this session; false for the rest. */
export function claimOnce(home: string, sessionId: string, key: string): boolean {
  const dir = ensureDir(home, 'cache', 'hooks');
  try {
    closeSync(openSync(getClaimPath(dir, sessionId, key), 'wx', 0o600));
    return true;
  } catch {
    return false;
  }
}

/**
 * Gives a claim back when the work it guarded failed, so the next process that gets the chance
 * (the PreCompact hook after the mod, a later call) tries again instead of finding it taken.
 */
export function releaseClaim(home: string, sessionId: string, key: string): void {
  rmSync(getClaimPath(join(home, 'cache', 'hooks'), sessionId, key), { force: true });
}

function getClaimPath(dir: string, sessionId: string, key: string): string {
  return join(dir, `${safeName(sessionId)}.${key.replace(/[^\w.-]/g, '_')}`);
}
