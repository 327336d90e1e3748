/**
 * The checkpoint repository (docs/specification.md, "The store"). Synchronous: hooks are short processes with nothing
 * else to do. Numbers are assigned inside BEGIN IMMEDIATE, so they stay unique per session when
 * many processes save at once; compression happens before the lock is taken.
 *
 * How a checkpoint maps to its row is in checkpoint-rows.ts; the search index is apart
 * (checkpoint-search.ts).
 * @module
 */
import type { Checkpoint, CheckpointDraft } from '../../core/checkpoint/checkpoint.ts';
import { AGENT_IDS, isAgentId } from '../../core/agent-id.ts';
import { AppError } from '../../core/errors.ts';
import { fileBytes } from '../sqlite/dialect.ts';
import { withWriteTransaction, type Database } from '../sqlite/database.ts';
import { indexCheckpointForSearch } from './checkpoint-search.ts';
import { matchProject } from '../sqlite/project-match.ts';
import { compressSections, SUMMARY_COLUMNS, toSummary, type Row } from './checkpoint-rows.ts';
import {
  chainStep,
  checkChains,
  DEFAULT_CHAIN,
  deltaCandidate,
  detachDependents,
  readCheckpointRow,
  type DeltaCandidate,
} from './checkpoint-chain.ts';
import type {
  ChainBreak,
  ChainReport,
  ChainSettings,
  Checkpoints,
  CheckpointSummary,
  Cleanup,
  CleanupCandidate,
  StoredCheckpoint,
} from '../ports/checkpoints.ts';
import { stateHash, stateOf, stateTexts } from './checkpoint-delta.ts';

/** A draft ready to be stored: its sections compressed, and the change it may be stored as. */
export type PreparedCheckpoint = ReturnType<typeof compressSections> & {
  hash: string;
  delta: DeltaCandidate | null;
};

/**
 * Everything about storing `draft` that needs no lock: its sections compressed, its hash, and
 * — given the previous checkpoint of its session as read — the change since that one.
 */
export function prepareCheckpoint(
  draft: CheckpointDraft,
  base: Checkpoint | null = null,
  chain: ChainSettings = DEFAULT_CHAIN,
): PreparedCheckpoint {
  const compressed = compressSections(draft);
  const state = stateOf(draft);
  const texts = stateTexts(state);
  return {
    ...compressed,
    hash: stateHash(state, texts),
    delta: deltaCandidate(base, draft.sessionId, state, texts, compressed.size.compressed, chain),
  };
}

const NO_BYTES = Buffer.alloc(0);

export class CheckpointRepository implements Checkpoints {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /**
   * Stores the draft under the session's next number; returns the stored checkpoint. Given the
   * previous checkpoint of its session (as read), it may be stored as what changed since.
   */
  save(
    draft: CheckpointDraft,
    options: { base?: Checkpoint | null; chain?: ChainSettings } = {},
  ): StoredCheckpoint {
    // Compressed and diffed before the write lock is taken: other writers wait less.
    const chain = options.chain ?? DEFAULT_CHAIN;
    return this.insertPrepared(draft, prepareCheckpoint(draft, options.base, chain), chain);
  }

