/**
 * Which session log a command means, and whose it is. A call that knows its agent (a hook, the
 * statusline) never asks here: it reads with the agent it was given. A command given a file tells
 * the agent from it — `--agent` when given, checked against the file so a wrong one is a clear
 * error rather than an empty replay; else the agent whose file names it has; else its first lines
 * as each agent recognises them (`sessions.sniff`), so a log copied under another name is read as
 * what it is. Given a session id or nothing, every agent's sessions are looked at.
 * @module
 */
import { closeSync, readSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Agent, Agents, SessionFile } from '../../agents/agent.ts';
import type { AgentId } from '../../core/agent-id.ts';
import { AppError } from '../../core/errors.ts';
import type { Env } from '../../store/home/home.ts';
import { gunzipHead } from '../../transcript/gunzip-head.ts';
import { describeOpenError, openLogFile } from '../../transcript/open-log.ts';

const HEAD_BYTES = 256 * 1024;
const HEAD_RECORDS = 50;
/** As many records as an agent's sniff needs to know its own log in practice (its first line). */
const FIRST_RECORDS = 5;

/** A session log and the agent that wrote it. */
export type SessionLog = { path: string; agent: Agent };

/** The head of a log: its first JSON records, parsed only as far as they are asked for. */
export type LogHead = {
  /** The first few records (up to 5). */
  readonly first: unknown[];
  /** The first records (up to 50). */
  readonly records: unknown[];
  /** Its non-blank lines. */
  readonly lines: number;
};

/**
 * The opening of a log written as one pretty-printed JSON document (Gemini CLI's chats up to 0.38:
 * `{`, then `"sessionId": …`, `"projectHash": …`, … `"messages": [` on lines of their own): its
 * top-level fields before the first nested one, as one record, so that the agent's sniff knows
 * such a log by content as it knows a JSONL one. Null when the head is not such an opening.
 */
function documentOpening(text: string): Record<string, unknown> | null {
  const lines = text.split('\n');
  if (lines[0]?.trim() !== '{') return null;
  const fields: Record<string, unknown> = {};
  for (const line of lines.slice(1)) {
    const field = /^ {2}"([^"\\]+)": (.+?),?\s*$/.exec(line);
    if (!field || /^[[{]/.test(field[2]!)) break;
    try {
      fields[field[1]!] = JSON.parse(field[2]!);
    } catch {
      break;
    }
  }
  return Object.keys(fields).length > 0 ? fields : null;
}

/**
 * The first lines and JSON records of a plain or gzipped log (none for a head that cannot be
 * parsed; a one-document log's opening as its one record); a file that cannot be opened or read
 * (missing, a directory, denied) is an error that says so.
 */
