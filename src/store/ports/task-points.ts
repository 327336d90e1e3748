/**
 * What finished tasks in past transcripts cost (`shim estimate`'s model; the hooks read it).
 * store/estimates/task-point-repository.ts implements it.
 * @module
 */
import type { TaskPoint } from '../../core/plan/task-estimate.ts';

export type TranscriptStamp = { size: number; mtimeMs: number };

export interface TaskPoints {
  /** The transcripts read so far, with their size and mtime when read. */
  stamps(): Map<string, TranscriptStamp>;
  /** What `path` teaches now: its earlier points replaced, in one transaction. */
  replace(path: string, stamp: TranscriptStamp, points: readonly TaskPoint[], now: number): void;
  /** Finished points of the transcripts under `dir` (all when null), `exclude` left out. */
  finished(dir: string | null, exclude?: string): Array<TaskPoint & { path: string }>;
}
