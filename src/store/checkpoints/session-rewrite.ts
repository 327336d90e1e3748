/**
 * A session's stored text rewritten in place: when the session learns a secret after some of its
 * rows were stored (a key pasted in a prompt before the `.env` line that named it), those rows —
 * its checkpoints with their search index entries, its compaction summaries, what it queued for
 * issue trackers (comments, observations) — are replaced by their redacted versions, and what SQLite keeps of the old ones is erased: the freed space is
 * zeroed (every connection writes with `secure_delete`), the search index's old segments merged
 * away, the write-ahead log emptied. The handoff documents are files (the caller rewrites them); their paths come from here.
 * @module
 */
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import { toSearchDocument, SEARCH_FIELDS } from '../../core/checkpoint/search-query.ts';
import { readCheckpointRow, rewriteWhole } from './checkpoint-chain.ts';
import { compressSections, type Row } from './checkpoint-rows.ts';
import { withWriteTransaction, type Database } from '../sqlite/database.ts';
import { checkpointWal, mergeFullTextIndex } from '../sqlite/dialect.ts';
import { TEAM_TRACKER } from '../team/team-replication-queue.ts';
import type { SessionRewrites, OutboxPayload } from '../ports/session-rewrite.ts';

const INDEX = 'checkpoint_search';

export class SessionRewrite implements SessionRewrites {
  readonly #db: Database;
  /** What `replace` left to erase until `atomically`'s transaction commits. */
  #eraseAfter: 'index' | 'log' | null = null;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Every checkpoint of the session, whole (rebuilt from its chain), oldest first. */
  checkpoints(sessionId: string): Checkpoint[] {
    const found: Checkpoint[] = [];
    for (const row of this.#rows(sessionId)) {
      // A checkpoint whose chain is broken reads as an older one: that one is read on its own.
      const { checkpoint, broken } = readCheckpointRow(this.#db, row);
      if (checkpoint && !broken) found.push(checkpoint);
    }
    return found;
  }

  #rows(sessionId: string): Row[] {
    return this.#db
      .prepare('SELECT * FROM checkpoints WHERE session_id = ? ORDER BY checkpoint_number')
      .all(sessionId) as Row[];
  }

  /**
   * The checkpoints stored as a change of one in `changed` (directly or down a chain), whole as
   * they read now: rewritten whole too, since their changes no longer apply to the new state.
   */
  #dependents(changed: readonly Checkpoint[]): Checkpoint[] {
    const sessions = new Set(changed.map((c) => c.sessionId));
    const moved = new Set(changed.map((c) => c.id));
    const dependents: Checkpoint[] = [];
    for (const sessionId of sessions)
      for (const row of this.#rows(sessionId)) {
        if (moved.has(row.id) || !row.delta_of || !moved.has(row.delta_of)) continue;
        moved.add(row.id);
        const { checkpoint, broken } = readCheckpointRow(this.#db, row);
        if (checkpoint && !broken) dependents.push(checkpoint);
      }
    return dependents;
  }

  /**
   * The sessions restored from `sessionId`, and those restored from them, in that order: their
   * checkpoints carry what they inherited from it (core/checkpoint/lineage.ts), so what it learns
   * later must reach them too.
   */
  descendants(sessionId: string): string[] {
    const found: string[] = [];
    const seen = new Set([sessionId]);
    const next = this.#db.prepare('SELECT session_id FROM sessions WHERE resumed_from_session = ?');
    for (let i = -1; i < found.length; i++)
      for (const { session_id: id } of next.all(i < 0 ? sessionId : found[i]!) as Array<{
        session_id: string;
      }>)
        if (!seen.has(id)) {
          seen.add(id);
          found.push(id);
        }
    return found;
  }

