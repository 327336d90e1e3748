/**
 * Estimates given, kept for `shim estimate --accuracy`. store/estimates/task-estimate-repository.ts
 * implements it.
 * @module
 */

export type RecordedEstimate = {
  id: string;
  createdAt: string;
  transcriptPath: string;
  sessionId: string | null;
  line: number;
  /** The tasks the estimate was about (app/tasks/task-points.ts keys). */
  taskKeys: string[];
  /** Context spent in the session before the estimate. */
  spentBefore: number;
  tokens: number;
  low: number;
  high: number;
  actual: number | null;
  resolvedAt: string | null;
};

export interface TaskEstimates {
  record(e: Omit<RecordedEstimate, 'actual' | 'resolvedAt'>): void;
  resolve(id: string, actual: number, at: string): void;
  all(): RecordedEstimate[];
}
