/**
 * The checkpoint repository (docs/specification.md, "The store"). Synchronous: hooks are short processes with nothing
 * else to do. Numbers are assigned inside BEGIN IMMEDIATE, so they stay unique per session when
 * many processes save at once; compression happens before the lock is taken.
 *
 * A little over 400 lines: the row mapping of a 30-column table, the version-1 defaults and the
 * repository's queries belong together; the search index is apart (checkpoint-search.ts).
 * @module
 */
import type {
  Checkpoint,
  CheckpointDraft,
  CheckpointSource,
  CheckpointTrigger,
  ConversationState,
  FileState,
  TaskState,
} from '../core/checkpoint.ts';
import type { CrashRisk } from '../core/risk.ts';
import type { CrashSignals } from '../core/signals.ts';
import { withWriteTransaction, type Database } from './database.ts';
import { indexCheckpointForSearch } from './checkpoint-search.ts';
import { matchProject } from './project-match.ts';
import { compressJson, decompressJson, type Compressed } from './serialize.ts';

export type CheckpointSize = { uncompressed: number; compressed: number; compressionRatio: number };

export type CheckpointSummary = {
  id: string;
  sessionId: string;
  checkpointNumber: number;
  createdAt: string;
  triggeredBy: CheckpointTrigger;
  crashRisk: CrashRisk;
  progress: number;
  operation: string | null;
  contextWindowUsage: number | null;
  /** Percent of the auto-compact threshold in use (null for rows that predate the source). */
  contextPercent: number | null;
  messageCount: number | null;
  toolCallCount: number | null;
  size: CheckpointSize;
  restoredAt: string | null;
  cwd: string | null;
  transcriptPath: string | null;
  snapshotRef: string | null;
};

type Row = {
  id: string;
  session_id: string;
  checkpoint_number: number;
  created_at: string;
  triggered_by: string;
  conversation_state: Uint8Array;
  task_state: Uint8Array;
  file_state: Uint8Array;
  tool_state: Uint8Array;
  signals: Uint8Array;
  user_preferences: Uint8Array | null;
  crash_risk: string;
  progress: number;
  operation: string | null;
  context_window_usage: number | null;
  message_count: number | null;
  tool_call_count: number | null;
  uncompressed_size: number | null;
  compressed_size: number | null;
  compression_ratio: number | null;
  restored_at: string | null;
  source: string | null;
  cwd: string | null;
  transcript_path: string | null;
  snapshot_ref: string | null;
};

const SUMMARY_COLUMNS = `id, session_id, checkpoint_number, created_at, triggered_by, crash_risk, progress, operation,
  context_window_usage, message_count, tool_call_count, uncompressed_size, compressed_size, compression_ratio,
  restored_at, cwd, transcript_path, snapshot_ref, source`;

/** contextTokens / compactThreshold of a row's source, as a percent with one decimal. */
function thresholdPercent(source: string | null): number | null {
  if (!source) return null;
  try {
    const s = JSON.parse(source) as { contextTokens?: number; compactThreshold?: number };
    if (!s.compactThreshold || s.contextTokens === undefined) return null;
    return Math.round((s.contextTokens / s.compactThreshold) * 1000) / 10;
  } catch {
    return null;
  }
}

/** What names a checkpoint: the first fields of every view of a row. */
function identityOf(row: Row) {
  return {
    id: row.id,
    sessionId: row.session_id,
    checkpointNumber: row.checkpoint_number,
    createdAt: row.created_at,
    triggeredBy: row.triggered_by as CheckpointTrigger,
  };
}

function toSummary(row: Row): CheckpointSummary {
  return {
    ...identityOf(row),
    crashRisk: row.crash_risk as CrashRisk,
    progress: row.progress,
    operation: row.operation,
    contextWindowUsage: row.context_window_usage,
    contextPercent: thresholdPercent(row.source),
    messageCount: row.message_count,
    toolCallCount: row.tool_call_count,
    size: {
      uncompressed: row.uncompressed_size ?? 0,
      compressed: row.compressed_size ?? 0,
      compressionRatio: row.compression_ratio ?? 0,
    },
    restoredAt: row.restored_at,
    cwd: row.cwd,
    transcriptPath: row.transcript_path,
    snapshotRef: row.snapshot_ref,
  };
}

const EMPTY_SOURCE: CheckpointSource = {
  transcriptPath: null,
  transcriptLine: 0,
  cwd: null,
  model: null,
  cliVersion: null,
  contextTokens: 0,
  compactThreshold: 0,
  level: 'L0',
  reason: null,
};

/** A section as a version-1 row (the specified schema) may hold it: without the fields shim added later. */
type SeedSection<T, Added extends keyof T> = Omit<T, Added> & Partial<Pick<T, Added>>;

