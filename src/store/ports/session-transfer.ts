/**
 * A session's rows out of one store and into another (`shim export` / `shim import`): written as
 * they came, under their own ids, what is already here skipped. store/checkpoints/session-transfer.ts
 * implements it.
 * @module
 */
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';

/** A table row as plain JSON: column name → value. */
export type PlainRow = Record<string, string | number | null>;

export type ExportedCheckpoint = {
  checkpoint: Checkpoint;
  /** Columns the decoded checkpoint does not carry. */
  row: { parentId: string | null; restoredAt: string | null; agent: string };
};

export type SessionRows = {
  session: PlainRow | null;
  checkpoints: ExportedCheckpoint[];
  handoffs: PlainRow[];
  compactionSummaries: PlainRow[];
};

export type WritePlan = {
  session: 'add' | 'skip' | 'none';
  /** Checkpoint id → what happens to it; `renumber` when its number is taken by another id. */
  checkpoints: Array<{ id: string; action: 'add' | 'skip' | 'renumber'; number: number }>;
  handoffs: Array<{ id: string; action: 'add' | 'skip' }>;
  compactionSummaries: Array<{ id: string; action: 'add' | 'skip' }>;
};

export interface SessionTransfers {
  read(sessionId: string): SessionRows;
  plan(rows: SessionRows): WritePlan;
  write(rows: SessionRows): WritePlan;
  /** Session ids (of a session row or a checkpoint) starting with `prefix`, at most `limit`. */
  sessionIdsStartingWith(prefix: string, limit: number): string[];
}
