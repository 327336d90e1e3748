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
import { toAgentId, type AgentId } from '../../core/agent-id.ts';
import type { CrashRisk } from '../../core/context/risk.ts';
import type { CrashSignals } from '../../core/context/signals.ts';
import { compressJson, decompressJson, type Compressed } from '../sqlite/serialize.ts';

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
  /** The agent whose session it is (migration 10). */
  agent: AgentId;
};

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
};

export const SUMMARY_COLUMNS = `id, session_id, checkpoint_number, created_at, triggered_by, crash_risk, progress, operation,
  context_window_usage, message_count, tool_call_count, uncompressed_size, compressed_size, compression_ratio,
  restored_at, cwd, transcript_path, snapshot_ref, source, agent`;

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
    },
    restoredAt: row.restored_at,
    cwd: row.cwd,
    transcriptPath: row.transcript_path,
    snapshotRef: row.snapshot_ref,
    agent: toAgentId(row.agent),
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

/**
 * A row whose stored sections cannot be read (damaged compressed data). Its message reads as
 * store corruption (recover-database.ts): the store is rebuilt without the row, which stays in
 * the moved-aside file, instead of every later checkpoint and resume of the session failing on it.
 */
export function toCheckpoint(row: Row): Checkpoint {
  try {
    return decodeRow(row);
  } catch (error) {
    throw new Error(
      `damaged checkpoint row ${String(row.id)}: ${(error as Error).message} (SQLITE_CORRUPT)`,
      { cause: error },
    );
  }
}

function decodeRow(row: Row): Checkpoint {
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
    },
  };
}
