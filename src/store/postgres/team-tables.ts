/** The team store's tables as Kysely sees them (store/postgres/migrations.ts). */
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, string | Date, string | Date>;
type Json = ColumnType<Record<string, unknown>, string, string>;

type Origin = {
  project_id: string;
  project_path: string;
  machine: string;
  os_user: string;
  received_at: Generated<Date>;
};

export type TeamTables = {
  shim_schema_version: { version: number; applied_at: Generated<Date> };
  shim_sessions: Origin & {
    session_id: string;
    at: Timestamp;
    cwd: string | null;
    ended_at: Timestamp | null;
    end_reason: string | null;
    body: Json;
  };
  shim_checkpoints: Origin & {
    id: string;
    session_id: string;
    checkpoint_number: number;
    at: Timestamp;
    triggered_by: string;
    open_tasks: number;
    search_text: string;
    body: Json;
  };
  shim_handoffs: Origin & {
    id: string;
    session_id: string | null;
    checkpoint_id: string;
    at: Timestamp;
    for_team: boolean;
    picked_up_at: Timestamp | null;
    picked_up_by: string | null;
    body: Json;
  };
  shim_compaction_summaries: Origin & {
    id: string;
    session_id: string | null;
    at: Timestamp;
    body: Json;
  };
  shim_loop_runs: Origin & {
    id: string;
    session_id: string | null;
    at: Timestamp;
    status: string | null;
    body: Json;
  };
  shim_loop_events: Origin & { id: string; session_id: string | null; at: Timestamp; body: Json };
  shim_file_patches: Origin & {
    checkpoint_id: string;
    session_id: string;
    at: Timestamp;
    base_commit: string | null;
    snapshot_commit: string;
    patch: string;
    bytes: number;
  };
};
