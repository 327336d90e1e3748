/**
 * Session logs of agents other than Claude Code, reached without loading their code where it is
 * not needed: each entry that serves them (the Gemini hook, the heavy hook half, the CLI) registers
 * the readers it carries, and the use cases ask here before reading a log as Claude Code's. So
 * Claude Code's per-call bundles hold none of another agent's reader.
 * @module
 */
import type { Env } from '../../store/home/home.ts';
import type { TranscriptCursor } from '../../transcript/reader.ts';

export type AgentLogReadOptions = { finalize?: boolean; untilLine?: number };

export type AgentLogReader = {
  agent: 'gemini';
  /** Whether the file at `path` is this agent's session log. */
  matches: (path: string) => boolean;
  read: (
    path: string,
    cursor: TranscriptCursor | null,
    options?: AgentLogReadOptions,
  ) => { cursor: TranscriptCursor; bytesRead: number; restarted: boolean };
  /** A session id's log, any project; null when this agent has none. */
  findById: (sessionId: string, env: Env) => string | null;
};

const readers: AgentLogReader[] = [];

export function registerAgentLogReader(reader: AgentLogReader): void {
  if (!readers.some((r) => r.agent === reader.agent)) readers.push(reader);
}

export function findAgentLogReader(path: string): AgentLogReader | null {
  return readers.find((r) => r.matches(path)) ?? null;
}

export function findAgentLogById(sessionId: string, env: Env): string | null {
  for (const reader of readers) {
    const path = reader.findById(sessionId, env);
    if (path) return path;
  }
  return null;
}
