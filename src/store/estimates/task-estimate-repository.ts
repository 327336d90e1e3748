/**
 * The estimates `shim estimate` gave for a session's open tasks, and — once those tasks were
 * done — what finishing them took (EST-004): `shim estimate --accuracy` says how good they were.
 * @module
 */
import { withWriteTransaction, type Database } from '../sqlite/database.ts';
import type { TaskEstimates, RecordedEstimate } from '../ports/task-estimates.ts';

type Row = {
  id: string;
  created_at: string;
  transcript_path: string;
  session_id: string | null;
  line: number;
  task_keys: string;
  spent_before: number;
  tokens: number;
  low: number;
  high: number;
  actual: number | null;
  resolved_at: string | null;
};

const fromRow = (r: Row): RecordedEstimate => ({
  id: r.id,
  createdAt: r.created_at,
  transcriptPath: r.transcript_path,
  sessionId: r.session_id,
  line: r.line,
  taskKeys: JSON.parse(r.task_keys) as string[],
  spentBefore: r.spent_before,
  tokens: r.tokens,
  low: r.low,
  high: r.high,
  actual: r.actual,
  resolvedAt: r.resolved_at,
});

export class TaskEstimateRepository implements TaskEstimates {
  private readonly db: Database;

  constructor(db: Database) {
    this.db = db;
  }

  record(e: Omit<RecordedEstimate, 'actual' | 'resolvedAt'>): void {
    withWriteTransaction(this.db, () => {
      this.db
        .prepare(
          `INSERT INTO task_estimates (id, created_at, transcript_path, session_id, line, task_keys,
             spent_before, tokens, low, high) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          e.id,
          e.createdAt,
          e.transcriptPath,
          e.sessionId,
          e.line,
          JSON.stringify(e.taskKeys),
          e.spentBefore,
          e.tokens,
          e.low,
          e.high,
        );
    });
  }

  resolve(id: string, actual: number, at: string): void {
    withWriteTransaction(this.db, () => {
      this.db
        .prepare('UPDATE task_estimates SET actual = ?, resolved_at = ? WHERE id = ?')
        .run(actual, at, id);
    });
  }

  all(): RecordedEstimate[] {
    return (this.db.prepare('SELECT * FROM task_estimates ORDER BY created_at').all() as Row[]).map(
      fromRow,
    );
  }
}
