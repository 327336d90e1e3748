/**
 * Where Gemini CLI keeps things (0.61.0): its home is `$GEMINI_CLI_HOME` or the user's home, then
 * `.gemini/`; settings in `.gemini/settings.json` (user) and `<project>/.gemini/settings.json`;
 * chats in `.gemini/tmp/<slug>/chats/session-<YYYY-MM-DDThh-mm>-<id8>.jsonl`, the slug of a
 * project directory listed in `.gemini/projects.json` (older chats: a sha256 directory). Reading
 * only. docs/agents.md, "Gemini CLI".
 * @module
 */
import { existsSync, readdirSync, readFileSync, readSync, closeSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { AppError } from '../../core/errors.ts';
import { isGeminiChatHead, isObj } from './chat-record.ts';
import { openLogFile } from '../../transcript/open-log.ts';

export type GeminiEnv = Readonly<Record<string, string | undefined>>;

export function geminiDir(env: GeminiEnv): string {
  return join(env.GEMINI_CLI_HOME || env.HOME || homedir(), '.gemini');
}

export function userSettingsPath(env: GeminiEnv): string {
  return join(geminiDir(env), 'settings.json');
}

export function projectSettingsPath(projectRoot: string): string {
  return join(projectRoot, '.gemini', 'settings.json');
}

/** JSON with the comments Gemini CLI allows in its settings removed (strings kept intact). */
export function parseSettingsText(text: string): unknown {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else out += c;
  }
  return out.trim() ? (JSON.parse(out) as unknown) : {};
}

function readSettings(path: string): Record<string, unknown> | null {
  try {
    const value = parseSettingsText(readFileSync(path, 'utf8'));
    return isObj(value) ? value : null;
  } catch {
    return null;
  }
}

/** A configured threshold the CLI would use: a fraction in (0, 1]. */
function readCompressionThreshold(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= 1
    ? value
    : null;
}

/** `model.compressionThreshold` as the CLI would take it: the project's settings over the user's. */
export function readConfiguredThreshold(env: GeminiEnv, projectRoot: string | null): number | null {
  const files = [...(projectRoot ? [projectSettingsPath(projectRoot)] : []), userSettingsPath(env)];
  for (const file of files) {
    const model = readSettings(file)?.model;
    const value = isObj(model) ? readCompressionThreshold(model.compressionThreshold) : null;
    if (value !== null) return value;
  }
  return null;
}

/** The configured model name (settings), the fallback when a chat has no model message yet. */
export function readConfiguredModel(env: GeminiEnv, projectRoot: string | null): string | null {
  for (const file of [
    ...(projectRoot ? [projectSettingsPath(projectRoot)] : []),
    userSettingsPath(env),
  ]) {
    const model = readSettings(file)?.model;
    if (isObj(model) && typeof model.name === 'string') return model.name;
  }
  return null;
}

/** The project's chat directory slug: projects.json, else a tmp dir whose .project_root names it. */
export function projectSlug(cwd: string, env: GeminiEnv): string | null {
  const dir = geminiDir(env);
  const root = resolve(cwd);
  try {
    const registry = JSON.parse(readFileSync(join(dir, 'projects.json'), 'utf8')) as unknown;
    const projects = isObj(registry) && isObj(registry.projects) ? registry.projects : {};
    const slug = projects[root];
    if (typeof slug === 'string' && slug && !slug.includes('/')) return slug;
  } catch {
    // No registry yet: look for the marker files.
  }
  try {
    for (const entry of readdirSync(join(dir, 'tmp'))) {
      const marker = join(dir, 'tmp', entry, '.project_root');
      if (existsSync(marker) && readFileSync(marker, 'utf8').trim() === root) return entry;
    }
  } catch {
    // No tmp directory: no chats.
  }
  return null;
}

export type GeminiChat = { path: string; sessionId: string | null; mtimeMs: number };

function listChats(chatsDir: string): GeminiChat[] {
  let names: string[];
  try {
    names = readdirSync(chatsDir);
  } catch {
    return [];
  }
  const chats: GeminiChat[] = [];
  for (const name of names) {
    if (!/^session-.*\.jsonl?$/.test(name)) continue;
    const path = join(chatsDir, name);
    try {
      chats.push({ path, sessionId: readChatSessionId(path), mtimeMs: statSync(path).mtimeMs });
    } catch {
      // Gone meanwhile.
    }
  }
  return chats.sort((a, b) => b.mtimeMs - a.mtimeMs);
}

/** The project's chats, newest first. */
export function listProjectChats(cwd: string, env: GeminiEnv): GeminiChat[] {
  const slug = projectSlug(cwd, env);
  return slug ? listChats(join(geminiDir(env), 'tmp', slug, 'chats')) : [];
}

/** The newest chat of the project at `cwd`. */
export function findLatestGeminiChat(cwd: string, env: GeminiEnv): GeminiChat {
  const chat = listProjectChats(cwd, env)[0];
  if (!chat)
    throw new AppError(
      'SESSION_NOT_FOUND',
      `no Gemini CLI chat for ${cwd}`,
      `run gemini in this directory first, or pass the chat's path (${join(geminiDir(env), 'tmp', '<project>', 'chats')})`,
    );
  return chat;
}

/** Every chat of every project, newest first. */
export function listAllGeminiChats(env: GeminiEnv): GeminiChat[] {
  const tmp = join(geminiDir(env), 'tmp');
  let slugs: string[];
  try {
    slugs = readdirSync(tmp);
  } catch {
    return [];
  }
  return slugs
    .flatMap((slug) => listChats(join(tmp, slug, 'chats')))
    .sort((a, b) => b.mtimeMs - a.mtimeMs);
}

export function findGeminiChatById(sessionId: string, env: GeminiEnv): GeminiChat | null {
  const short = sessionId.slice(0, 8);
  return (
    listAllGeminiChats(env).find(
      (c) =>
        basename(c.path).includes(short) && (c.sessionId === null || c.sessionId === sessionId),
    ) ?? null
  );
}

const HEAD_BYTES = 4096;

function readHeadLine(path: string): string {
  const fd = openLogFile(path);
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const n = readSync(fd, buffer, 0, HEAD_BYTES, 0);
    const text = buffer.subarray(0, n).toString('utf8');
    const newline = text.indexOf('\n');
    return newline >= 0 ? text.slice(0, newline) : text;
  } finally {
    closeSync(fd);
  }
}

/** The session id of a chat's header line (null when it cannot be read). */
export function readChatSessionId(path: string): string | null {
  try {
    const head = JSON.parse(readHeadLine(path)) as unknown;
    return isGeminiChatHead(head) && isObj(head) ? (head.sessionId as string) : null;
  } catch {
    return null;
  }
}

/**
 * Is the file at `path` a Gemini chat? Its first line is the header (`sessionId` + `projectHash`),
 * or (legacy `.json`) the document opens with them. Gzipped files are judged by their name.
 */
export function isGeminiChat(path: string): boolean {
  if (/\/\.gemini\/tmp\/[^/]+\/chats\//.test(path)) return true;
  if (path.endsWith('.gz'))
    return /(^|\/)(session-[^/]*|[^/]*__session-[^/]*)\.jsonl?\.gz$/.test(path);
  try {
    const head = readHeadLine(path);
    if (readChatSessionId(path) !== null) return true;
    return /^\s*\{\s*"sessionId"\s*:/.test(head) && head.includes('"projectHash"');
  } catch {
    return false;
  }
}
