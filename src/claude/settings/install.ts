/**
 * `shim install`: wires shim's hooks and statusline into one Claude Code settings file, keeping
 * everything else in it. Idempotent; a backup of the file and a record of what was done go to
 * SHIM_HOME first, so `shim uninstall` can undo it exactly.
 * @module
 */
import type { Env } from '../../store/home.ts';
import { writeBackup } from './backup.ts';
import { SHIM_HOOKS } from './hook-spec.ts';
import {
  addShimHooks,
  findShimHooks,
  type CreatedContainers,
  type DesiredHook,
  type HookChange,
} from './hooks-merge.ts';
import {
  getInstallRecordsPath,
  loadInstallRecord,
  saveInstallRecord,
  sha256,
  type InstallRecord,
  type OriginalFile,
} from './install-record.ts';
import { isEphemeralPath } from './bin-location.ts';
import {
  DEFAULT_JSON_STYLE,
  detectJsonStyle,
  formatJson,
  parseSettingsText,
  type JsonObject,
} from './json-text.ts';
import { diffLines } from './line-diff.ts';
import { getShimMcpEntries, type McpServerEntry } from './mcp-entries.ts';
import {
  getSettingsPath,
  readSettingsBytes,
  writeSettingsFile,
  type SettingsScope,
} from './settings-file.ts';
import { hookCommand, type ShimInvocation } from './shim-command.ts';
import { addShimStatusLine, readStatusLine, type StatusLineChange } from './statusline-merge.ts';

export type SettingsChange = HookChange | StatusLineChange;

export type InstallOptions = {
  scope: SettingsScope;
  dryRun?: boolean;
  home: string;
  env: Env;
  cwd: string;
  invocation: ShimInvocation;
  now?: Date;
};

export type InstallResult = {
  scope: SettingsScope;
  settingsPath: string;
  dryRun: boolean;
  /** False when shim was already installed exactly like this. */
  changed: boolean;
  changes: SettingsChange[];
  /** The hook command per event, as it is in the file now (or would be, with --dry-run). */
  hookCommands: Record<string, string>;
  backupPath: string | null;
  recordPath: string | null;
  /** With --dry-run: the unified diff of the file. */
  diff: string | null;
  mcp: McpServerEntry[];
  notes: string[];
  undo: string;
};

/** The handlers shim wants, one per event of SHIM_HOOKS. */
export function desiredHooks(invocation: ShimInvocation): DesiredHook[] {
  return SHIM_HOOKS.map((spec) => ({
    event: spec.event,
    ...(spec.matcher === undefined ? {} : { matcher: spec.matcher }),
    command: hookCommand(invocation, spec.event),
    timeout: spec.timeout,
  }));
}

function containsShim(settings: JsonObject): boolean {
  return findShimHooks(settings).length > 0 || readStatusLine(settings).kind === 'shim';
}

function unionCreated(a: CreatedContainers, b: CreatedContainers): CreatedContainers {
  return { hooksKey: a.hooksKey || b.hooksKey, events: [...new Set([...a.events, ...b.events])] };
}

export function installShim(options: InstallOptions): InstallResult {
  const { scope, home, invocation } = options;
  const dryRun = options.dryRun ?? false;
  const path = getSettingsPath(scope, options);
  const bytes = readSettingsBytes(path);
  const text = bytes === null ? null : bytes.toString('utf8');
  const settings = text === null ? {} : parseSettingsText(text, path);
  const style = text === null ? DEFAULT_JSON_STYLE : detectJsonStyle(text);

  const hooks = addShimHooks(settings, desiredHooks(invocation), path);
  const status = addShimStatusLine(hooks.settings, invocation);
  const changes: SettingsChange[] = [...hooks.changes, ...(status.change ? [status.change] : [])];
  const changed = changes.length > 0;
  const nextText = changed ? formatJson(status.settings, style) : (text ?? '');

  const notes: string[] = [];
  if (status.note) notes.push(status.note);
  if (settings.disableAllHooks === true) {
    notes.push('this file sets "disableAllHooks": true — Claude Code will not run any hook');
  }
  if (isEphemeralPath(invocation.bin)) {
    notes.push(
      `${invocation.bin} is in a package runner's cache that can be cleared at any time; ` +
        'install shim for good (npm install -g) and run `shim install` again',
    );
  }
  if (scope === 'project') {
    notes.push(
      '.claude/settings.json is usually committed: these commands name paths on this machine, ' +
        'so everyone else needs their own `shim install`',
    );
  }

  const result: InstallResult = {
    scope,
    settingsPath: path,
    dryRun,
    changed,
    changes,
    hookCommands: Object.fromEntries(
      desiredHooks(invocation).map((d) => [d.event, d.command] as const),
    ),
    backupPath: null,
    recordPath: null,
    diff: null,
    mcp: getShimMcpEntries(invocation),
    notes,
    undo: `shim uninstall${scope === 'project' ? ' --project' : ''}`,
  };
  if (dryRun) {
    result.diff = changed
      ? diffLines(text ?? '', nextText, {
          before: text === null ? '/dev/null' : path,
          after: path,
        })
      : '';
    return result;
  }
  if (!changed) return result;

  const now = options.now ?? new Date();
  const backupPath = bytes === null ? null : writeBackup(home, bytes, now);
  const { createdDir } = writeSettingsFile(path, nextText, bytes);
  const previous = loadInstallRecord(home, path);
  const record = nextRecord({
    previous: containsShim(settings) ? previous : null,
    hadShim: containsShim(settings),
    bytes,
    backupPath,
    createdDir,
    written: Buffer.from(nextText, 'utf8'),
    created: hooks.created,
    statusLineBefore: status.before,
    scope,
    path,
    invocation,
    now,
  });
  saveInstallRecord(home, record);
  result.backupPath = backupPath;
  result.recordPath = getInstallRecordsPath(home);
  return result;
}

/**
 * The record after this install. Over an earlier install (the file already had shim in it) the
 * original stays the one from before the first install — as long as nobody changed the file in
 * between; otherwise an exact restore is no longer possible and uninstall will be surgical.
 */
function nextRecord(input: {
  previous: InstallRecord | null;
  hadShim: boolean;
  bytes: Buffer | null;
  backupPath: string | null;
  createdDir: string | null;
  written: Buffer;
  created: CreatedContainers;
  statusLineBefore: InstallRecord['statusLine'];
  scope: SettingsScope;
  path: string;
  invocation: ShimInvocation;
  now: Date;
}): InstallRecord {
  const { previous, bytes } = input;
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
  };
}
