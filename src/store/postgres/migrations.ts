/**
 * The team store's schema on PostgreSQL, forward-only like SQLite's (store/sqlite/migrations.ts) and
 * numbered on its own. Rows carry the project as every machine names it, the machine and the OS
 * user; bodies are the redacted domain objects as jsonb; checkpoints are searchable through a
 * generated tsvector (its DDL is the dialect's: postgres/dialect.ts).
 * @module
 */

import { fullTextColumnSql } from './dialect.ts';

export type PostgresMigration = { version: number; description: string; sql: string };

const ORIGIN = `
  project_id TEXT NOT NULL,
  project_path TEXT NOT NULL DEFAULT '',
  machine TEXT NOT NULL,
  os_user TEXT NOT NULL,
  received_at TIMESTAMPTZ NOT NULL DEFAULT now()`;

export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    description: 'sessions, checkpoints, handoffs, compaction summaries, loop runs and events',
    sql: `
CREATE TABLE IF NOT EXISTS shim_sessions (
  session_id TEXT PRIMARY KEY,
  at TIMESTAMPTZ NOT NULL,
  cwd TEXT,
  ended_at TIMESTAMPTZ,
  end_reason TEXT,
  body JSONB NOT NULL,${ORIGIN}
);
CREATE INDEX IF NOT EXISTS shim_sessions_project ON shim_sessions (project_id, at DESC);
CREATE TABLE IF NOT EXISTS shim_checkpoints (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL,
  checkpoint_number INTEGER NOT NULL,
  at TIMESTAMPTZ NOT NULL,
  triggered_by TEXT NOT NULL,
  open_tasks INTEGER NOT NULL,
  search_text TEXT NOT NULL DEFAULT '',
  search ${fullTextColumnSql('search_text')},
  body JSONB NOT NULL,${ORIGIN}
);
CREATE INDEX IF NOT EXISTS shim_checkpoints_project ON shim_checkpoints (project_id, at DESC);
CREATE INDEX IF NOT EXISTS shim_checkpoints_session ON shim_checkpoints (session_id, at DESC);
CREATE INDEX IF NOT EXISTS shim_checkpoints_search ON shim_checkpoints USING GIN (search);
CREATE TABLE IF NOT EXISTS shim_handoffs (
  id TEXT PRIMARY KEY,
  session_id TEXT,
  checkpoint_id TEXT NOT NULL,
  at TIMESTAMPTZ NOT NULL,
  for_team BOOLEAN NOT NULL DEFAULT false,
  picked_up_at TIMESTAMPTZ,
  picked_up_by TEXT,
  body JSONB NOT NULL,${ORIGIN}
);
CREATE INDEX IF NOT EXISTS shim_handoffs_pending ON shim_handoffs (project_id, at DESC) WHERE for_team AND picked_up_at IS NULL;
CREATE TABLE IF NOT EXISTS shim_compaction_summaries (
  id TEXT PRIMARY KEY,
  session_id TEXT,
  at TIMESTAMPTZ NOT NULL,
  body JSONB NOT NULL,${ORIGIN}
);
CREATE TABLE IF NOT EXISTS shim_loop_runs (
  id TEXT PRIMARY KEY,
  session_id TEXT,
  at TIMESTAMPTZ NOT NULL,
  status TEXT,
  body JSONB NOT NULL,${ORIGIN}
);
CREATE TABLE IF NOT EXISTS shim_loop_events (
  id TEXT PRIMARY KEY,
  session_id TEXT,
  at TIMESTAMPTZ NOT NULL,
  body JSONB NOT NULL,${ORIGIN}
);`,
  },
];

export const LATEST_POSTGRES_VERSION = POSTGRES_MIGRATIONS[POSTGRES_MIGRATIONS.length - 1]!.version;
