/**
 * A checkpoint as its row: the 30 columns, the compressed sections, and the defaults of fields
 * that version-1 rows predate. The repository (checkpoint-repository.ts) queries; this maps.
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
} from '../../core/checkpoint/checkpoint.ts';
import { toAgentId } from '../../core/agent-id.ts';
import { AppError } from '../../core/errors.ts';
import type { CrashRisk } from '../../core/context/risk.ts';
import type { CrashSignals } from '../../core/context/signals.ts';
import { compressJson, decompressJson, type Compressed } from '../sqlite/serialize.ts';
import { decodeDelta, type CheckpointState } from './checkpoint-delta.ts';
import type { CheckpointSize, CheckpointSummary } from '../ports/checkpoints.ts';

export type Row = {
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
  /** Absent from rows selected without it. */
  agent?: string;
  /** Migration 12 (checkpoint-chain.ts); absent from rows selected without them. */
  delta_of?: string | null;
  chain_depth?: number;
  state_hash?: string | null;
  state_delta?: Uint8Array | null;
  stored_size?: number | null;
};

export const SUMMARY_COLUMNS = `id, session_id, checkpoint_number, created_at, triggered_by, crash_risk, progress, operation,
  context_window_usage, message_count, tool_call_count, uncompressed_size, compressed_size, compression_ratio,
  restored_at, cwd, transcript_path, snapshot_ref, source, agent, delta_of, stored_size`;

/** contextTokens / compactThreshold of a row's source, as a percent with one decimal. */
export function thresholdPercent(source: string | null): number | null {
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

export function toSummary(row: Row): CheckpointSummary {
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
      stored: row.stored_size ?? row.compressed_size ?? 0,
    },
    deltaOf: row.delta_of ?? null,
    restoredAt: row.restored_at,
    cwd: row.cwd,
    transcriptPath: row.transcript_path,
    snapshotRef: row.snapshot_ref,
    agent: toAgentId(row.agent),
  };
}

const EMPTY_SOURCE: Omit<CheckpointSource, 'agent'> = {
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

/**
 * A row whose stored sections cannot be read (damaged compressed data). Its message reads as
 * store corruption (recover-database.ts): the store is rebuilt without the row, which stays in
 * the moved-aside file, instead of every later checkpoint and resume of the session failing on it.
 */
export function toCheckpoint(row: Row): Checkpoint {
  if (row.delta_of) {
    // Not damage: a programming error (read chains through checkpoint-chain.ts), so no
    // SQLITE_CORRUPT that would have the store rebuilt.
    throw new Error(
      `checkpoint ${row.id} is stored as a change of ${row.delta_of}: read it through readCheckpointRow (checkpoint-chain.ts)`,
    );
  }
  try {
    return decodeRow(row);
  } catch (error) {
    // Said as it is (an agent this shim does not know): the row is not damaged.
    if (error instanceof AppError) throw error;
    throw new Error(
      `damaged checkpoint row ${String(row.id)}: ${(error as Error).message} (SQLITE_CORRUPT)`,
      { cause: error },
    );
  }
}

/** A checkpoint from its row's columns and a state rebuilt from its chain (checkpoint-chain.ts). */
export function withState(row: Row, state: CheckpointState): Checkpoint {
  return { ...identityOf(row), ...state, source: sourceOf(row) };
}

/** Version-1 rows predate the source column. */
/**
 * Version-1 rows predate the source column; sources written before agents were recorded name
 * none: the row's agent column says whose (migration 10).
 */
function sourceOf(row: Row): CheckpointSource {
  const source = row.source ? (JSON.parse(row.source) as Partial<CheckpointSource>) : EMPTY_SOURCE;
  return { ...source, agent: toAgentId(row.agent) } as CheckpointSource;
}

/**
 * `value` with `defaults` for the keys it lacks: its own keys keep their order (a checkpoint read
 * back serialises to the bytes it was stored as, which its chain's hashes rely on), the missing
 * ones come after.
 */
function withDefaults<T extends object>(value: Partial<T>, defaults: T): T {
  return {
    ...value,
    ...Object.fromEntries(Object.entries(defaults).filter(([k]) => !(k in value))),
  } as T;
}

/**
 * Whether a row (as SELECT * gives it) reads back: what a store's recovery copies into the fresh
 * store, so a row that fails every read is not carried over into it. A change of another
 * checkpoint (checkpoint-chain.ts) holds no sections: its source and its change must read.
 */
export function isReadableCheckpointRow(row: Record<string, unknown>): boolean {
  const r = row as Row;
  try {
    if (!r.delta_of) decodeRow(r);
    else if (!r.state_delta) return false;
    else {
      sourceOf(r);
      decodeDelta(r.state_delta);
    }
    return true;
  } catch {
    return false;
  }
}

function decodeRow(row: Row): Checkpoint {
  return {
    ...identityOf(row),
    // Version-1 rows (the specified schema) predate the fields marked "beyond the specification": default them.
    conversationState: withDefaults(
      decompressJson<SeedSection<ConversationState, 'userRequests'>>(row.conversation_state),
      { userRequests: [] } as unknown as ConversationState,
    ),
    taskState: withDefaults(decompressJson<SeedSection<TaskState, 'items'>>(row.task_state), {
      items: [],
    } as unknown as TaskState),
    fileState: withDefaults(
      decompressJson<SeedSection<FileState, 'repoRoot' | 'branch' | 'head' | 'snapshot'>>(
        row.file_state,
      ),
      { repoRoot: null, branch: null, head: null, snapshot: null } as unknown as FileState,
    ),
    toolState: decompressJson(row.tool_state),
    signals: withDefaults(
      decompressJson<SeedSection<CrashSignals, 'compactThresholdUsage' | 'tokensUntilCompact'>>(
        row.signals,
      ),
      { compactThresholdUsage: 0, tokensUntilCompact: 0 } as unknown as CrashSignals,
    ),
    userPreferences: row.user_preferences ? decompressJson(row.user_preferences) : {},
    source: sourceOf(row),
  };
}

export type Sections = Record<
  'conversation' | 'task' | 'file' | 'tool' | 'signals' | 'preferences',
  Compressed
>;

export function compressSections(draft: CheckpointDraft): {
  sections: Sections;
  size: CheckpointSize;
} {
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
      stored: compressed,
    },
  };
}
