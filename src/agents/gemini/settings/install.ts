/**
 * `shim install --agent gemini` / `shim uninstall --agent gemini`: shim's hooks and MCP server in
 * Gemini CLI's settings.json (the user's, or the project's with --project), and its in-session
 * commands beside it (install-commands.ts). Install keeps what the file held before in SHIM_HOME;
 * uninstall writes it back byte for byte when the file is as shim left it, and otherwise takes out
 * only shim's entries (saying so).
 * @module
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { AppError } from '../../../core/errors.ts';
import { fnvHash } from '../../../core/fnv-hash.ts';
import { findProjectRoot } from '../../../capture/project.ts';
import { ensureDir } from '../../../store/home/home.ts';
import { readJsonFile, writeJsonFileAtomic } from '../../../store/home/json-file.ts';
import { isObj } from '../chat-record.ts';
import {
  parseSettingsText,
  projectSettingsPath,
  userSettingsPath,
  type GeminiEnv,
} from '../sessions.ts';
import { GEMINI_SETTINGS_EVENTS } from '../hook-payload.ts';
import { inspectShim, withShim, withoutShim, type ShimInvocation } from './gemini-entries.ts';
import {
  commandsDirOf,
  installGeminiCommands,
  uninstallGeminiCommands,
} from './install-commands.ts';

export type GeminiInstallRequest = {
  scope: 'user' | 'project';
  dryRun: boolean;
  /** SHIM_HOME: where the file's previous bytes are kept. */
  home: string;
  env: GeminiEnv;
  cwd: string;
  invocation: ShimInvocation;
};

export type GeminiInstallReport = {
  agent: 'gemini';
  changed: boolean;
  dryRun: boolean;
  files: { path: string; changes: string[] }[];
  notes: string[];
};

/** What install found before it wrote: the bytes (null: no file) and whether it made the dir. */
type InstallRecord = {
  path: string;
  original: string | null;
  createdDir: string | null;
  writtenSha256: string;
};

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

export function geminiSettingsPath(scope: 'user' | 'project', env: GeminiEnv, cwd: string): string {
  return scope === 'user' ? userSettingsPath(env) : projectSettingsPath(findProjectRoot(cwd));
}

function recordPath(home: string, settingsPath: string): string {
  return join(home, 'installs', `gemini-${fnvHash(settingsPath)}.json`);
}

function readRecord(home: string, settingsPath: string): InstallRecord | null {
  const value = readJsonFile(recordPath(home, settingsPath));
  return isObj(value) && value.path === settingsPath && typeof value.writtenSha256 === 'string'
    ? (value as InstallRecord)
    : null;
}

/** Whether `shim install --agent gemini` recorded an install into this settings file. */
export function isGeminiInstallRecorded(home: string, settingsPath: string): boolean {
  return readRecord(home, settingsPath) !== null;
}

