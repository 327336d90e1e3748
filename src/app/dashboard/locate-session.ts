/**
 * From a session id in a dashboard request to its log: only ids of a plain form are looked up,
 * and only where shim itself recorded the log or where its agent keeps them — nothing a request
 * says ever becomes a path.
 * @module
 */
import { statSync } from 'node:fs';
import { AppError } from '../../core/errors.ts';
import type { Agents } from '../../agents/agent.ts';
import { withStore } from '../open-store.ts';
import { agentNamed, type SessionLog } from '../session/session-log.ts';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Claude Code's session ids are UUIDs (its transcripts' file names); other names of a plain form
 * are looked up too. An id is only ever compared with recorded ones, never joined into a path.
 */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

export function isSessionId(value: string): boolean {
  return SESSION_ID.test(value) && !value.includes('..');
}

/** The log of session `id`: recorded in the store, else found where an agent keeps its logs. */
export async function locateSessionTranscript(
  home: string,
  env: Env,
  id: string,
  agents: Agents,
): Promise<SessionLog> {
  if (!isSessionId(id)) {
    throw new AppError(
      'USAGE',
      `not a session id: ${JSON.stringify(id.slice(0, 80))}`,
      'ids are letters, digits, -, _ and .',
    );
  }
  const row = await withStore(home, (store) => store.sessions.get(id));
  const recordedAgent = row ? await agentNamed(row.agent, agents) : null;
  const candidates: SessionLog[] = [
    ...(row?.transcriptPath && recordedAgent
      ? [{ path: row.transcriptPath, agent: recordedAgent }]
      : []),
  ];
  for (const agentId of agents.ids) {
    const agent = await agents.agent(agentId);
    for (const f of agent.sessions.all(env))
      if (f.sessionId === id) candidates.push({ path: f.path, agent });
  }
  for (const log of candidates) {
    try {
      if (statSync(log.path).isFile()) return log;
    } catch {
      // recorded once, gone since
    }
  }
  throw new AppError(
    'SESSION_NOT_FOUND',
    `no log for session ${id}`,
    'it may have been deleted; the checkpoints shim took of it are still listed',
  );
}