  /**
   * Inserts a prepared draft; inside a write transaction already open it joins it
   * (checkpoint-writer.ts stores a checkpoint and what it updates in one commit). It is stored as
   * its change when that change's base is still there and the chain is not `fullEvery` long.
   */
  insertPrepared(
    draft: CheckpointDraft,
    prepared: PreparedCheckpoint,
    chain: ChainSettings = DEFAULT_CHAIN,
  ): StoredCheckpoint {
    // The agent is a fact of the session, never assumed: a draft naming none (or one this shim
    // does not know) is refused before anything is written.
    if (!isAgentId(draft.source.agent))
      throw new AppError(
        'CHECKPOINT_INVALID',
        `checkpoint ${draft.id} of session ${draft.sessionId} names no agent shim knows (${JSON.stringify(draft.source.agent ?? null)}; it knows ${AGENT_IDS.join(', ')})`,
        'build the checkpoint from a session log read with its agent (createCheckpoint takes { log: { path, agent } })',
      );
    const db = this.#db;
    const { sections, size } = prepared;
    let stored = size.compressed;
    const checkpointNumber = withWriteTransaction(db, () => {
      const next = db
        .prepare(
          'SELECT COALESCE(MAX(checkpoint_number), 0) + 1 AS next FROM checkpoints WHERE session_id = ?',
        )
        .get(draft.sessionId) as { next: number };
      const depth = chainStep(db, prepared.delta, draft.sessionId, chain);
      const delta = depth === null ? null : prepared.delta!;
      stored = delta ? delta.data.length : size.compressed;
      const section = (data: Buffer) => (delta ? NO_BYTES : data);
      db.prepare(
        `INSERT INTO checkpoints (id, session_id, checkpoint_number, created_at, triggered_by,
           conversation_state, task_state, file_state, tool_state, signals, user_preferences,
           crash_risk, progress, operation, context_window_usage, message_count, tool_call_count,
           uncompressed_size, compressed_size, compression_ratio, source, cwd, transcript_path, snapshot_ref,
           parent_id, agent, delta_of, chain_depth, state_hash, state_delta, stored_size)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        draft.id,
        draft.sessionId,
        next.next,
        draft.createdAt,
        draft.triggeredBy,
        section(sections.conversation.data),
        section(sections.task.data),
        section(sections.file.data),
        section(sections.tool.data),
        section(sections.signals.data),
        delta ? null : sections.preferences.data,
        draft.signals.crashRisk,
        draft.taskState.progress,
        draft.taskState.operation || null,
        draft.signals.contextWindowUsage,
        draft.signals.messageCount,
        draft.signals.toolCallCount,
        size.uncompressed,
        size.compressed,
        size.compressionRatio,
        JSON.stringify(draft.source),
        draft.source.cwd,
        draft.source.transcriptPath,
        draft.fileState.snapshot?.ref ?? null,
        draft.source.parentId ?? null,
        draft.source.agent,
        delta?.deltaOf ?? null,
        depth ?? 0,
        prepared.hash,
        delta?.data ?? null,
        stored,
      );
      // The search index must never cost a checkpoint: on failure the checkpoint is kept
      // unindexed, and the next search indexes it (app/checkpoint/search-checkpoints.ts).
      db.exec('SAVEPOINT search_index');
      try {
        indexCheckpointForSearch(db, draft);
      } catch {
        db.exec('ROLLBACK TO search_index');
      }
      db.exec('RELEASE search_index');
      return next.next;
    });
    return { checkpoint: { ...draft, checkpointNumber }, size: { ...size, stored } };
  }

  /** A row as its whole checkpoint (rebuilt from its chain; a broken chain falls back). */
  #read(row: Row | undefined): Checkpoint | null {
    return row ? readCheckpointRow(this.#db, row).checkpoint : null;
  }

  getById(id: string): Checkpoint | null {
    return this.#read(
      this.#db.prepare('SELECT * FROM checkpoints WHERE id = ?').get(id) as Row | undefined,
    );
  }

  /**
   * The checkpoint `id`, and whether its chain is broken: then `checkpoint` is the newest of its
   * session before the break that rebuilds exactly (or null), never a wrong state.
   */
  readChecked(id: string): { checkpoint: Checkpoint | null; broken: ChainBreak | null } | null {
    const row = this.#db.prepare('SELECT * FROM checkpoints WHERE id = ?').get(id) as
      Row | undefined;
    return row ? readCheckpointRow(this.#db, row) : null;
  }

  /** Ids starting with `prefix` (a CLI convenience: `shim show 3f2a`). */
  findIdsByPrefix(prefix: string, limit = 5): string[] {
    const rows = this.#db
      .prepare(
        'SELECT id FROM checkpoints WHERE id >= ? AND id < ? || char(1114111) ORDER BY id LIMIT ?',
      )
      .all(prefix, prefix, limit) as Array<{ id: string }>;
    return rows.map((r) => r.id);
  }

  getMostRecent(sessionId: string): Checkpoint | null {
    const row = this.#db
      .prepare(
        'SELECT * FROM checkpoints WHERE session_id = ? ORDER BY created_at DESC, checkpoint_number DESC LIMIT 1',
      )
      .get(sessionId) as Row | undefined;
    return this.#read(row);
  }

  /** The newest checkpoint taken in `cwd`, across sessions. */
  getMostRecentForCwd(cwd: string): Checkpoint | null {
    const row = this.#db
      .prepare(
        'SELECT * FROM checkpoints WHERE cwd = ? ORDER BY created_at DESC, checkpoint_number DESC LIMIT 1',
      )
      .get(cwd) as Row | undefined;
    return this.#read(row);
  }

  /** The newest checkpoint taken anywhere in the project at `root` (see project-match.ts). */
  getMostRecentInProject(
    root: string,
    options: { excludeSession?: string } = {},
  ): Checkpoint | null {
    const project = matchProject('cwd', root);
    const exclude = options.excludeSession !== undefined ? ' AND session_id <> ?' : '';
    const row = this.#db
      .prepare(
        `SELECT * FROM checkpoints WHERE ${project.sql}${exclude}
         ORDER BY created_at DESC, checkpoint_number DESC LIMIT 1`,
      )
      .get(
        ...project.params,
        ...(options.excludeSession !== undefined ? [options.excludeSession] : []),
      ) as Row | undefined;
    return this.#read(row);
  }

  getLatest(): Checkpoint | null {
    const row = this.#db
      .prepare('SELECT * FROM checkpoints ORDER BY created_at DESC, checkpoint_number DESC LIMIT 1')
      .get() as Row | undefined;
    return this.#read(row);
  }

  /** One checkpoint's row facts (no sections read): its size, how it is stored, its trigger. */
  getSummary(id: string): CheckpointSummary | null {
    const row = this.#db
      .prepare(`SELECT ${SUMMARY_COLUMNS} FROM checkpoints WHERE id = ?`)
      .get(id) as Row | undefined;
    return row ? toSummary(row) : null;
  }

  listBySession(sessionId: string): CheckpointSummary[] {
    return this.list({ sessionId, limit: 10_000 });
  }

  list(
    filter: { sessionId?: string; cwd?: string; project?: string; limit?: number } = {},
  ): CheckpointSummary[] {
    const where: string[] = [];
    const params: Array<string | number> = [];
    if (filter.project) {
      const project = matchProject('cwd', filter.project);
      where.push(project.sql);
      params.push(...project.params);
    }
    if (filter.sessionId) {
      where.push('session_id = ?');
      params.push(filter.sessionId);
    }
    if (filter.cwd) {
      where.push('cwd = ?');
      params.push(filter.cwd);
    }
    params.push(filter.limit ?? 50);
    const rows = this.#db
      .prepare(
        `SELECT ${SUMMARY_COLUMNS} FROM checkpoints ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
         ORDER BY created_at DESC, checkpoint_number DESC LIMIT ?`,
      )
      .all(...params) as Row[];
    return rows.map(toSummary);
  }

  /** The chains checked: every link, and each recent session's newest rebuilt (checkpoint-chain.ts). */
  checkChains(sessions?: number): ChainReport {
    return checkChains(this.#db, sessions);
  }

  getRestoredAt(id: string): string | null {
    const row = this.#db.prepare('SELECT restored_at FROM checkpoints WHERE id = ?').get(id) as
      { restored_at: string | null } | undefined;
    return row?.restored_at ?? null;
  }

  count(): number {
    return (this.#db.prepare('SELECT COUNT(*) AS n FROM checkpoints').get() as { n: number }).n;
  }

  markRestored(id: string, success: boolean, fidelity: number | null, at: string): void {
    withWriteTransaction(this.#db, () => {
      this.#db
        .prepare(
          'UPDATE checkpoints SET restored_at = ?, restore_success = ?, restore_fidelity = ? WHERE id = ?',
        )
        .run(at, success ? 1 : 0, fidelity, id);
    });
  }

  /**
   * Checkpoints that clean-up would delete: older than `retentionDays`, and — to bring the store
   * under `maxBytes` — the oldest others too. Each session's newest is always kept, so an old
   * interrupted session can still be resumed.
   */
  planCleanup(options: {
    retentionDays: number;
    now: number;
    maxBytes?: number | null;
  }): CleanupCandidate[] {
    const cutoff = new Date(options.now - options.retentionDays * 86_400_000).toISOString();
    const candidates = this.#db
      .prepare(
        `SELECT id, snapshot_ref, cwd, created_at, COALESCE(stored_size, compressed_size) AS compressed_size FROM checkpoints c
         WHERE id <> (SELECT id FROM checkpoints k WHERE k.session_id = c.session_id
                      ORDER BY created_at DESC, checkpoint_number DESC LIMIT 1)
         ORDER BY created_at`,
      )
      .all() as Array<{
      id: string;
      snapshot_ref: string | null;
      cwd: string | null;
      created_at: string;
      compressed_size: number | null;
    }>;
    const doomed = candidates.filter((c) => c.created_at < cutoff);
    if (options.maxBytes != null) {
      let excess = fileBytes(this.#db) - options.maxBytes;
      // Each deleted checkpoint frees about its sections plus its row and index entries.
      for (const c of doomed) excess -= (c.compressed_size ?? 0) + 1024;
      for (const c of candidates) {
        if (excess <= 0) break;
        if (c.created_at < cutoff) continue;
        doomed.push(c);
        excess -= (c.compressed_size ?? 0) + 1024;
      }
    }
    return doomed.map((d) => ({ id: d.id, cwd: d.cwd, ref: d.snapshot_ref }));
  }

  /** Deletes the given checkpoints (and their restore records); returns how many went. */
  deleteCheckpoints(ids: readonly string[], now: number, retentionDays: number): number {
    const cutoff = new Date(now - retentionDays * 86_400_000).toISOString();
    const db = this.#db;
    return withWriteTransaction(db, () => {
      // Nothing kept may need a deleted row: what is stored as a change of one is made whole.
      detachDependents(db, ids);
      const deleteEvents = db.prepare('DELETE FROM resume_events WHERE checkpoint_id = ?');
      const deleteCheckpoint = db.prepare('DELETE FROM checkpoints WHERE id = ?');
      let deleted = 0;
      for (const id of ids) {
        deleteEvents.run(id);
        deleted += Number(deleteCheckpoint.run(id).changes);
      }
      db.prepare('DELETE FROM signal_history WHERE recorded_at < ?').run(cutoff);
      db.prepare('DELETE FROM compaction_summaries WHERE recorded_at < ?').run(cutoff);
      db.prepare('DELETE FROM events WHERE at < ?').run(cutoff);
      return deleted;
    });
  }

  /**
   * Deletes checkpoints older than `retentionDays`, keeping each session's newest one so an
   * old interrupted session can still be resumed. Returns the deleted ids and the snapshot refs to delete.
   */
  cleanup(retentionDays: number, now: number): Cleanup {
    const doomed = this.planCleanup({ retentionDays, now });
    const deleted = this.deleteCheckpoints(
      doomed.map((d) => d.id),
      now,
      retentionDays,
    );
    return {
      deleted,
      ids: doomed.map((d) => d.id),
      snapshots: doomed.flatMap((d) =>
        d.ref ? [{ checkpointId: d.id, cwd: d.cwd, ref: d.ref }] : [],
      ),
    };
  }
}
