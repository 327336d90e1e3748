/**
 * Forward-only schema migrations. Version 1 is the specified schema exactly (docs/specification.md, "The store"); later versions
 * add what shim needs. Each runs in its own transaction and records itself in schema_version.
 * @module
 */

import { fullTextTableSql } from './dialect.ts';

export type Migration = { version: number; description: string; sql: string };

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'specified schema: checkpoints, resume_events, signal_history',
    sql: `
CREATE TABLE IF NOT EXISTS checkpoints (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL,
  checkpoint_number INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  triggered_by TEXT NOT NULL,
  conversation_state TEXT NOT NULL,
  task_state TEXT NOT NULL,
  file_state TEXT NOT NULL,
  tool_state TEXT NOT NULL,
  signals TEXT NOT NULL,
  user_preferences TEXT,
  crash_risk TEXT NOT NULL,
  progress REAL NOT NULL,
  operation TEXT,
  context_window_usage REAL,
  message_count INTEGER,
  tool_call_count INTEGER,
  uncompressed_size INTEGER,
  compressed_size INTEGER,
  compression_ratio REAL,
  restored_at TEXT,
  restore_success BOOLEAN,
  restore_fidelity REAL,
  UNIQUE(session_id, checkpoint_number)
);
CREATE INDEX IF NOT EXISTS idx_checkpoints_session ON checkpoints(session_id, created_at DESC);
CREATE INDEX IF NOT EXISTS idx_checkpoints_risk ON checkpoints(crash_risk, created_at DESC);
CREATE INDEX IF NOT EXISTS idx_checkpoints_unrestored ON checkpoints(session_id, created_at DESC) WHERE restored_at IS NULL;
CREATE TABLE IF NOT EXISTS resume_events (
  id TEXT PRIMARY KEY,
  checkpoint_id TEXT NOT NULL,
  session_id TEXT NOT NULL,
  restored_at TEXT NOT NULL,
  interruption_reason TEXT NOT NULL,
  time_since_checkpoint INTEGER NOT NULL,
  resume_confidence REAL NOT NULL,
  user_confirmed BOOLEAN,
  success BOOLEAN,
  fidelity_score REAL,
  notes TEXT,
  FOREIGN KEY (checkpoint_id) REFERENCES checkpoints(id)
);
CREATE TABLE IF NOT EXISTS signal_history (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  signals TEXT NOT NULL,
  crash_risk TEXT NOT NULL
);`,
  },
  {
    version: 2,
    description: 'where a checkpoint came from, sessions, the event log',
    sql: `
ALTER TABLE checkpoints ADD COLUMN source TEXT;
ALTER TABLE checkpoints ADD COLUMN cwd TEXT;
ALTER TABLE checkpoints ADD COLUMN transcript_path TEXT;
ALTER TABLE checkpoints ADD COLUMN snapshot_ref TEXT;
CREATE INDEX IF NOT EXISTS idx_checkpoints_cwd ON checkpoints(cwd, created_at DESC);
CREATE INDEX IF NOT EXISTS idx_checkpoints_created ON checkpoints(created_at DESC);
CREATE INDEX IF NOT EXISTS idx_resume_events_checkpoint ON resume_events(checkpoint_id);
CREATE INDEX IF NOT EXISTS idx_signal_history_session ON signal_history(session_id, recorded_at DESC);
CREATE TABLE IF NOT EXISTS sessions (
  session_id TEXT PRIMARY KEY,
  transcript_path TEXT,
  cwd TEXT,
  started_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  ended_at TEXT,
  end_reason TEXT,
  cli_version TEXT,
  model TEXT
);
CREATE INDEX IF NOT EXISTS idx_sessions_cwd ON sessions(cwd, last_seen_at DESC);
CREATE TABLE IF NOT EXISTS events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at TEXT NOT NULL,
  session_id TEXT,
  kind TEXT NOT NULL,
  data TEXT
);
CREATE INDEX IF NOT EXISTS idx_events_session ON events(session_id, id);`,
  },
  {
    version: 3,
    description: 'full-text search over checkpoints (FTS5), kept in step with deletions',
    // checkpoint_search_ids gives each indexed checkpoint a stable FTS rowid (the checkpoints
    // table has no INTEGER PRIMARY KEY, so its own rowids may change on VACUUM). Rows are added
    // by CheckpointRepository.save(); checkpoints saved before this version are indexed the
    // first time anyone searches (app/checkpoint/search-checkpoints.ts). The FTS5 table's DDL is the SQLite
    // dialect's (sqlite/dialect.ts); its columns are spelled out here, as this version made them.
    sql: `
CREATE TABLE IF NOT EXISTS checkpoint_search_ids (
  doc INTEGER PRIMARY KEY,
  checkpoint_id TEXT NOT NULL UNIQUE
);
${fullTextTableSql('checkpoint_search', ['summary', 'decisions', 'requests', 'tasks', 'files', 'errors'])}
CREATE TRIGGER IF NOT EXISTS checkpoint_search_forget AFTER DELETE ON checkpoints BEGIN
  DELETE FROM checkpoint_search
    WHERE rowid = (SELECT doc FROM checkpoint_search_ids WHERE checkpoint_id = old.id);
  DELETE FROM checkpoint_search_ids WHERE checkpoint_id = old.id;
END;`,
  },
  {
    version: 4,
    description: 'loop supervisor: runs, iterations, event index',
    // loop_events indexes the per-run append-only log (SHIM_HOME/loops/<run>/events.jsonl, the
    // source of truth); `data` holds at most 1000 characters of the event's JSON.
    sql: `
CREATE TABLE IF NOT EXISTS loop_runs (
  run_id TEXT PRIMARY KEY,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  cwd TEXT NOT NULL,
  goal TEXT NOT NULL,
  status TEXT NOT NULL,
  stop_reason TEXT,
  options TEXT NOT NULL,
  start_commit TEXT,
  iteration INTEGER NOT NULL DEFAULT 0,
  restarts INTEGER NOT NULL DEFAULT 0,
  session_id TEXT,
  supervisor_pid INTEGER,
  cost_usd REAL NOT NULL DEFAULT 0,
  context_tokens INTEGER,
  context_percent REAL,
  last_event TEXT,
  wait_until TEXT,
  state TEXT,
  ended_at TEXT,
  compacted_at TEXT
);
CREATE INDEX IF NOT EXISTS idx_loop_runs_cwd ON loop_runs(cwd, created_at DESC);
CREATE INDEX IF NOT EXISTS idx_loop_runs_status ON loop_runs(status);
CREATE TABLE IF NOT EXISTS loop_iterations (
  run_id TEXT NOT NULL,
  number INTEGER NOT NULL,
  session_id TEXT,
  mode TEXT NOT NULL,
  prompt TEXT NOT NULL,
  started_at TEXT NOT NULL,
  ended_at TEXT,
  outcome TEXT,
  agent_pid INTEGER,
  exit_code INTEGER,
  cost_usd REAL,
  responses INTEGER NOT NULL DEFAULT 0,
  tool_calls INTEGER NOT NULL DEFAULT 0,
  peak_context_tokens INTEGER,
  last_context_tokens INTEGER,
  peak_percent REAL,
  result_text TEXT,
  stream_offset INTEGER NOT NULL DEFAULT 0,
  checkpoint_id TEXT,
  PRIMARY KEY (run_id, number)
);
CREATE TABLE IF NOT EXISTS loop_events (
  run_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  at TEXT NOT NULL,
  name TEXT NOT NULL,
  iteration INTEGER,
  correlation_id TEXT,
  file_offset INTEGER NOT NULL,
  data TEXT,
  PRIMARY KEY (run_id, seq)
);
CREATE INDEX IF NOT EXISTS idx_loop_events_name ON loop_events(run_id, name, seq);`,
  },
  {
    version: 5,
    description: 'lineage (checkpoint parents, sessions restored from others) and handoffs',
    // parent_id: the previous checkpoint of the session, or for a session's first checkpoint the
    // one it was restored from — the chain a restore walks. handoffs: documents written for a
    // next session; `kind = 'user'` ones (shim handoff) are picked up once by the next session
    // started in their project.
    sql: `
ALTER TABLE checkpoints ADD COLUMN parent_id TEXT;
CREATE INDEX IF NOT EXISTS idx_checkpoints_parent ON checkpoints(parent_id);
ALTER TABLE sessions ADD COLUMN resumed_from_session TEXT;
ALTER TABLE sessions ADD COLUMN resumed_from_checkpoint TEXT;
CREATE TABLE IF NOT EXISTS handoffs (
  id TEXT PRIMARY KEY,
  checkpoint_id TEXT NOT NULL,
  session_id TEXT NOT NULL,
  project TEXT,
  path TEXT NOT NULL,
  kind TEXT NOT NULL,
  created_at TEXT NOT NULL,
  picked_up_at TEXT,
  picked_up_by TEXT
);
CREATE INDEX IF NOT EXISTS idx_handoffs_project ON handoffs(project, created_at DESC);`,
  },
  {
    version: 6,
    description: "Claude Code's compaction summaries (PostCompact), to compare with shim's restore",
    // summary: redacted and clipped; checkpoint_id: the session's newest checkpoint when the
    // summary arrived (what shim's restore is built from). resume_events: the session's message
    // count at the restore (success = it grew since) and how much of the checkpoint Claude
    // Code's summary carried (fidelity_score: how much shim's restore carried).
    sql: `
CREATE TABLE IF NOT EXISTS compaction_summaries (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  trigger TEXT NOT NULL,
  summary TEXT NOT NULL,
  checkpoint_id TEXT
);
CREATE INDEX IF NOT EXISTS idx_compaction_summaries_session ON compaction_summaries(session_id, recorded_at DESC);
ALTER TABLE resume_events ADD COLUMN messages_at_restore INTEGER;
ALTER TABLE resume_events ADD COLUMN claude_fidelity_score REAL;`,
  },
  {
    version: 7,
    description: 'task points learned from finished sessions (task estimates, issue 15)',
    // One row per transcript read (its size and mtime then: a transcript is read again only when
    // it changed), its points: every task-list change with open tasks, the growth per response
    // then and, when its tasks all finished, the tokens that took (app/tasks/task-points.ts). And every
    // estimate `shim estimate` gave, with the tasks it was about (task_keys, JSON), so the actual
    // can be recorded beside it once they are done (`shim estimate --accuracy`).
    sql: `
CREATE TABLE IF NOT EXISTS task_transcripts (
  path TEXT PRIMARY KEY,
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  learned_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS task_points (
  path TEXT NOT NULL REFERENCES task_transcripts(path) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  open_tasks INTEGER NOT NULL,
  growth REAL NOT NULL,
  actual REAL,
  PRIMARY KEY (path, seq)
);
CREATE TABLE IF NOT EXISTS task_estimates (
  id TEXT PRIMARY KEY,
  created_at TEXT NOT NULL,
  transcript_path TEXT NOT NULL,
  session_id TEXT,
  line INTEGER NOT NULL,
  task_keys TEXT NOT NULL,
  spent_before REAL NOT NULL,
  tokens INTEGER NOT NULL,
  low INTEGER NOT NULL,
  high INTEGER NOT NULL,
  actual REAL,
  resolved_at TEXT
);
CREATE INDEX IF NOT EXISTS idx_task_estimates_open ON task_estimates(resolved_at);`,
  },
  {
    version: 8,
    description: "task points carry their session's project (estimates learn per project)",
    // What the transcripts taught is forgotten so that the next refresh reads them again, this
    // time with their project; nothing else holds it (estimates and their actuals stay).
    sql: `
ALTER TABLE task_points ADD COLUMN project TEXT;
DELETE FROM task_points;
DELETE FROM task_transcripts;`,
  },
  {
    version: 9,
    description: "tracker sync: each session's issue, and the outbox of what is to reach it",
    // session_issues: the issue a session works on and how shim knows (linked, branch, request,
    // goal, inherited). sync_outbox: every comment, label or state change to send, written by
    // the hook that decided it and delivered by a detached worker (app/sync/drain-outbox.ts).
    // issue_facts: what the worker last read of an issue (title, state, link, shim's last note),
    // so a handoff written in a hook can name it without asking the tracker. shard_issues: the
    // sub-issue `shim shard --issues` created for each shard file, and when it was ticked off.
    // dedupe_key makes an enqueue idempotent; a lease (lease_owner, lease_until) lets one worker
    // send an entry at a time and another take it over when that one died.
    sql: `
CREATE TABLE IF NOT EXISTS session_issues (
  session_id TEXT PRIMARY KEY,
  tracker TEXT NOT NULL,
  issue_key TEXT NOT NULL,
  repo TEXT,
  source TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sync_outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  dedupe_key TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  tracker TEXT NOT NULL,
  issue_key TEXT NOT NULL,
  repo TEXT,
  action TEXT NOT NULL,
  payload TEXT NOT NULL,
  session_id TEXT,
  checkpoint_id TEXT,
  status TEXT NOT NULL DEFAULT 'pending',
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  lease_owner TEXT,
  lease_until TEXT,
  last_error TEXT,
  delivered_at TEXT,
  remote_id TEXT
);
CREATE INDEX IF NOT EXISTS idx_sync_outbox_due ON sync_outbox(status, next_attempt_at);
CREATE TABLE IF NOT EXISTS issue_facts (
  tracker TEXT NOT NULL,
  repo TEXT NOT NULL DEFAULT '',
  issue_key TEXT NOT NULL,
  title TEXT,
  state TEXT,
  url TEXT,
  last_note TEXT,
  fetched_at TEXT NOT NULL,
  PRIMARY KEY (tracker, repo, issue_key)
);
CREATE TABLE IF NOT EXISTS shard_issues (
  shard_file TEXT PRIMARY KEY,
  tracker TEXT NOT NULL,
  repo TEXT,
  issue_key TEXT NOT NULL,
  parent_key TEXT NOT NULL,
  created_at TEXT NOT NULL,
  done_at TEXT
);`,
  },
  {
    version: 10,
    description: 'each session, checkpoint and loop run records the agent it belongs to',
    // Rows from before this migration are Claude Code's: it was the only agent shim watched.
    // Values: core/agent-id.ts AGENT_IDS.
    sql: `
ALTER TABLE sessions ADD COLUMN agent TEXT NOT NULL DEFAULT 'claude';
ALTER TABLE checkpoints ADD COLUMN agent TEXT NOT NULL DEFAULT 'claude';
ALTER TABLE loop_runs ADD COLUMN agent TEXT NOT NULL DEFAULT 'claude';`,
  },
  {
    version: 11,
    description: "team store: replication marks, and the team's newest unfinished work per project",
    // team_marks: how far the replication worker has queued each kind of row into sync_outbox
    // (app/team/queue-replication.ts). team_work: the newest unfinished work of another machine
    // or teammate per project, pulled from the team store by the worker so the SessionStart hook
    // can restore it without a network connection (app/team/pull-team-work.ts, docs/team.md).
    sql: `
CREATE TABLE IF NOT EXISTS team_marks (
  kind TEXT PRIMARY KEY,
  mark TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS team_work (
  project_id TEXT PRIMARY KEY,
  checkpoint_id TEXT NOT NULL,
  session_id TEXT NOT NULL,
  machine TEXT NOT NULL,
  os_user TEXT NOT NULL,
  created_at TEXT NOT NULL,
  reason TEXT NOT NULL,
  handoff_id TEXT,
  checkpoint TEXT NOT NULL,
  pulled_at TEXT NOT NULL,
  taken_at TEXT,
  taken_by TEXT
);`,
  },
  {
    version: 12,
    description: 'checkpoints stored as what changed since the previous one (incremental chains)',
    // delta_of: the checkpoint of the same session whose state this row's state_delta (an RFC
    // 6902 patch, gzipped) applies to; null for a whole row, whose sections are in their columns
    // (a delta row leaves them empty). chain_depth: deltas since the nearest whole row (0 for a
    // whole one). state_hash: sha-256 of the rebuilt state, checked after every step of a chain.
    // stored_size: the bytes this row adds (its sections or its delta); older rows are whole.
    // store/checkpoints/checkpoint-chain.ts, docs/specification.md "The store".
    sql: `
ALTER TABLE checkpoints ADD COLUMN delta_of TEXT;
ALTER TABLE checkpoints ADD COLUMN chain_depth INTEGER NOT NULL DEFAULT 0;
ALTER TABLE checkpoints ADD COLUMN state_hash TEXT;
ALTER TABLE checkpoints ADD COLUMN state_delta BLOB;
ALTER TABLE checkpoints ADD COLUMN stored_size INTEGER;
CREATE INDEX IF NOT EXISTS idx_checkpoints_delta_of ON checkpoints(delta_of) WHERE delta_of IS NOT NULL;`,
  },
  {
    version: 13,
    description: 'what the sessions of this home learned are secrets, as hashes (no raw value)',
    // One line of a session's memory of its secrets per row (redact/secret-memory.ts: rule,
    // length and two hashes). Read when a checkpoint is sealed and stored and when a restore is
    // printed: a value one session learned is replaced in every other (store/checkpoints/learned-secrets.ts).
    sql: `
CREATE TABLE IF NOT EXISTS learned_secrets (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  entry TEXT NOT NULL UNIQUE,
  session_id TEXT NOT NULL,
  learned_at TEXT NOT NULL
);`,
  },
];

export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
