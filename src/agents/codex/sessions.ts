/**
 * Where Codex CLI keeps rollouts: `$CODEX_HOME` (default ~/.codex)
 * `/sessions/YYYY/MM/DD/rollout-<local time>-<thread id>.jsonl`, archived threads under
 * `archived_sessions/` (the same tree, or flat), cold ones compressed to `.jsonl.zst` with a
 * plain `.jsonl` beside it winning (docs/agents.md, "Codex CLI").
 * @module
 */
import { closeSync, readdirSync, readSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Env } from '../../store/home/home.ts';
import type { SessionFile } from '../agent.ts';
import { openLogFile } from '../../transcript/open-log.ts';

export function getCodexHome(env: Env): string {
  const configured = env.CODEX_HOME?.trim();
  return configured ? resolve(configured) : join(homedir(), '.codex');
}

const ROLLOUT =
  /^rollout-.*-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl(?:\.zst)?$/;

/** The thread id a rollout's file name ends with, or null for another file. */
export function rolloutSessionId(name: string): string | null {
  return ROLLOUT.exec(name)?.[1] ?? null;
}

export function isRolloutPath(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1).replace(/\.gz$/, '');
  return ROLLOUT.test(name);
}

function walk(dir: string, depth: number, out: SessionFile[]): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const plain = new Set(names.filter((n) => n.endsWith('.jsonl')));
  for (const name of names) {
    const path = join(dir, name);
    const id = rolloutSessionId(name);
    if (id) {
      if (name.endsWith('.zst') && plain.has(name.slice(0, -4))) continue;
      try {
        const stat = statSync(path);
        if (stat.isFile()) out.push({ path, sessionId: id, mtimeMs: stat.mtimeMs });
      } catch {
        // vanished between readdir and stat
      }
    } else if (depth > 0 && /^\d+$/.test(name)) {
      walk(path, depth - 1, out);
    }
  }
}

/** Every rollout, live and archived, newest first. */
export function listRollouts(env: Env): SessionFile[] {
  const home = getCodexHome(env);
  const files: SessionFile[] = [];
  walk(join(home, 'sessions'), 3, files);
  walk(join(home, 'archived_sessions'), 3, files);
  return files.sort((a, b) => b.mtimeMs - a.mtimeMs);
}

/** The cwd in a rollout's first line (session_meta), or null. */
export function readRolloutCwd(path: string): string | null {
  if (path.endsWith('.zst')) return null;
  let fd: number;
  try {
    fd = openLogFile(path);
  } catch {
    return null;
  }
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const n = readSync(fd, buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, n).toString('utf8');
    // The meta line can be long (base instructions): look for its cwd without parsing it whole.
    const end = text.indexOf('\n');
    const match = /"cwd":"((?:[^"\\]|\\.)*)"/.exec(end >= 0 ? text.slice(0, end) : text);
    return match ? (JSON.parse(`"${match[1]}"`) as string) : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** How many of the newest rollouts are looked into for a project's latest session. */
const LOOK_AT = 200;

export function findLatestRollout(cwd: string, env: Env): SessionFile | null {
  const want = resolve(cwd);
  for (const file of listRollouts(env).slice(0, LOOK_AT)) {
    const at = readRolloutCwd(file.path);
    if (at !== null && resolve(at) === want) return file;
  }
  return null;
}

export function findRolloutById(sessionId: string, env: Env): SessionFile | null {
  return listRollouts(env).find((file) => file.sessionId === sessionId) ?? null;
}
