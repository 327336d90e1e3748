/**
 * The task points learned from transcripts (migration 7): what each transcript taught, kept so
 * that a transcript is read again only when it changed, and so that a hook can get the model
 * without reading any (app/tasks/task-history.ts).
 * @module
 */
import type { TaskPoint } from '../../core/plan/task-estimate.ts';
import { withWriteTransaction, type Database } from '../sqlite/database.ts';
import type { TaskPoints, TranscriptStamp } from '../ports/task-points.ts';

export class TaskPointRepository implements TaskPoints {
  private readonly db: Database;

  constructor(db: Database) {
    this.db = db;
  }

  /** The transcripts read so far, with their size and mtime when read. */
  stamps(): Map<string, TranscriptStamp> {
    const rows = this.db
      .prepare('SELECT path, size, mtime_ms FROM task_transcripts')
      .all() as Array<{
      path: string;
      size: number;
      mtime_ms: number;
    }>;
    return new Map(rows.map((r) => [r.path, { size: r.size, mtimeMs: r.mtime_ms }]));
  }

  /** What `path` teaches now: its earlier points replaced, in one transaction. */
  replace(path: string, stamp: TranscriptStamp, points: readonly TaskPoint[], now: number): void {
    withWriteTransaction(this.db, () => {
      this.db.prepare('DELETE FROM task_points WHERE path = ?').run(path);
      this.db
        .prepare(
          `INSERT INTO task_transcripts (path, size, mtime_ms, learned_at) VALUES (?, ?, ?, ?)
           ON CONFLICT(path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms,
             learned_at = excluded.learned_at`,
        )
        .run(path, stamp.size, stamp.mtimeMs, new Date(now).toISOString());
      const insert = this.db.prepare(
        `INSERT INTO task_points (path, seq, open_tasks, growth, actual, project)
         VALUES (?, ?, ?, ?, ?, ?)`,
      );
      points.forEach((p, i) =>
        insert.run(
          path,
          i + 1,
          p.openTasks,
          p.growthPerResponse,
          p.actual ?? null,
          p.project ?? null,
        ),
      );
    });
  }

  /** Finished points of the transcripts under `dir` (all when null), `exclude` left out. */
  finished(dir: string | null, exclude?: string): Array<TaskPoint & { path: string }> {
    const rows = this.db
      .prepare('SELECT path, open_tasks, growth, actual, project FROM task_points WHERE actual > 0')
      .all() as Array<{
      path: string;
      open_tasks: number;
      growth: number;
      actual: number;
      project: string | null;
    }>;
    const prefix = dir === null ? null : dir.endsWith('/') ? dir : `${dir}/`;
    return rows
      .filter((r) => (prefix === null || r.path.startsWith(prefix)) && r.path !== exclude)
      .map((r) => ({
        path: r.path,
        openTasks: r.open_tasks,
        growthPerResponse: r.growth,
        actual: r.actual,
        // One transcript, one session: the range is judged on sessions left out whole.
        session: r.path,
        ...(r.project === null ? {} : { project: r.project }),
      }));
  }
}