function readBytes(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

function parse(bytes: Buffer | null, path: string): Record<string, unknown> {
  if (bytes === null) return {};
  const text = bytes.toString('utf8');
  let value: unknown;
  try {
    value = parseSettingsText(text);
  } catch (error) {
    throw new AppError(
      'CONFIG_INVALID',
      `${path} is not valid JSON: ${(error as Error).message}`,
      'fix the file (Gemini CLI cannot read it either), then run the command again',
    );
  }
  if (!isObj(value))
    throw new AppError(
      'CONFIG_INVALID',
      `${path} does not hold a JSON object`,
      'fix the file first',
    );
  if (/^\s*\/\/|\/\*/m.test(text.replace(/"(?:[^"\\]|\\.)*"/g, '""')))
    throw new AppError(
      'CONFIG_INVALID',
      `${path} has comments, which shim would lose by rewriting it`,
      'remove the comments, or add the entries `shim install --agent gemini --dry-run` shows by hand',
    );
  return value;
}

function indentOf(text: string): string {
  return /\n([ \t]+)"/.exec(text)?.[1] ?? '  ';
}

function serialize(value: Record<string, unknown>, previous: Buffer | null): string {
  return `${JSON.stringify(value, null, indentOf(previous?.toString('utf8') ?? ''))}\n`;
}

function writeAtomic(path: string, text: string): void {
  const temp = `${path}.shim-${process.pid}.tmp`;
  writeFileSync(temp, text, { mode: 0o600 });
  renameSync(temp, path);
}

export function installGemini(request: GeminiInstallRequest): GeminiInstallReport {
  const path = geminiSettingsPath(request.scope, request.env, request.cwd);
  // Settings first: the directory install makes for settings.json is recorded with it.
  const settings = installSettings(request, path);
  const commands = installGeminiCommands({
    dir: commandsDirOf(path),
    home: request.home,
    invocation: request.invocation,
    dryRun: request.dryRun,
  });
  const changed = settings.changed || commands.changed;
  const notes = [...commands.notes];
  if (!changed) notes.unshift(`shim is already installed in ${path}`);
  else if (settings.changed && !request.dryRun)
    notes.push(`Gemini CLI runs shim's hooks from its next session (no trust step needed).`);
  return {
    agent: 'gemini',
    changed,
    dryRun: request.dryRun,
    files: [
      { path, changes: settings.changes },
      ...(commands.changes.length > 0 ? [{ path: commands.path, changes: commands.changes }] : []),
    ],
    notes,
  };
}

function installSettings(
  request: GeminiInstallRequest,
  path: string,
): { changed: boolean; changes: string[] } {
  const before = readBytes(path);
  const settings = parse(before, path);
  const next = withShim(settings, request.invocation);
  const text = serialize(next, before);
  const changed = before === null || before.toString('utf8') !== text;
  const found = inspectShim(settings);
  const changes = [
    ...GEMINI_SETTINGS_EVENTS.filter((e) => !found.events.includes(e)).map((e) => `+ hook ${e}`),
    ...(found.events.length > 0 && changed ? ['~ shim hooks rewritten for this shim'] : []),
    ...(found.mcp ? [] : ['+ MCP server "shim"']),
  ];
  if (request.dryRun || !changed) return { changed, changes };
  const previous = readRecord(request.home, path);
  const asLeft = previous !== null && before !== null && sha256(before) === previous.writtenSha256;
  let createdDir: string | null = previous && asLeft ? previous.createdDir : null;
  if (!existsSync(dirname(path))) {
    mkdirSync(dirname(path), { recursive: true });
    createdDir = dirname(path);
  }
  const record: InstallRecord = {
    path,
    // Reinstalling over shim's own file keeps the bytes from before the first install.
    original: asLeft ? previous.original : before === null ? null : before.toString('base64'),
    createdDir,
    writtenSha256: sha256(text),
  };
  ensureDir(request.home, 'installs');
  writeJsonFileAtomic(recordPath(request.home, path), record);
  writeAtomic(path, text);
  return { changed: true, changes };
}

export function uninstallGemini(
  request: Omit<GeminiInstallRequest, 'dryRun' | 'invocation'>,
): GeminiInstallReport {
  const path = geminiSettingsPath(request.scope, request.env, request.cwd);
  // Commands first: the settings' directory, if shim made it, can then go too.
  const commands = uninstallGeminiCommands({ dir: commandsDirOf(path), home: request.home });
  const report = uninstallSettings(request, path);
  if (!commands.changed && commands.notes.length === 0) return report;
  return {
    ...report,
    changed: report.changed || commands.changed,
    files: [...report.files, { path: commands.path, changes: commands.changes }],
    notes: [...report.notes, ...commands.notes],
  };
}

function uninstallSettings(
  request: Omit<GeminiInstallRequest, 'dryRun' | 'invocation'>,
  path: string,
): GeminiInstallReport {
  const before = readBytes(path);
  const record = readRecord(request.home, path);
  const report: GeminiInstallReport = {
    agent: 'gemini',
    changed: false,
    dryRun: false,
    files: [{ path, changes: [] }],
    notes: [],
  };
  const clearRecord = () => rmSync(recordPath(request.home, path), { force: true });
  if (before === null) {
    report.notes.push(`${path} does not exist: nothing to remove`);
    clearRecord();
    return report;
  }
  const settings = parse(before, path);
  const found = inspectShim(settings);
  if (record && sha256(before) === record.writtenSha256) {
    // The file is as shim left it: what it held before comes back byte for byte.
    if (record.original === null) {
      rmSync(path);
      if (record.createdDir) {
        try {
          rmdirSync(record.createdDir);
        } catch {
          // Not empty: Gemini keeps its own files there too.
        }
      }
    } else writeAtomic(path, Buffer.from(record.original, 'base64').toString('utf8'));
    clearRecord();
    report.changed = true;
    report.files[0]!.changes = [
      ...found.events.map((e) => `- hook ${e}`),
      ...(found.mcp ? ['- MCP server "shim"'] : []),
    ];
    report.notes.push(
      record.original === null
        ? `removed ${path}, which shim had created`
        : `${path} is back to what it was before shim was installed`,
    );
    return report;
  }
  if (found.events.length === 0 && !found.mcp) {
    report.notes.push(`shim is not installed in ${path}`);
    clearRecord();
    return report;
  }
  writeAtomic(path, serialize(withoutShim(settings), before));
  clearRecord();
  report.changed = true;
  report.files[0]!.changes = [
    ...found.events.map((e) => `- hook ${e}`),
    ...(found.mcp ? ['- MCP server "shim"'] : []),
  ];
  report.notes.push(
    `${path} changed since shim was installed: only shim's entries were taken out (the rest is as you left it, reformatted)`,
  );
  return report;
}
