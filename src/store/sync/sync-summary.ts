/**
 * The tracker sync's counts as of the last drain, in a small file: `shim status` shows them
 * without opening the store (it stays a fast, read-only look at the transcript).
 * @module
 */
import { join } from 'node:path';
import { ensureDir } from '../home/home.ts';
import { readJsonFile, writeJsonFileAtomic } from '../home/json-file.ts';
import type { OutboxCounts } from '../ports/outbox.ts';

export type SyncSummary = OutboxCounts & { at: string };

const path = (home: string) => join(home, 'cache', 'sync-summary.json');

export function saveSyncSummary(home: string, counts: OutboxCounts, at: string): void {
  ensureDir(home, 'cache');
  writeJsonFileAtomic(path(home), { ...counts, at });
}

export function loadSyncSummary(home: string): SyncSummary | null {
  const value = readJsonFile(path(home)) as Partial<SyncSummary> | null;
  return value && typeof value.at === 'string' && typeof value.pending === 'number'
    ? (value as SyncSummary)
    : null;
}