  /**
   * `work` (reading rows, then `replace`) as one write transaction: another process's rewrite of
   * the same rows (a session restored from this one learns its own secrets meanwhile) cannot
   * land between the read and the write and be undone by it.
   */
  atomically<T>(work: () => T): T {
    this.#eraseAfter = null;
    const result = withWriteTransaction(this.#db, work);
    const erase = this.#eraseAfter;
    this.#eraseAfter = null;
    if (erase !== null) this.#erase(erase === 'index');
    return result;
  }

  /**
   * Checkpoints created since `since` of sessions this machine never ran (no session row here):
   * copies of another machine's, taken from the team store when a session here restored them.
   */
  pulledCopies(since: string): Array<{ id: string; sessionId: string }> {
    return (
      this.#db
        .prepare(
          `SELECT id, session_id FROM checkpoints c WHERE created_at >= ?
             AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.session_id = c.session_id)`,
        )
        .all(since) as Array<{ id: string; session_id: string }>
    ).map((r) => ({ id: r.id, sessionId: r.session_id }));
  }

  /** Every session with stored text here (checkpoints, summaries, handoffs, tracker payloads). */
  sessionIds(): string[] {
    return (
      this.#db
        .prepare(
          `SELECT session_id FROM checkpoints UNION SELECT session_id FROM compaction_summaries
             UNION SELECT session_id FROM handoffs
             UNION SELECT session_id FROM sync_outbox WHERE tracker <> '${TEAM_TRACKER}'`,
        )
        .all() as Array<{ session_id: string | null }>
    ).flatMap((r) => (r.session_id === null ? [] : [r.session_id]));
  }

  /** The transcripts of the sessions seen here (their folded states are cached by path). */
  transcriptPaths(): string[] {
    return (
      this.#db
        .prepare('SELECT DISTINCT transcript_path FROM sessions WHERE transcript_path IS NOT NULL')
        .all() as Array<{ transcript_path: string }>
    ).map((r) => r.transcript_path);
  }

  /** The session's compaction summaries. */
  summaries(sessionId: string): Array<{ id: string; summary: string }> {
    return this.#db
      .prepare('SELECT id, summary FROM compaction_summaries WHERE session_id = ?')
      .all(sessionId) as Array<{ id: string; summary: string }>;
  }

  /** The session's handoff documents: their rows' ids and the files' paths. */
  handoffs(sessionId: string): Array<{ id: string; path: string }> {
    return this.#db
      .prepare('SELECT id, path FROM handoffs WHERE session_id = ?')
      .all(sessionId) as Array<{ id: string; path: string }>;
  }

  /**
   * What the session queued for issue trackers (store/sync/sync-outbox.ts), sent or not: its
   * payloads were redacted with what the session knew when they were queued. The team store's
   * entries carry no text (their rows are read when sent) and are not among them.
   */
  trackerPayloads(sessionId: string): OutboxPayload[] {
    const rows = this.#db
      .prepare(
        `SELECT id, payload FROM sync_outbox WHERE session_id = ? AND tracker <> '${TEAM_TRACKER}'`,
      )
      .all(sessionId) as Array<{ id: number; payload: string }>;
    return rows.map((r) => ({
      id: Number(r.id),
      payload: JSON.parse(r.payload) as OutboxPayload['payload'],
    }));
  }

  /**
   * Replaces the content of stored checkpoints (their sections, source and search entry; ids,
   * numbers and times stay), of compaction summaries and of tracker payloads, then erases what
   * SQLite kept of the old content. Returns how many rows changed.
   */
  replace(
    checkpoints: readonly Checkpoint[],
    summaries: ReadonlyArray<{ id: string; summary: string }>,
    handoffIds: readonly string[] = [],
    payloads: readonly OutboxPayload[] = [],
  ): number {
    if (checkpoints.length + summaries.length + handoffIds.length + payloads.length === 0) return 0;
    const db = this.#db;
    withWriteTransaction(db, () => {
      // Rows stored whole (checkpoint-chain.ts): the chains of their dependents are read first.
      const dependents = this.#dependents(checkpoints);
      const columns = db.prepare(
        `UPDATE checkpoints SET operation = ?, source = ?, uncompressed_size = ?,
             compressed_size = ?, compression_ratio = ?
           WHERE id = ?`,
      );
      const doc = db.prepare('SELECT doc FROM checkpoint_search_ids WHERE checkpoint_id = ?');
      const unindex = db.prepare(`DELETE FROM ${INDEX} WHERE rowid = ?`);
      const index = db.prepare(
        `INSERT INTO ${INDEX} (rowid, ${SEARCH_FIELDS.join(', ')}) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      );
      for (const c of dependents) rewriteWhole(db, c);
      for (const c of checkpoints) {
        rewriteWhole(db, c);
        const { size } = compressSections(c);
        columns.run(
          c.taskState.operation || null,
          JSON.stringify(c.source),
          size.uncompressed,
          size.compressed,
          size.compressionRatio,
          c.id,
        );
        const row = doc.get(c.id) as { doc: number } | undefined;
        if (row) {
          unindex.run(row.doc);
          const fields = toSearchDocument(c);
          index.run(row.doc, ...SEARCH_FIELDS.map((f) => fields[f]));
        }
      }
      const summary = db.prepare('UPDATE compaction_summaries SET summary = ? WHERE id = ?');
      for (const s of summaries) summary.run(s.summary, s.id);
      // An entry not sent yet goes out redacted; one sent keeps no raw copy here.
      const payload = db.prepare('UPDATE sync_outbox SET payload = ? WHERE id = ?');
      for (const p of payloads) payload.run(JSON.stringify(p.payload), p.id);
      // What the team store already has goes again, redacted (its rows take the new body).
      resend(db, [
        ...checkpoints.map((c) => ['checkpoint', c.id] as const),
        ...summaries.map((s) => ['compaction_summary', s.id] as const),
        ...handoffIds.map((id) => ['handoff', id] as const),
      ]);
    });
    // Inside `atomically`, the old copies are erased once its transaction commits.
    if (db.isTransaction)
      this.#eraseAfter = checkpoints.length > 0 ? 'index' : (this.#eraseAfter ?? 'log');
    else this.#erase(checkpoints.length > 0);
    return checkpoints.length + summaries.length + payloads.length;
  }

  /**
   * The index keeps replaced entries in old segments until they merge; the connection zeroes
   * what is freed (sqlite/dialect.ts `prepareConnection`); the log's copies go with it.
   */
  #erase(index: boolean): void {
    if (index) mergeFullTextIndex(this.#db, INDEX);
    checkpointWal(this.#db);
  }
}

/**
 * Queues the rows again for the team store (store/team-replication-queue.ts), where they were
 * queued before: a home that shares nothing queues nothing. Each rewrite is a version of its own.
 */
function resend(db: Database, rows: ReadonlyArray<readonly [kind: string, id: string]>): void {
  if (rows.length === 0) return;
  const version = `redacted-${Date.now()}`;
  const queue = db.prepare(
    `INSERT OR IGNORE INTO sync_outbox (dedupe_key, created_at, tracker, issue_key, action,
       payload, session_id, checkpoint_id, next_attempt_at)
     SELECT ?, created_at, tracker, issue_key, action, payload, session_id, checkpoint_id, ?
     FROM sync_outbox WHERE dedupe_key = ?`,
  );
  const now = new Date().toISOString();
  for (const [kind, id] of rows)
    queue.run(`team:${kind}:${id}:${version}`, now, `team:${kind}:${id}`);
}