export function readHead(path: string): LogHead {
  let head: Buffer;
  const fd = openLogFile(path);
  try {
    const buffer = Buffer.allocUnsafe(HEAD_BYTES);
    head = buffer.subarray(0, readSync(fd, buffer, 0, HEAD_BYTES, 0));
  } catch (error) {
    throw describeOpenError(path, error);
  } finally {
    closeSync(fd);
  }
  if (path.endsWith('.gz')) {
    try {
      head = gunzipHead(head);
    } catch {
      head = Buffer.alloc(0);
    }
  }
  // zstd and other binary heads parse to nothing. Decoded a line at a time, only as far as the
  // records asked for go (a '\n' byte is never part of a longer character, so each line decodes
  // as it would from the whole): parsing all 50 of a Claude Code log's first records (~100 KB of
  // JSON) cost `shim status` ~2 ms, where its first record tells the agent.
  const whole = head;
  const records: unknown[] = [];
  let start = 0;
  const firstLine = whole.toString('utf8', 0, Math.min(whole.length, 16));
  if (/^\{\r?\n/.test(firstLine)) {
    const opening = documentOpening(whole.toString('utf8'));
    if (opening) records.push(opening);
    start = whole.length;
  }
  const parseUpTo = (count: number): unknown[] => {
    while (start < whole.length && records.length < count) {
      let end = whole.indexOf(0x0a, start);
      if (end < 0) end = whole.length;
      if (whole[start] === 0x7b /* { */) {
        try {
          records.push(JSON.parse(whole.toString('utf8', start, end)));
        } catch {
          // a torn last line, or not JSON
        }
      }
      start = end + 1;
    }
    return records.slice(0, count);
  };
  return {
    get first() {
      return parseUpTo(FIRST_RECORDS);
    },
    get records() {
      return parseUpTo(HEAD_RECORDS);
    },
    // Counted only for a file no agent recognises.
    get lines() {
      return whole
        .toString('utf8')
        .split('\n')
        .filter((l) => l.trim() !== '').length;
    },
  };
}

/**
 * Whether `agent` knows the head as its log: asked of the first records, then of all of them
 * (a sniff that says yes of a few records says yes of more: agents/agent.ts).
 */
function sniffs(agent: Agent, head: LogHead): boolean {
  return agent.sessions.sniff(head.first) || agent.sessions.sniff(head.records);
}

async function everyAgent(agents: Agents): Promise<Agent[]> {
  return Promise.all(agents.ids.map((id) => agents.agent(id)));
}

/** The agent of `path` (see the module comment); throws when `forced` does not fit the file. */
export async function detectLogAgent(
  path: string,
  forced: AgentId | null | undefined,
  agents: Agents,
): Promise<Agent> {
  const head = readHead(path);
  if (forced) {
    const agent = await agents.agent(forced);
    // A compressed archive (or an empty file) shows nothing to check: the user's word stands.
    if (head.first.length === 0 || sniffs(agent, head)) return agent;
    const { records } = head;
    const all = await everyAgent(agents);
    const like = all.find((a) => a.id !== forced && a.sessions.sniff(records));
    throw new AppError(
      'TRANSCRIPT_UNREADABLE',
      `${path} does not look like a ${agent.name} log${like ? `: it looks like a ${like.name} one` : ` (none of its first ${records.length} records is one)`}`,
      like
        ? `use --agent ${like.id}, or leave --agent out to tell the format from the file`
        : 'pass a session log of that agent, or leave --agent out to tell the format from the file',
    );
  }
  // The first agent both named like the file and sniffing it is the answer whatever the others
  // say, so agents are loaded one at a time until then (each is a bundle of its own: a Claude
  // Code log given by path loads no other agent).
  for (const id of agents.ids) {
    const agent = await agents.agent(id);
    if (agent.sessions.namedLike(path) && sniffs(agent, head)) return agent;
  }
  const { records } = head;
  const all = await everyAgent(agents);
  const named = all.filter((a) => a.sessions.namedLike(path));
  const sniffed = all.filter((a) => a.sessions.sniff(records));
  const found = (records.length > 0 ? sniffed[0] : undefined) ?? named[0];
  if (found) return found;
  // An empty file says nothing of its agent, and every agent reads it alike: a session with
  // nothing in it yet (a log is created before its first line is written).
  const lines = head.lines;
  if (lines === 0 && all[0]) return all[0];
  throw new AppError(
    'TRANSCRIPT_UNREADABLE',
    `${path} is not a session log (none of its ${lines} lines is ${all
      .map((a) => a.sessions.recordName)
      .join(', ')
      .replace(/, ([^,]*)$/, ' or $1')})`,
    `pass a session file: ${all.map((a) => a.sessions.example).join(' or ')}`,
  );
}

/** The newest of `files`, or null. */
function newest(files: readonly SessionLog[], mtimes: readonly number[]): SessionLog | null {
  let best = -1;
  for (let i = 0; i < files.length; i++) if (best < 0 || mtimes[i]! > mtimes[best]!) best = i;
  return best < 0 ? null : files[best]!;
}

/**
 * The log a command means: a file (whose agent is told from it), a session id (looked up in
 * every agent's sessions, or `agent`'s), or the newest session of `cwd` of any agent (or of
 * `agent`).
 */
export async function findSessionLog(
  request: {
    transcript?: string;
    sessionId?: string;
    cwd: string;
    env: Env;
    agent?: AgentId | null;
  },
  agents: Agents,
): Promise<SessionLog> {
  const { cwd, env } = request;
  if (request.transcript) {
    const path = resolve(cwd, request.transcript);
    return { path, agent: await detectLogAgent(path, request.agent, agents) };
  }
  if (request.sessionId) {
    // The first agent that has the session answers: the ones after it are not loaded.
    for (const id of request.agent ? [request.agent] : agents.ids) {
      const agent = await agents.agent(id);
      const file = agent.sessions.byId(request.sessionId, cwd, env);
      if (file) return { path: file.path, agent };
    }
  }
  const candidates = request.agent ? [await agents.agent(request.agent)] : await everyAgent(agents);
  const found: SessionLog[] = [];
  const mtimes: number[] = [];
  for (const agent of request.sessionId ? [] : candidates) {
    const file: SessionFile | null = agent.sessions.latest(cwd, env);
    if (!file) continue;
    found.push({ path: file.path, agent });
    mtimes.push(file.mtimeMs);
  }
  const log = newest(found, mtimes);
  if (log) return log;
  const names = candidates.map((a) => a.name).join(', ');
  const where = candidates.map((a) => a.sessions.root(env)).join(', ');
  throw new AppError(
    'SESSION_NOT_FOUND',
    request.sessionId
      ? `no ${names} session ${request.sessionId} (looked under ${where})`
      : `no ${names} session of ${cwd} (looked under ${where})`,
    'pass the log file, or run the command in the project the session ran in',
  );
}

/** The newest session of `cwd` among `agents`' (all of them unless given), or null. */
export async function newestSession(
  cwd: string,
  env: Env,
  agents: Agents,
  only?: readonly Agent[],
): Promise<{ file: SessionFile; agent: Agent } | null> {
  let newest: { file: SessionFile; agent: Agent } | null = null;
  for (const agent of only ?? (await everyAgent(agents))) {
    const file = agent.sessions.latest(cwd, env);
    if (file && (!newest || file.mtimeMs > newest.file.mtimeMs)) newest = { file, agent };
  }
  return newest;
}

/** The agent a stored row names (a session's, a checkpoint's), or null for an id shim does not know. */
export async function agentNamed(id: string, agents: Agents): Promise<Agent | null> {
  return (agents.ids as readonly string[]).includes(id) ? agents.agent(id as AgentId) : null;
}

/** The directory a log's session ran in, from its first lines (no cursor kept); null when unsaid. */
export function readLogCwd(path: string, agent: Agent): string | null {
  try {
    if (agent.log.isCompressed(path)) return null;
    return agent.log.read(path, null, { untilLine: HEAD_RECORDS }).cursor.state.cwd;
  } catch {
    return null;
  }
}
