/**
 * The notice a store recovery leaves (SHIM_HOME/cache/store-recovered.json), so the CLI, the
 * hooks and `shim doctor` can each say it once. Apart from recover-database.ts so the per-call
 * hooks can read it without loading SQLite (~6 ms per process).
 * @module
 */
import { join } from 'node:path';
import { readJsonFile, writeJsonFileAtomic } from './json-file.ts';

export type RecoveryNotice = {
  at: string;
  /** Where the corrupt file was moved. */
  movedTo: string;
  reason: string;
  /** Rows copied into the fresh store, per table. */
  salvaged: Record<string, number>;
  /** Rows that could not be read (damaged ones included). */
  lost: number;
  /** Rows left behind because a compressed section in them was damaged. */
  damaged?: number;
  /** Earlier moves not yet reported when this one happened. */
  earlier?: string[];
  shownOnStderr: boolean;
  shownInHook: boolean;
};

const NOTICE = ['cache', 'store-recovered.json'] as const;

export function readRecoveryNotice(home: string): RecoveryNotice | null {
  const value = readJsonFile(join(home, ...NOTICE)) as RecoveryNotice | null;
  return value && typeof value.movedTo === 'string' ? value : null;
}

export function markRecoveryShown(home: string, where: 'stderr' | 'hook'): void {
  const notice = readRecoveryNotice(home);
  if (!notice) return;
  try {
    writeJsonFileAtomic(join(home, ...NOTICE), {
      ...notice,
      ...(where === 'stderr' ? { shownOnStderr: true } : { shownInHook: true }),
    });
  } catch {
    // shown again next time: better than never
  }
}

/** One line a user can act on. */
export function describeRecovery(n: RecoveryNotice): string {
  const copied = Object.values(n.salvaged).reduce((a, b) => a + b, 0);
  const lost =
    n.lost > 0
      ? ` (${n.lost} could not be read${n.damaged ? `, ${n.damaged} of them with damaged data` : ''}; they stay in the moved file)`
      : '';
  const earlier = n.earlier?.length ? `; earlier it was also moved to ${n.earlier.join(', ')}` : '';
  return `shim: the store was corrupt (${n.reason}); it was moved to ${n.movedTo} and ${copied} rows were copied into a fresh one${lost}${earlier}`;
}

export function writeRecoveryNotice(home: string, notice: RecoveryNotice): void {
  writeJsonFileAtomic(join(home, ...NOTICE), notice);
}
