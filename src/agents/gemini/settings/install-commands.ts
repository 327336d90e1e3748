/**
 * shim's custom commands for Gemini CLI (gemini-commands.ts) written into, and taken out of, the
 * `commands/` directory beside the settings.json install writes. What shim wrote is recorded in
 * SHIM_HOME (each file's sha256, and the directory if shim made it): uninstall removes only those
 * files, and only while they hold what shim wrote. A file of the same name shim did not write is
 * the user's own command: never overwritten, said, and skipped.
 * @module
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fnvHash } from '../../../core/fnv-hash.ts';
import { ensureDir } from '../../../store/home/home.ts';
import { readJsonFile, writeJsonFileAtomic } from '../../../store/home/json-file.ts';
import { isObj } from '../chat-record.ts';
import { commandStartProblem, geminiCommandFiles } from './gemini-commands.ts';
import type { ShimInvocation } from './gemini-entries.ts';

/** What shim wrote into one commands directory. */
export type CommandsRecord = {
  dir: string;
  /** File name → sha256 of the bytes shim wrote. */
  files: Record<string, string>;
  /** Commands left out because the user has a file of that name. */
  skipped: string[];
  /** The directory, when shim made it (removed again once empty). */
  createdDir: string | null;
};

export type CommandsReport = { path: string; changed: boolean; changes: string[]; notes: string[] };

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** `commands/` beside a Gemini settings.json: where Gemini CLI reads custom commands. */
export function commandsDirOf(settingsPath: string): string {
  return join(dirname(settingsPath), 'commands');
}

function recordPath(home: string, dir: string): string {
  return join(home, 'installs', `gemini-commands-${fnvHash(dir)}.json`);
}

export function readCommandsRecord(home: string, dir: string): CommandsRecord | null {
  const value = readJsonFile(recordPath(home, dir));
  return isObj(value) && value.dir === dir && isObj(value.files)
    ? {
        dir,
        files: value.files as Record<string, string>,
        skipped: Array.isArray(value.skipped) ? (value.skipped as string[]) : [],
        createdDir: typeof value.createdDir === 'string' ? value.createdDir : null,
      }
    : null;
}

function readBytes(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

function writeAtomic(path: string, text: string): void {
  const temp = `${path}.shim-${process.pid}.tmp`;
  writeFileSync(temp, text, { mode: 0o644 });
  renameSync(temp, path);
}

const slash = (file: string) => `/${file.replace(/\.toml$/, '')}`;

export function installGeminiCommands(request: {
  dir: string;
  home: string;
  invocation: ShimInvocation;
  dryRun: boolean;
}): CommandsReport {
  const { dir, home } = request;
  const report: CommandsReport = { path: dir, changed: false, changes: [], notes: [] };
  const problem = commandStartProblem(request.invocation);
  if (problem !== null) {
    report.notes.push(
      `${problem}: shim's commands are not installed (the shell commands still work)`,
    );
    return report;
  }
  const previous = readCommandsRecord(home, dir);
  const record: CommandsRecord = {
    dir,
    files: {},
    skipped: [],
    createdDir: previous?.createdDir ?? null,
  };
  const writes: { path: string; text: string }[] = [];
  for (const file of geminiCommandFiles(request.invocation)) {
    const path = join(dir, file.name);
    const bytes = readBytes(path);
    const ours =
      bytes !== null &&
      (bytes.toString('utf8') === file.text || previous?.files[file.name] === sha256(bytes));
    if (bytes !== null && !ours) {
      record.skipped.push(file.name);
      report.notes.push(
        `${path} is your own ${slash(file.name)} command: left as it is, shim's ${slash(file.name)} is not installed (\`shim slash ${slash(file.name).slice(1)}\` in the shell does the same)`,
      );
      continue;
    }
    record.files[file.name] = sha256(file.text);
    if (bytes !== null && bytes.toString('utf8') === file.text) continue;
    writes.push({ path, text: file.text });
    report.changes.push(`${bytes === null ? '+' : '~'} command ${slash(file.name)}`);
  }
  // A command an older shim wrote that this one no longer has goes, if it is as shim left it.
  const dropped = Object.entries(previous?.files ?? {}).filter(
    ([name, written]) =>
      !(name in record.files) &&
      !record.skipped.includes(name) &&
      sha256(readBytes(join(dir, name)) ?? '') === written,
  );
  for (const [name] of dropped) report.changes.push(`- command ${slash(name)}`);
  const recordChanged = JSON.stringify(previous) !== JSON.stringify(record);
  report.changed = writes.length > 0 || dropped.length > 0 || recordChanged;
  if (request.dryRun || !report.changed) return report;
  for (const [name] of dropped) rmSync(join(dir, name), { force: true });
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true });
    record.createdDir = dir;
  }
  ensureDir(home, 'installs');
  writeJsonFileAtomic(recordPath(home, dir), record);
  for (const write of writes) writeAtomic(write.path, write.text);
  return report;
}

export function uninstallGeminiCommands(request: { dir: string; home: string }): CommandsReport {
  const { dir, home } = request;
  const report: CommandsReport = { path: dir, changed: false, changes: [], notes: [] };
  const record = readCommandsRecord(home, dir);
  if (record === null) return report;
  for (const [name, written] of Object.entries(record.files)) {
    const path = join(dir, name);
    const bytes = readBytes(path);
    if (bytes === null) continue;
    if (sha256(bytes) !== written) {
      report.notes.push(
        `${path} changed since shim wrote it: left as it is (delete it if you no longer want ${slash(name)})`,
      );
      continue;
    }
    rmSync(path);
    report.changes.push(`- command ${slash(name)}`);
  }
  if (record.createdDir !== null) {
    try {
      rmdirSync(record.createdDir);
    } catch {
      // Not empty: the user's own commands live there too.
    }
  }
  rmSync(recordPath(home, dir), { force: true });
  report.changed = true;
  return report;
}
