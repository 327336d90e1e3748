/**
 * Where Claude Code keeps transcripts: `<config>/projects/<encoded cwd>/<session-id>.jsonl`
 * (docs/claude-code.md, "Transcripts").
 * @module
 */
import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { AppError } from '../../core/errors.ts';
import type { Env } from '../../store/home/home.ts';

const MAX_DIR_NAME = 200;

export function getClaudeConfigDir(env: Env = process.env): string {
  const configured = env.CLAUDE_CONFIG_DIR?.trim();
  return configured ? resolve(configured) : join(env.HOME || homedir(), '.claude');
}

export function getProjectsDir(env: Env = process.env): string {
  return join(getClaudeConfigDir(env), 'projects');
}

/** "/home/me/my.app" → "-home-me-my-app" (every non-alphanumeric character becomes "-"). */
export function encodeProjectDir(cwd: string): string {
  return resolve(cwd).replace(/[^a-zA-Z0-9]/g, '-');
}

type SessionFile = { path: string; sessionId: string; mtimeMs: number };

function listSessionFiles(dir: string): SessionFile[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const files: SessionFile[] = [];
  for (const name of names) {
    if (!name.endsWith('.jsonl')) continue;
    const path = join(dir, name);
    try {
      const stat = statSync(path);
      if (stat.isFile()) files.push({ path, sessionId: name.slice(0, -6), mtimeMs: stat.mtimeMs });
    } catch {
      // vanished between readdir and stat
    }
  }
  return files;
}

/** Project folders that may hold this cwd's sessions (long names are cut and hashed). */
function findProjectDirs(projectsDir: string, cwd: string): string[] {
  const encoded = encodeProjectDir(cwd);
  if (encoded.length <= MAX_DIR_NAME) return [join(projectsDir, encoded)];
  const prefix = encoded.slice(0, MAX_DIR_NAME);
  try {
    return readdirSync(projectsDir)
      .filter((name) => name.startsWith(prefix))
      .map((name) => join(projectsDir, name));
  } catch {
    return [];
  }
}

/** The most recently written transcript of `cwd`'s project. */
export function findLatestSession(cwd: string, env: Env = process.env): SessionFile {
  const projectsDir = getProjectsDir(env);
  const dirs = findProjectDirs(projectsDir, cwd);
  const files = dirs.flatMap(listSessionFiles).sort((a, b) => b.mtimeMs - a.mtimeMs);
  const latest = files[0];
  if (!latest) {
    throw new AppError(
      'SESSION_NOT_FOUND',
      `no Claude Code session found for ${resolve(cwd)} (looked in ${dirs[0] ?? projectsDir})`,
      'run it inside a project where Claude Code has run, or pass a transcript path: shim status <file.jsonl>',
    );
  }
  return latest;
}

/** The transcript of session `sessionId`: this project first, then every project. */
export function findSessionById(
  sessionId: string,
  cwd: string,
  env: Env = process.env,
): SessionFile {
  if (!/^[\w-]+$/.test(sessionId)) {
    throw new AppError(
      'USAGE',
      `not a session id: ${sessionId}`,
      'session ids look like 4d5611e5-241a-462a-8d15-5122611a9569',
    );
  }
  const projectsDir = getProjectsDir(env);
  const candidates = [...findProjectDirs(projectsDir, cwd)];
  try {
    for (const name of readdirSync(projectsDir)) candidates.push(join(projectsDir, name));
  } catch {
    // no projects directory at all
  }
  for (const dir of candidates) {
    const path = join(dir, `${sessionId}.jsonl`);
    try {
      const stat = statSync(path);
      if (stat.isFile()) return { path, sessionId, mtimeMs: stat.mtimeMs };
    } catch {
      // not in this project
    }
  }
  throw new AppError(
    'SESSION_NOT_FOUND',
    `no transcript for session ${sessionId} under ${projectsDir}`,
    'list sessions with `ls ~/.claude/projects/*/`, or pass the transcript path',
  );
}

/** Every main transcript under the projects folder (subagent files excluded). */
export function listAllTranscripts(env: Env = process.env): SessionFile[] {
  const projectsDir = getProjectsDir(env);
  let projects: string[];
  try {
    projects = readdirSync(projectsDir);
  } catch {
    return [];
  }
  return projects.flatMap((name) => listSessionFiles(join(projectsDir, name)));
}
