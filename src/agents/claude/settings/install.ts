/**
 * `shim install`: wires shim's hooks and statusline into one Claude Code settings file and
 * registers shim's MCP server where Claude Code keeps them for that scope, keeping everything
 * else in both files. Idempotent; a backup of the file and a record of what was done go to
 * SHIM_HOME first, so `shim uninstall` can undo it exactly.
 * @module
 */
import type { Env } from '../../../store/home/home.ts';
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
  nextInstallRecord,
  saveInstallRecord,
  type InstallRecord,
} from './install-record.ts';
import { isEphemeralPath } from '../../../capture/shim-location.ts';
import {
  DEFAULT_JSON_STYLE,
  detectJsonStyle,
  formatJson,
  parseSettingsText,
  type JsonObject,
} from './json-text.ts';
import { diffLines } from './line-diff.ts';
import { getMcpConfigPath, getShimMcpEntries, type McpServerEntry } from './mcp-entries.ts';
import { addShimMcpServers, containsShimMcp, type McpChange } from './mcp-merge.ts';
import {
  getSettingsPath,
  readSettingsBytes,
  writeSettingsFile,
  type SettingsScope,
} from './settings-file.ts';
import { hookCommand, type ShimInvocation } from './shim-command.ts';
import { addShimMod, getModMarketplaceDir, writeModPlugin, type ModChange } from './mod-plugin.ts';
import { addShimStatusLine, readStatusLine, type StatusLineChange } from './statusline-merge.ts';

export type SettingsChange = HookChange | StatusLineChange | McpChange | ModChange;

export type InstallOptions = {
  scope: SettingsScope;
  dryRun?: boolean;
  home: string;
  env: Env;
  cwd: string;
  invocation: ShimInvocation;
  now?: Date;
  /**
   * shim's mod (Claude Code 2.1.287+), set up under SHIM_HOME/mod and enabled in the settings
   * file: the mod file to copy and the version to stamp; null or absent for hooks only.
   */
  mod?: { source: string; version: string } | null;
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
  /** The MCP servers shim registers, and the file they go into (settings.json holds none). */
  mcp: McpServerEntry[];
  mcpConfigPath: string;
  /** A copy of the MCP file from before this install, when shim changed it. */
  mcpBackupPath: string | null;
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

type FilePlan = {
  path: string;
  bytes: Buffer | null;
  text: string | null;
  nextText: string;
  hadShim: boolean;
};

function readJsonObjectFile(path: string) {
  const bytes = readSettingsBytes(path);
  const text = bytes === null ? null : bytes.toString('utf8');
  const value = text === null ? {} : parseSettingsText(text, path);
  const style = text === null ? DEFAULT_JSON_STYLE : detectJsonStyle(text);
  return { bytes, text, value, style };
}

function fileDiff(plan: FilePlan): string {
  return diffLines(plan.text ?? '', plan.nextText, {
    before: plan.text === null ? '/dev/null' : plan.path,
    after: plan.path,
  });
}

/** Backs the file up, writes it, and records what shim did (SHIM_HOME/installs.json). */
function writeRecorded(
  plan: FilePlan,
  options: InstallOptions,
  now: Date,
  extra: {
    created: CreatedContainers;
    statusLineBefore: InstallRecord['statusLine'];
    mcpServersKey?: boolean;
    modContainers?: InstallRecord['modContainers'];
  },
): string | null {
  const { home } = options;
  const backupPath = plan.bytes === null ? null : writeBackup(home, plan.bytes, now, plan.path);
  const { createdDir } = writeSettingsFile(plan.path, plan.nextText, plan.bytes);
  saveInstallRecord(
    home,
    nextInstallRecord({
      previous: loadInstallRecord(home, plan.path),
      hadShim: plan.hadShim,
      bytes: plan.bytes,
      backupPath,
      createdDir,
      written: Buffer.from(plan.nextText, 'utf8'),
      ...extra,
      scope: options.scope,
      path: plan.path,
      invocation: options.invocation,
      now,
    }),
  );
  return backupPath;
}

export function installShim(options: InstallOptions): InstallResult {
  const { scope, invocation } = options;
  const dryRun = options.dryRun ?? false;
  const path = getSettingsPath(scope, options);
  const file = readJsonObjectFile(path);
  const settings = file.value;

  const hooks = addShimHooks(settings, desiredHooks(invocation), path);
  const status = addShimStatusLine(hooks.settings, invocation);
  const mod = options.mod
    ? addShimMod(status.settings, getModMarketplaceDir(options.home), path)
    : { settings: status.settings, changes: [], created: { marketplaces: false, plugins: false } };
  const settingsChanges: SettingsChange[] = [
    ...hooks.changes,
    ...(status.change ? [status.change] : []),
    ...mod.changes,
  ];
  const settingsPlan: FilePlan = {
    path,
    bytes: file.bytes,
    text: file.text,
    nextText: settingsChanges.length > 0 ? formatJson(mod.settings, file.style) : (file.text ?? ''),
    hadShim: containsShim(settings),
  };

  // The MCP server goes into another file: ~/.claude.json (user) or <project>/.mcp.json.
  const mcpEntries = getShimMcpEntries(invocation);
  const mcpPath = getMcpConfigPath(scope, options);
  const mcpFile = readJsonObjectFile(mcpPath);
  const mcp = addShimMcpServers(mcpFile.value, mcpEntries, mcpPath);
  const mcpPlan: FilePlan = {
    path: mcpPath,
    bytes: mcpFile.bytes,
    text: mcpFile.text,
    nextText: mcp.changes.length > 0 ? formatJson(mcp.config, mcpFile.style) : (mcpFile.text ?? ''),
    hadShim: containsShimMcp(mcpFile.value),
  };

  const changes: SettingsChange[] = [...settingsChanges, ...mcp.changes];
  const changed = changes.length > 0;

  const notes: string[] = [];
  if (status.note) notes.push(status.note);
  notes.push(...mcp.notes);
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
    if (mcp.changes.length > 0) {
      notes.push(
        "Claude Code asks once before it starts the MCP servers of a project's .mcp.json; " +
          'approve "shim" there (or /mcp)',
      );
    }
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
    mcp: mcpEntries,
    mcpConfigPath: mcpPath,
    mcpBackupPath: null,
    notes,
    undo: `shim uninstall --agent claude${scope === 'project' ? ' --project' : ''}`,
  };
  if (dryRun) {
    result.diff = [
      settingsChanges.length > 0 ? fileDiff(settingsPlan) : '',
      mcp.changes.length > 0 ? fileDiff(mcpPlan) : '',
    ].join('');
    return result;
  }
  if (!changed) return result;

  const now = options.now ?? new Date();
  // The mod's files first: settings that enable a plugin that is not there yet would be wrong.
  if (options.mod)
    writeModPlugin(options.home, options.mod.source, options.mod.version, options.invocation);
  if (settingsChanges.length > 0) {
    result.backupPath = writeRecorded(settingsPlan, options, now, {
      created: hooks.created,
      statusLineBefore: status.before,
      ...(mod.changes.length > 0 ? { modContainers: mod.created } : {}),
    });
  }
  if (mcp.changes.length > 0) {
    result.mcpBackupPath = writeRecorded(mcpPlan, options, now, {
      created: { hooksKey: false, events: [] },
      statusLineBefore: null,
      mcpServersKey: mcp.createdKey,
    });
    if (result.mcpBackupPath) {
      notes.push(`a copy of ${mcpPath} from before is in ${result.mcpBackupPath}`);
    }
  }
  result.recordPath = getInstallRecordsPath(options.home);
  return result;
}
