/**
 * A session's rows, out of one store and into another (`shim export` / `shim import`): its
 * session row, checkpoints (decoded, with the row-only columns beside them), handoff rows and
 * compaction summaries. Rows are written as they came, under their own ids; what is already
 * here is skipped, never overwritten, so an import
 * can be repeated.
 * @module
 */
import { toAgentId } from '../../core/agent-id.ts';
import { indexCheckpointForSearch } from './checkpoint-search.ts';
import { compressSections, type Row } from './checkpoint-rows.ts';
import { readCheckpointRow } from './checkpoint-chain.ts';
import { stateHash, stateOf } from './checkpoint-delta.ts';
import { withWriteTransaction, type Database } from '../sqlite/database.ts';
import type {
  SessionTransfers,
  PlainRow,
  ExportedCheckpoint,
  SessionRows,
  WritePlan,
} from '../ports/session-transfer.ts';

/** A row as JSON values (SQLite integers may come back as bigints). */
function plain(row: Record<string, unknown>): PlainRow {
  const out: PlainRow = {};
  for (const [key, value] of Object.entries(row)) {
    out[key] =
      typeof value === 'string' || typeof value === 'number' || value === null
        ? value
        : typeof value === 'bigint'
          ? Number(value)
          : String(value);
  }
  return out;
}

/** Everything the store keeps of `sessionId` that belongs to it alone. */
export function readSessionRows(db: Database, sessionId: string): SessionRows {
  const session = db.prepare('SELECT * FROM sessions WHERE session_id = ?').get(sessionId) as
    Record<string, unknown> | undefined;
  const rows = db
    .prepare('SELECT * FROM checkpoints WHERE session_id = ? ORDER BY checkpoint_number')
    .all(sessionId) as Array<Row & { parent_id: string | null }>;
  return {
    session: session ? plain(session) : null,
    // Whole, rebuilt from their chains; one whose chain is broken cannot be read as it was and is
    // left out (shim doctor names it).
    checkpoints: rows.flatMap((row) => {
      const { checkpoint, broken } = readCheckpointRow(db, row);
      if (!checkpoint || broken) return [];
      return [
        {
          checkpoint,
          row: {
            parentId: row.parent_id,
            restoredAt: row.restored_at,
            agent: toAgentId(row.agent),
          },
        },
      ];
    }),
    handoffs: (
      db
        .prepare('SELECT * FROM handoffs WHERE session_id = ? ORDER BY created_at')
        .all(sessionId) as Array<Record<string, unknown>>
    ).map(plain),
    compactionSummaries: (
      db
        .prepare('SELECT * FROM compaction_summaries WHERE session_id = ? ORDER BY recorded_at')
        .all(sessionId) as Array<Record<string, unknown>>
    ).map(plain),
  };
}

const exists = (db: Database, sql: string, ...params: string[]): boolean =>
  db.prepare(sql).get(...params) !== undefined;

/** What writing `rows` would add, and skip because it is here already. Writes nothing. */
export function planSessionWrite(db: Database, rows: SessionRows): WritePlan {
  const sessionId = rows.session?.session_id;
  let next =
    (
      db
        .prepare(
          'SELECT COALESCE(MAX(checkpoint_number), 0) AS n FROM checkpoints WHERE session_id = ?',
        )
        .get(rows.checkpoints[0]?.checkpoint.sessionId ?? '') as { n: number }
    ).n + 1;
  const checkpoints: WritePlan['checkpoints'] = [];
  for (const { checkpoint } of rows.checkpoints) {
    if (exists(db, 'SELECT 1 FROM checkpoints WHERE id = ?', checkpoint.id)) {
      checkpoints.push({ id: checkpoint.id, action: 'skip', number: checkpoint.checkpointNumber });
      continue;
    }
    const taken =
      exists(
        db,
        'SELECT 1 FROM checkpoints WHERE session_id = ? AND checkpoint_number = ?',
        checkpoint.sessionId,
        String(checkpoint.checkpointNumber),
      ) || checkpoints.some((c) => c.action !== 'skip' && c.number === checkpoint.checkpointNumber);
    checkpoints.push(
      taken
        ? { id: checkpoint.id, action: 'renumber', number: next++ }
        : { id: checkpoint.id, action: 'add', number: checkpoint.checkpointNumber },
    );
    if (!taken) next = Math.max(next, checkpoint.checkpointNumber + 1);
  }
  const byId = (table: string, list: PlainRow[]) =>
    list.map((r) => {
      const id = String(r.id);
      return { id, action: exists(db, `SELECT 1 FROM ${table} WHERE id = ?`, id) ? 'skip' : 'add' };
    }) as Array<{ id: string; action: 'add' | 'skip' }>;
  return {
    session:
      typeof sessionId !== 'string'
        ? 'none'
        : exists(db, 'SELECT 1 FROM sessions WHERE session_id = ?', sessionId)
          ? 'skip'
          : 'add',
    checkpoints,
    handoffs: byId('handoffs', rows.handoffs),
    compactionSummaries: byId('compaction_summaries', rows.compactionSummaries),
  };
}

