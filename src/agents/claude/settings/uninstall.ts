/**
 * `shim uninstall`: takes shim out of one settings file, and its MCP server out of the file
 * Claude Code keeps MCP servers in for that scope. When nobody changed the file since
 * shim wrote it, the file gets back its exact bytes from before the install (or disappears, if
 * shim created it); otherwise shim's entries are removed one by one and the user's later
 * changes stay.
 * @module
 */
import { readFileSync } from 'node:fs';
import type { Env } from '../../../store/home/home.ts';
import { writeBackup } from './backup.ts';
import { removeShimHooks } from './hooks-merge.ts';
import { getMcpConfigPath } from './mcp-entries.ts';
import { removeShimMcpServers } from './mcp-merge.ts';
import { removeShimMod } from './mod-plugin.ts';
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
  /** The file with shim's MCP server (~/.claude.json or <project>/.mcp.json), done the same way. */
  mcp: { path: string; method: UninstallMethod; backupPath: string | null };
};

function withoutShim(
  settings: JsonObject,
  record: InstallRecord | null,
  path: string,
): { settings: JsonObject; changes: SettingsChange[]; note: string | null } {
  const hooks = removeShimHooks(settings, record?.created ?? null, path);
  const status = removeShimStatusLine(hooks.settings, record?.statusLine ?? null);
  const mod = removeShimMod(status.settings, record?.modContainers ?? null, path);
  return {
    settings: mod.settings,
    changes: [...hooks.changes, ...(status.change ? [status.change] : []), ...mod.changes],
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

type Plan = (
  settings: JsonObject,
  record: InstallRecord | null,
) => {
  settings: JsonObject;
  changes: SettingsChange[];
  note: string | null;
};

type FileOutcome = {
  changed: boolean;
  method: UninstallMethod;
  changes: SettingsChange[];
  backupPath: string | null;
  notes: string[];
};

/** Takes shim out of one file, exactly when its record allows, surgically otherwise. */
function uninstallFile(path: string, home: string, now: Date | undefined, plan: Plan): FileOutcome {
  const record = loadInstallRecord(home, path);
  const bytes = readSettingsBytes(path);
  if (bytes === null) {
    if (record) forgetInstallRecord(home, path);
    return {
      changed: false,
      method: 'nothing-to-do',
      changes: [],
      backupPath: null,
      notes: [`${path} does not exist`],
    };
  }
  const text = bytes.toString('utf8');
  const notes: string[] = [];

  if (record?.original && sha256(bytes) === record.writtenSha256) {
    // Nobody touched the file since shim wrote it: put back what was there before.
    const { changes } = plan(parseSettingsText(text, path), record);
    const original = record.original;
    if (!original.existed) {
      removeSettingsFile(path, bytes, original.createdDir);
      forgetInstallRecord(home, path);
      return { changed: true, method: 'removed-file', changes, backupPath: null, notes };
    }
    const saved = readBackup(original.backupPath);
    if (saved !== null && sha256(saved) === original.sha256) {
      writeSettingsFile(path, saved, bytes);
      forgetInstallRecord(home, path);
      return { changed: true, method: 'restored-backup', changes, backupPath: null, notes };
    }
    notes.push(
      `the backup ${original.backupPath} is missing or was changed; removed shim's entries one by one instead`,
    );
  }

  const planned = plan(parseSettingsText(text, path), record);
  if (planned.note) notes.push(planned.note);
  if (planned.changes.length === 0) {
    if (record) forgetInstallRecord(home, path);
    return { changed: false, method: 'nothing-to-do', changes: [], backupPath: null, notes };
  }
  const backupPath = writeBackup(home, bytes, now ?? new Date(), path);
  writeSettingsFile(path, formatJson(planned.settings, detectJsonStyle(text)), bytes);
  forgetInstallRecord(home, path);
  return { changed: true, method: 'surgical', changes: planned.changes, backupPath, notes };
}

const MCP_SUMMARY: Record<UninstallMethod, string> = {
  'restored-backup': 'the file is byte for byte what it was before `shim install`',
  'removed-file': 'shim had created the file, so it is deleted again',
  surgical: "shim's entry removed; everything else in the file stays",
  'nothing-to-do': '',
};

export function uninstallShim(options: UninstallOptions): UninstallResult {
  const { scope, home } = options;
  const path = getSettingsPath(scope, options);
  const settings = uninstallFile(path, home, options.now, (value, record) =>
    withoutShim(value, record, path),
  );

  const mcpPath = getMcpConfigPath(scope, options);
  const mcp = uninstallFile(mcpPath, home, options.now, (value, record) => {
    const removed = removeShimMcpServers(value, record?.mcpServersKey ?? false, mcpPath);
    return { settings: removed.config, changes: removed.changes, note: null };
  });
  const notes = [...settings.notes];
  if (mcp.changed) {
    notes.push(`removed the MCP server from ${mcpPath}: ${MCP_SUMMARY[mcp.method]}`);
    if (mcp.backupPath) notes.push(`a copy of ${mcpPath} from before is in ${mcp.backupPath}`);
  }
  notes.push(...mcp.notes.filter((note) => !note.endsWith('does not exist')));

  return {
    scope,
    settingsPath: path,
    changed: settings.changed || mcp.changed,
    method: settings.method,
    changes: [...settings.changes, ...mcp.changes],
    backupPath: settings.backupPath,
    notes,
    mcp: { path: mcpPath, method: mcp.method, backupPath: mcp.backupPath },
  };
}
