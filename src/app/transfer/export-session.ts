/**
 * `shim export <session>`: a session's checkpoints, session row, handoffs (their documents
 * included) and compaction summaries as one file another store can import (session-file.ts).
 * Checkpoints were redacted when they were taken; everything is redacted again here, so a row
 * written before a redaction rule existed leaves no secret in the file either.
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { identifyProject } from '../../capture/project-remote.ts';
import { AppError } from '../../core/errors.ts';
import { redactValueSync } from '../../redact/redact.ts';
import type { SessionRows } from '../../store/ports/session-transfer.ts';
import { STORE_SCHEMA_VERSION, withStore, type Store } from '../open-store.ts';
import { sealCheckpoint } from '../checkpoint/seal-checkpoint.ts';
import { findLatestCheckpoint } from '../checkpoint/find-checkpoint.ts';
import type { Scope } from '../project-scope.ts';
import { loadSessionMemory } from '../session/read-session.ts';
import {
  serializeSessionFile,
  SESSION_FILE_FORMAT,
  SESSION_FILE_VERSION,
  type ExportedProject,
} from './session-file.ts';

export type ExportResult = {
  sessionId: string;
  agent: string;
  project: ExportedProject | null;
  checkpoints: number;
  handoffs: number;
  compactionSummaries: number;
  /** Secrets found by the second redaction (0 when capture caught them all). */
  redacted: number;
  bytes: number;
};

/** A full session id, else a unique prefix of one, else the newest session of the scope. */
function resolveSession(store: Store, session: string | undefined, scope: Scope): string {
  if (session === undefined)
    return findLatestCheckpoint(store.checkpoints, undefined, scope).sessionId;
  const ids = store.transfer.sessionIdsStartingWith(session, 6);
  if (ids.includes(session)) return session;
  if (ids.length === 1) return ids[0]!;
  if (ids.length > 1)
    throw new AppError(
      'USAGE',
      `"${session}" matches ${ids.length > 5 ? 'more than 5' : ids.length} sessions (${ids.slice(0, 5).join(', ')})`,
      'give more characters of the session id',
    );
  throw new AppError(
    'SESSION_NOT_FOUND',
    `no session "${session}" in the store`,
    'give a session id (or its first characters) as `shim list --all` shows them',
  );
}

/** Where the session ran, as every machine names it (null when that directory is gone). */
function projectOf(rows: SessionRows): ExportedProject | null {
  const cwd =
    (typeof rows.session?.cwd === 'string' ? rows.session.cwd : null) ??
    rows.checkpoints.at(-1)?.checkpoint.source.cwd ??
    null;
  if (cwd === null || !existsSync(cwd)) return null;
  const identity = identifyProject(cwd);
  return { id: identity.id, root: identity.root };
}

export async function exportSession(request: {
  home: string;
  session?: string;
  scope: Scope;
  shimVersion: string;
  now: number;
}): Promise<{ text: string; result: ExportResult }> {
  const { sessionId, rows, learned } = await withStore(request.home, (store) => {
    const sessionId = resolveSession(store, request.session?.trim() || undefined, request.scope);
    return {
      sessionId,
      rows: store.transfer.read(sessionId),
      learned: store.learned.all().lines,
    };
  });
  // The documents travel with their rows: the path names a file of this machine only.
  const handoffs = rows.handoffs.map((h) => {
    let document: string | null = null;
    try {
      document = readFileSync(String(h.path), 'utf8');
    } catch {
      // gone (shim gc, or by hand): the row still says a handoff was written
    }
    return { ...h, document };
  });
  // Everything of the session redacted as one value, with the session's memory of its secrets:
  // a value found in one checkpoint, summary or handoff is replaced in all the others.
  const memory = loadSessionMemory(
    request.home,
    typeof rows.session?.transcript_path === 'string'
      ? rows.session.transcript_path
      : rows.checkpoints.at(-1)?.checkpoint.source.transcriptPath,
  );
  // And what any session of the home learned (a row may predate it).
  memory.absorb(learned);
  const whole = redactValueSync(
    {
      checkpoints: rows.checkpoints.map((e) => e.checkpoint),
      others: { session: rows.session, handoffs, compactionSummaries: rows.compactionSummaries },
    },
    memory,
  );
  let findings = whole.findings;
  // Checkpoints through the same last steps as when they were taken (redact, limit, validate):
  // a secret caught only now must not leave one that the importing side refuses as too long.
  const checkpoints: SessionRows['checkpoints'] = [];
  for (const [i, entry] of rows.checkpoints.entries()) {
    const sealed = await sealCheckpoint(whole.value.checkpoints[i]!, memory);
    findings += sealed.findings;
    checkpoints.push({
      checkpoint: { ...sealed.checkpoint, checkpointNumber: entry.checkpoint.checkpointNumber },
      row: entry.row,
    });
  }
  const others = { value: whole.value.others };
  // The checkpoints' column first: it is the one every view of a checkpoint reads.
  const agent =
    rows.checkpoints.at(-1)?.row.agent ??
    (typeof rows.session?.agent === 'string' ? rows.session.agent : null);
  // A session is found by its session row or its checkpoints, and both name their agent.
  if (agent === null)
    throw new AppError('SESSION_NOT_FOUND', `session ${sessionId} has no rows in the store`);
  const project = projectOf(rows);
  const text = serializeSessionFile({
    format: SESSION_FILE_FORMAT,
    formatVersion: SESSION_FILE_VERSION,
    schemaVersion: STORE_SCHEMA_VERSION,
    shimVersion: request.shimVersion,
    exportedAt: new Date(request.now).toISOString(),
    sessionId,
    agent,
    project,
    rows: { ...others.value, checkpoints },
  });
  return {
    text,
    result: {
      sessionId,
      agent,
      project,
      checkpoints: rows.checkpoints.length,
      handoffs: rows.handoffs.length,
      compactionSummaries: rows.compactionSummaries.length,
      redacted: findings,
      bytes: Buffer.byteLength(text),
    },
  };
}
