/**
 * Which agent wrote a session log, for the commands that take any file (`replay`, `checkpoint`):
 * `--agent` when given — checked against the file, so a wrong one is a clear error rather than
 * an empty replay — else the file's name (agents/detect.ts), else its first lines as each
 * adapter recognises them (AgentAdapter.sessions.sniff): a rollout or chat copied under another
 * name is still read as what it is. CLI only: it loads every adapter through the dispatch.
 * @module
 */
import { closeSync, readSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { agentOfLogPath } from '../../agents/detect.ts';
import { agentName, AGENT_IDS, type AgentId } from '../../core/agent-id.ts';
import { AppError } from '../../core/errors.ts';
import type { Env } from '../../store/home/home.ts';
import { loadAgentAdapter } from './load-agent.ts';
import { openLogFile } from '../../transcript/open-log.ts';

const HEAD_BYTES = 256 * 1024;
const HEAD_RECORDS = 50;

/** The first JSON records of a plain or gzipped log; [] for one whose head cannot be read so. */
export function readHeadRecords(path: string): unknown[] {
  let head: Buffer;
  let fd: number;
  try {
    fd = openLogFile(path);
  } catch {
    return []; // missing or unreadable: the reader that follows says so
  }
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    head = buffer.subarray(0, readSync(fd, buffer, 0, HEAD_BYTES, 0));
  } finally {
    closeSync(fd);
  }
  if (path.endsWith('.gz')) {
    try {
      head = gunzipSync(head, { finishFlush: 2 /* Z_SYNC_FLUSH: a cut head still inflates */ });
    } catch {
      return [];
    }
  }
  // zstd and other binary heads parse to nothing.
  const records: unknown[] = [];
  for (const line of head.toString('utf8').split('\n')) {
    if (records.length >= HEAD_RECORDS) break;
    if (!line.startsWith('{')) continue;
    try {
      records.push(JSON.parse(line));
    } catch {
      // a torn last line, or not JSON
    }
  }
  return records;
}

async function looksLike(id: AgentId, records: readonly unknown[]): Promise<boolean> {
  return (await loadAgentAdapter(id)).sessions.sniff(records);
}

/** The agent of `path` (see the module comment); throws when `forced` does not fit the file. */
export async function detectLogAgent(path: string, forced?: AgentId | null): Promise<AgentId> {
  const records = readHeadRecords(path);
  if (forced) {
    // A compressed archive (or an empty file) shows nothing to check: the user's word stands.
    if (records.length === 0 || (await looksLike(forced, records))) return forced;
    const others: AgentId[] = [];
    for (const id of AGENT_IDS)
      if (id !== forced && (await looksLike(id, records))) others.push(id);
    const like = others[0];
    throw new AppError(
      'TRANSCRIPT_UNREADABLE',
      `${path} does not look like a ${agentName(forced)} log${like ? `: it looks like a ${agentName(like)} one` : ` (none of its first ${records.length} records is one)`}`,
      like
        ? `use --agent ${like}, or leave --agent out to tell the format from the file`
        : 'pass a session log of that agent, or leave --agent out to tell the format from the file',
    );
  }
  const byName = agentOfLogPath(path);
  if (byName !== 'claude' || records.length === 0) return byName;
  for (const id of AGENT_IDS) if (id !== 'claude' && (await looksLike(id, records))) return id;
  return 'claude';
}

/**
 * The log a command names with `--agent`: a file (checked to be that agent's), a session id of
 * that agent, or that agent's newest session of `cwd`.
 */
export async function resolveAgentLog(request: {
  agent: AgentId;
  transcript?: string;
  sessionId?: string;
  cwd: string;
  env: Env;
}): Promise<string> {
  const { agent, cwd, env } = request;
  if (request.transcript) {
    const path = resolve(cwd, request.transcript);
    await detectLogAgent(path, agent);
    return path;
  }
  const adapter = await loadAgentAdapter(agent);
  const found = request.sessionId
    ? adapter.sessions.byId(request.sessionId, cwd, env)
    : adapter.sessions.latest(cwd, env);
  if (found) return found.path;
  throw new AppError(
    'SESSION_NOT_FOUND',
    request.sessionId
      ? `no ${agentName(agent)} session ${request.sessionId} under ${adapter.sessions.root(env)}`
      : `no ${agentName(agent)} session of ${cwd} under ${adapter.sessions.root(env)}`,
    'pass --transcript <file>, or run the command in the project the session ran in',
  );
}
