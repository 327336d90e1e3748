/**
 * What shim installed where (SHIM_HOME/installs.json, one record per settings file), so that
 * uninstall can be exact: the hash of the bytes shim wrote, the backup of the file before it,
 * the containers shim created and the statusline it took over.
 * @module
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { ensureDir } from '../../store/home.ts';
import { readJsonFile, writeJsonFileAtomic } from '../../store/json-file.ts';
import type { CreatedContainers } from './hooks-merge.ts';
import type { SettingsScope } from './settings-file.ts';
import type { StatusLineBefore } from './statusline-merge.ts';

/** How to get the file back exactly as it was before shim ever touched it. */
export type OriginalFile =
  | { existed: true; sha256: string; backupPath: string }
  | { existed: false; createdDir: string | null };

export type InstallRecord = {
  settingsPath: string;
  scope: SettingsScope;
  installedAt: string;
  updatedAt: string;
  node: string;
  bin: string;
  /** sha256 of the bytes shim last wrote: when the file still has them, nobody changed it. */
  writtenSha256: string;
  /** null once an exact restore is no longer possible (the file was edited between installs). */
  original: OriginalFile | null;
  created: CreatedContainers;
  /** What the statusline was before shim took it over; null when shim did not take it over. */
  statusLine: StatusLineBefore | null;
};

type RecordsFile = { version: 1; installs: Record<string, InstallRecord> };

export function getInstallRecordsPath(home: string): string {
  return join(home, 'installs.json');
}

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function isRecord(value: unknown): value is InstallRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Partial<InstallRecord>;
  return (
    typeof r.settingsPath === 'string' &&
    typeof r.writtenSha256 === 'string' &&
    typeof r.created === 'object' &&
    r.created !== null &&
    Array.isArray(r.created.events) &&
    (r.original === null || typeof r.original === 'object') &&
    (r.statusLine === null || typeof r.statusLine === 'object')
  );
}

function readAll(home: string): RecordsFile {
  const raw = readJsonFile(getInstallRecordsPath(home)) as Partial<RecordsFile> | null;
  const installs: Record<string, InstallRecord> = {};
  if (raw?.version === 1 && typeof raw.installs === 'object' && raw.installs !== null) {
    for (const [path, record] of Object.entries(raw.installs)) {
      if (isRecord(record)) installs[path] = record;
    }
  }
  return { version: 1, installs };
}

export function loadInstallRecord(home: string, settingsPath: string): InstallRecord | null {
  return readAll(home).installs[settingsPath] ?? null;
}

export function saveInstallRecord(home: string, record: InstallRecord): void {
  ensureDir(home);
  const all = readAll(home);
  all.installs[record.settingsPath] = record;
  writeJsonFileAtomic(getInstallRecordsPath(home), all);
}

export function forgetInstallRecord(home: string, settingsPath: string): void {
  const all = readAll(home);
  if (!(settingsPath in all.installs)) return;
  delete all.installs[settingsPath];
  writeJsonFileAtomic(getInstallRecordsPath(home), all);
}
