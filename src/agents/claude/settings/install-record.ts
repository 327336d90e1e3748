/**
 * What shim installed where (SHIM_HOME/installs.json, one record per settings file), so that
 * uninstall can be exact: the hash of the bytes shim wrote, the backup of the file before it,
 * the containers shim created and the statusline it took over. The files with MCP servers
 * (`~/.claude.json`, `<project>/.mcp.json`) get records of their own, the same way.
 * @module
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { ensureDir } from '../../../store/home/home.ts';
import { readJsonFile, writeJsonFileAtomic } from '../../../store/home/json-file.ts';
import type { CreatedContainers } from './hooks-merge.ts';
import type { ModContainers } from './mod-plugin.ts';
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
  /** In a file of MCP servers: shim added the `mcpServers` object itself. */
  mcpServersKey?: boolean;
  /** shim's mod: whether shim created `extraKnownMarketplaces` / `enabledPlugins` for it. */
  modContainers?: ModContainers;
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

function unionCreated(a: CreatedContainers, b: CreatedContainers): CreatedContainers {
  return { hooksKey: a.hooksKey || b.hooksKey, events: [...new Set([...a.events, ...b.events])] };
}

/**
 * The record after an install into `path`. Over an earlier install (the file already had shim in
 * it) the original stays the one from before the first install — as long as nobody changed the
 * file in between; otherwise an exact restore is no longer possible and uninstall will be surgical.
 */
export function nextInstallRecord(input: {
  previous: InstallRecord | null;
  hadShim: boolean;
  bytes: Buffer | null;
  backupPath: string | null;
  createdDir: string | null;
  written: Buffer;
  created: CreatedContainers;
  statusLineBefore: InstallRecord['statusLine'];
  mcpServersKey?: boolean;
  modContainers?: ModContainers;
  scope: SettingsScope;
  path: string;
  invocation: { node: string; bin: string };
  now: Date;
}): InstallRecord {
  const { bytes } = input;
  const previous = input.hadShim ? input.previous : null;
  const at = input.now.toISOString();
  let original: OriginalFile | null;
  if (!input.hadShim) {
    original =
      bytes === null
        ? { existed: false, createdDir: input.createdDir }
        : { existed: true, sha256: sha256(bytes), backupPath: input.backupPath ?? '' };
  } else {
    const untouched =
      previous !== null && bytes !== null && sha256(bytes) === previous.writtenSha256;
    original = untouched ? previous.original : null;
  }
  const mcpServersKey = (input.mcpServersKey ?? false) || (previous?.mcpServersKey ?? false);
  const before = previous?.modContainers;
  const made = input.modContainers;
  const modContainers =
    made || before
      ? {
          marketplaces: (made?.marketplaces ?? false) || (before?.marketplaces ?? false),
          plugins: (made?.plugins ?? false) || (before?.plugins ?? false),
        }
      : undefined;
  return {
    settingsPath: input.path,
    scope: input.scope,
    installedAt: previous?.installedAt ?? at,
    updatedAt: at,
    node: input.invocation.node,
    bin: input.invocation.bin,
    writtenSha256: sha256(input.written),
    original,
    created: previous ? unionCreated(previous.created, input.created) : input.created,
    statusLine: input.statusLineBefore ?? previous?.statusLine ?? null,
    ...(mcpServersKey ? { mcpServersKey } : {}),
    ...(modContainers ? { modContainers } : {}),
  };
}