function toCheckpoint(row: Row): Checkpoint {
  return {
    ...identityOf(row),
    // Version-1 rows (the specified schema) predate the fields marked "beyond the specification": default them.
    conversationState: {
      userRequests: [],
      ...decompressJson<SeedSection<ConversationState, 'userRequests'>>(row.conversation_state),
    },
    taskState: { items: [], ...decompressJson<SeedSection<TaskState, 'items'>>(row.task_state) },
    fileState: {
      repoRoot: null,
      branch: null,
      head: null,
      snapshot: null,
      ...decompressJson<SeedSection<FileState, 'repoRoot' | 'branch' | 'head' | 'snapshot'>>(
        row.file_state,
      ),
    },
    toolState: decompressJson(row.tool_state),
    signals: {
      compactThresholdUsage: 0,
      tokensUntilCompact: 0,
      ...decompressJson<SeedSection<CrashSignals, 'compactThresholdUsage' | 'tokensUntilCompact'>>(
        row.signals,
      ),
    },
    userPreferences: row.user_preferences ? decompressJson(row.user_preferences) : {},
    // Version-1 rows predate the source column.
    source: row.source ? (JSON.parse(row.source) as CheckpointSource) : EMPTY_SOURCE,
  };
}

type Sections = Record<
  'conversation' | 'task' | 'file' | 'tool' | 'signals' | 'preferences',
  Compressed
>;

function compressSections(draft: CheckpointDraft): { sections: Sections; size: CheckpointSize } {
  const sections: Sections = {
    conversation: compressJson(draft.conversationState),
    task: compressJson(draft.taskState),
    file: compressJson(draft.fileState),
    tool: compressJson(draft.toolState),
    signals: compressJson(draft.signals),
    preferences: compressJson(draft.userPreferences),
  };
  let uncompressed = 0;
  let compressed = 0;
  for (const s of Object.values(sections)) {
    uncompressed += s.uncompressed;
    compressed += s.data.length;
  }
  return {
    sections,
    size: {
      uncompressed,
      compressed,
      compressionRatio: compressed > 0 ? Math.round((uncompressed / compressed) * 100) / 100 : 0,
    },
  };
}

export class CheckpointRepository {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Stores the draft under the session's next number; returns the stored checkpoint. */
  save(draft: CheckpointDraft): { checkpoint: Checkpoint; size: CheckpointSize } {
    const { sections, size } = compressSections(draft);
    const db = this.#db;
    const checkpointNumber = withWriteTransaction(db, () => {
      const next = db
        .prepare(
          'SELECT COALESCE(MAX(checkpoint_number), 0) + 1 AS next FROM checkpoints WHERE session_id = ?',
        )
        .get(draft.sessionId) as { next: number };
      db.prepare(
        `INSERT INTO checkpoints (id, session_id, checkpoint_number, created_at, triggered_by,
           conversation_state, task_state, file_state, tool_state, signals, user_preferences,
           crash_risk, progress, operation, context_window_usage, message_count, tool_call_count,
           uncompressed_size, compressed_size, compression_ratio, source, cwd, transcript_path, snapshot_ref,
           parent_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        draft.id,
        draft.sessionId,
        next.next,
        draft.createdAt,
        draft.triggeredBy,
        sections.conversation.data,
        sections.task.data,
        sections.file.data,
        sections.tool.data,
        sections.signals.data,
        sections.preferences.data,
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
      );
      // The search index must never cost a checkpoint: on failure the checkpoint is kept
      // unindexed, and the next search indexes it (app/search-checkpoints.ts).
      db.exec('SAVEPOINT search_index');
      try {
        indexCheckpointForSearch(db, draft);
      } catch {
        db.exec('ROLLBACK TO search_index');
      }
      db.exec('RELEASE search_index');
      return next.next;
    });
    return { checkpoint: { ...draft, checkpointNumber }, size };
  }

  getById(id: string): Checkpoint | null {
    const row = this.#db.prepare('SELECT * FROM checkpoints WHERE id = ?').get(id) as
      Row | undefined;
    return row ? toCheckpoint(row) : null;
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
    return row ? toCheckpoint(row) : null;
  }

  /** The newest checkpoint taken in `cwd`, across sessions. */
  getMostRecentForCwd(cwd: string): Checkpoint | null {
    const row = this.#db
      .prepare(
        'SELECT * FROM checkpoints WHERE cwd = ? ORDER BY created_at DESC, checkpoint_number DESC LIMIT 1',
      )
      .get(cwd) as Row | undefined;
    return row ? toCheckpoint(row) : null;
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
    return row ? toCheckpoint(row) : null;
  }

  getLatest(): Checkpoint | null {
    const row = this.#db
      .prepare('SELECT * FROM checkpoints ORDER BY created_at DESC, checkpoint_number DESC LIMIT 1')
      .get() as Row | undefined;
    return row ? toCheckpoint(row) : null;
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
  }): Array<{ id: string; cwd: string | null; ref: string | null }> {
    const cutoff = new Date(options.now - options.retentionDays * 86_400_000).toISOString();
    const candidates = this.#db
      .prepare(
        `SELECT id, snapshot_ref, cwd, created_at, compressed_size FROM checkpoints c
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
      const page = this.#db.prepare('PRAGMA page_size').get() as { page_size: number };
      const pages = this.#db.prepare('PRAGMA page_count').get() as { page_count: number };
      let excess = page.page_size * pages.page_count - options.maxBytes;
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
  cleanup(
    retentionDays: number,
    now: number,
  ): {
    deleted: number;
    ids: string[];
    snapshots: Array<{ checkpointId: string; cwd: string | null; ref: string }>;
  } {
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