/** The columns `table` has in this store (a file from an older shim may lack some). */
function columnsOf(db: Database, table: string): Set<string> {
  return new Set(
    (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name),
  );
}

function insertPlain(db: Database, table: string, row: PlainRow, columns: Set<string>): void {
  const names = Object.keys(row).filter((name) => columns.has(name));
  db.prepare(
    `INSERT INTO ${table} (${names.map((n) => `"${n}"`).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
  ).run(...names.map((n) => row[n] ?? null));
}

function insertCheckpoint(
  db: Database,
  { checkpoint, row }: ExportedCheckpoint,
  checkpointNumber: number,
): void {
  const { sections, size } = compressSections(checkpoint);
  db.prepare(
    `INSERT INTO checkpoints (id, session_id, checkpoint_number, created_at, triggered_by,
       conversation_state, task_state, file_state, tool_state, signals, user_preferences,
       crash_risk, progress, operation, context_window_usage, message_count, tool_call_count,
       uncompressed_size, compressed_size, compression_ratio, restored_at, source, cwd,
       transcript_path, snapshot_ref, parent_id, agent, state_hash, stored_size)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    checkpoint.id,
    checkpoint.sessionId,
    checkpointNumber,
    checkpoint.createdAt,
    checkpoint.triggeredBy,
    sections.conversation.data,
    sections.task.data,
    sections.file.data,
    sections.tool.data,
    sections.signals.data,
    sections.preferences.data,
    checkpoint.signals.crashRisk,
    checkpoint.taskState.progress,
    checkpoint.taskState.operation || null,
    checkpoint.signals.contextWindowUsage,
    checkpoint.signals.messageCount,
    checkpoint.signals.toolCallCount,
    size.uncompressed,
    size.compressed,
    size.compressionRatio,
    row.restoredAt,
    JSON.stringify(checkpoint.source),
    checkpoint.source.cwd,
    checkpoint.source.transcriptPath,
    checkpoint.fileState.snapshot?.ref ?? null,
    row.parentId,
    row.agent,
    stateHash(stateOf(checkpoint)),
    size.compressed,
  );
  indexCheckpointForSearch(db, checkpoint);
}

/** Writes what `plan` adds, in one transaction (planned again inside it: another writer may have come first). */
export function writeSessionRows(db: Database, rows: SessionRows): WritePlan {
  return withWriteTransaction(db, () => {
    const plan = planSessionWrite(db, rows);
    if (plan.session === 'add' && rows.session)
      insertPlain(db, 'sessions', rows.session, columnsOf(db, 'sessions'));
    rows.checkpoints.forEach((c, i) => {
      const step = plan.checkpoints[i]!;
      if (step.action !== 'skip') insertCheckpoint(db, c, step.number);
    });
    const handoffColumns = columnsOf(db, 'handoffs');
    rows.handoffs.forEach((h, i) => {
      if (plan.handoffs[i]!.action === 'add') insertPlain(db, 'handoffs', h, handoffColumns);
    });
    const summaryColumns = columnsOf(db, 'compaction_summaries');
    rows.compactionSummaries.forEach((s, i) => {
      if (plan.compactionSummaries[i]!.action === 'add')
        insertPlain(db, 'compaction_summaries', s, summaryColumns);
    });
    return plan;
  });
}

/** The repository `Store` hands out (app/open-store.ts): the functions above over one database. */
export class SessionTransfer implements SessionTransfers {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  read(sessionId: string): SessionRows {
    return readSessionRows(this.#db, sessionId);
  }

  plan(rows: SessionRows): WritePlan {
    return planSessionWrite(this.#db, rows);
  }

  write(rows: SessionRows): WritePlan {
    return writeSessionRows(this.#db, rows);
  }

  /** Session ids (of a session row or a checkpoint) starting with `prefix`, at most `limit`. */
  sessionIdsStartingWith(prefix: string, limit: number): string[] {
    return (
      this.#db
        .prepare(
          `SELECT session_id AS id FROM sessions WHERE session_id >= ? AND session_id < ? || char(1114111)
           UNION SELECT DISTINCT session_id FROM checkpoints WHERE session_id >= ? AND session_id < ? || char(1114111)
           LIMIT ?`,
        )
        .all(prefix, prefix, prefix, prefix, limit) as Array<{ id: string }>
    ).map((r) => r.id);
  }
}
