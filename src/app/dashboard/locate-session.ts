/**
 * From a session id in a dashboard request to its transcript: only ids of a plain form are
 * looked up, and only where shim itself recorded the transcript or where Claude Code keeps them —
 * nothing a request says ever becomes a path.
 * @module
 */
import { statSync } from 'node:fs';
import { AppError } from '../../core/errors.ts';
import { listAllTranscripts } from '../../agents/claude/sessions.ts';
import { withStore } from '../open-store.ts';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Claude Code's session ids are UUIDs (its transcripts' file names); other names of a plain form
 * are looked up too. An id is only ever compared with recorded ones, never joined into a path.
 */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

export function isSessionId(value: string): boolean {
  return SESSION_ID.test(value) && !value.includes('..');
}

/** The transcript of session `id`: recorded in the store, else found under the projects folder. */
export async function locateSessionTranscript(home: string, env: Env, id: string): Promise<string> {
  if (!isSessionId(id)) {
    throw new AppError(
      'USAGE',
      `not a session id: ${JSON.stringify(id.slice(0, 80))}`,
      'ids are letters, digits, -, _ and .',
    );
  }
  const recorded = await withStore(home, (store) => store.sessions.get(id)?.transcriptPath ?? null);
  const candidates = [
    ...(recorded ? [recorded] : []),
    ...listAllTranscripts(env)
      .filter((f) => f.sessionId === id)
      .map((f) => f.path),
  ];
  for (const path of candidates) {
    try {
      if (statSync(path).isFile() && /\.jsonl(?:\.gz)?$/.test(path)) return path;
    } catch {
      // recorded once, gone since
    }
  }
  throw new AppError(
    'SESSION_NOT_FOUND',
    `no transcript for session ${id}`,
    'it may have been deleted; the checkpoints shim took of it are still listed',
  );
}
