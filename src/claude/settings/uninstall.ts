/**
 * `shim uninstall`: takes shim out of one settings file. When nobody changed the file since
 * shim wrote it, the file gets back its exact bytes from before the install (or disappears, if
 * shim created it); otherwise shim's entries are removed one by one and the user's later
 * changes stay.
 * @module
 */
import { readFileSync } from 'node:fs';
import type { Env } from '../../store/home.ts';
import { writeBackup } from './backup.ts';
import { removeShimHooks } from './hooks-merge.ts';
import type { SettingsChange } from './install.ts';
import {
  forgetInstallRecord,
  loadInstallRecord,
  sha256,
  type InstallRecord,
} from './install-record.ts';
import { detectJsonStyle, formatJson, parseSettingsText, type JsonObject } from './json-text.ts';
import {
  getSettingsPath,
  readSettingsBytes,
  removeSettingsFile,
  writeSettingsFile,
  type SettingsScope,
} from './settings-file.ts';
import { removeShimStatusLine } from './statusline-merge.ts';

export type UninstallMethod =
  /** The file's bytes from before the install, from the backup. */
  | 'restored-backup'
  /** shim had created the file; it is gone again. */
  | 'removed-file'
  /** shim's entries removed one by one; everything else as the user left it. */
  | 'surgical'
  | 'nothing-to-do';

export type UninstallOptions = {
  scope: SettingsScope;
  home: string;
  env: Env;
  cwd: string;
  now?: Date;
};

export type UninstallResult = {
  scope: SettingsScope;
  settingsPath: string;
  changed: boolean;
  method: UninstallMethod;
  changes: SettingsChange[];
  /** A copy of the file as it was just before this uninstall (surgical only). */
  backupPath: string | null;
  notes: string[];
};

function withoutShim(
  settings: JsonObject,
  record: InstallRecord | null,
  path: string,
): { settings: JsonObject; changes: SettingsChange[]; note: string | null } {
  const hooks = removeShimHooks(settings, record?.created ?? null, path);
  const status = removeShimStatusLine(hooks.settings, record?.statusLine ?? null);
  return {
    settings: status.settings,
    changes: [...hooks.changes, ...(status.change ? [status.change] : [])],
    note: status.note,
  };
}

function readBackup(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

export function uninstallShim(options: UninstallOptions): UninstallResult {
  const { scope, home } = options;
  const path = getSettingsPath(scope, options);
  const record = loadInstallRecord(home, path);
  const base = { scope, settingsPath: path, backupPath: null };
  const bytes = readSettingsBytes(path);
  if (bytes === null) {
    if (record) forgetInstallRecord(home, path);
    return {
      ...base,
      changed: false,
      method: 'nothing-to-do',
      changes: [],
      notes: [`${path} does not exist`],
    };
  }
  const text = bytes.toString('utf8');
  const notes: string[] = [];

  if (record?.original && sha256(bytes) === record.writtenSha256) {
    // Nobody touched the file since shim wrote it: put back what was there before.
    const plan = withoutShim(parseSettingsText(text, path), record, path);
    const original = record.original;
    if (!original.existed) {
      removeSettingsFile(path, bytes, original.createdDir);
      forgetInstallRecord(home, path);
      return { ...base, changed: true, method: 'removed-file', changes: plan.changes, notes };
    }
    const saved = readBackup(original.backupPath);
    if (saved !== null && sha256(saved) === original.sha256) {
      writeSettingsFile(path, saved, bytes);
      forgetInstallRecord(home, path);
      return { ...base, changed: true, method: 'restored-backup', changes: plan.changes, notes };
    }
    notes.push(
      `the backup ${original.backupPath} is missing or was changed; removed shim's entries one by one instead`,
    );
  }

  const plan = withoutShim(parseSettingsText(text, path), record, path);
  if (plan.note) notes.push(plan.note);
  if (plan.changes.length === 0) {
    if (record) forgetInstallRecord(home, path);
    return { ...base, changed: false, method: 'nothing-to-do', changes: [], notes };
  }
  const backupPath = writeBackup(home, bytes, options.now ?? new Date());
  writeSettingsFile(path, formatJson(plan.settings, detectJsonStyle(text)), bytes);
  forgetInstallRecord(home, path);
  return { ...base, changed: true, method: 'surgical', changes: plan.changes, backupPath, notes };
}
