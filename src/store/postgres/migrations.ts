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

/** Every table with an origin (migration 2 renames the projects in all of them). */
const ORIGIN_TABLES = [
  'shim_sessions',
  'shim_checkpoints',
  'shim_handoffs',
  'shim_compaction_summaries',
  'shim_loop_runs',
  'shim_loop_events',
];

/** Hosts whose owner and repository ignore case (core/team/project-identity.ts). */
const CASE_BLIND = ['github.com', 'gitlab.com', 'bitbucket.org', 'codeberg.org', 'dev.azure.com'];

/**
 * Migration 2's renaming of a table's projects to the identity of core/team/project-identity.ts:
 * a case-blind host's owner and repository lower-cased (the path inside the repository kept), a
 * remote-less project's path prefixed with the machine that wrote it.
 */
const renameProjects = (table: string) => `
UPDATE ${table} SET project_id = lower(split_part(project_id, '//', 1)) ||
    CASE WHEN position('//' IN project_id) > 0
      THEN '//' || substr(project_id, position('//' IN project_id) + 2) ELSE '' END
  WHERE (${CASE_BLIND.map((h) => `project_id LIKE '${h}/%'`).join(' OR ')})
    AND split_part(project_id, '//', 1) <> lower(split_part(project_id, '//', 1));
UPDATE ${table} SET project_id = 'path:' || machine || ':' || substr(project_id, 6)
  WHERE project_id LIKE 'path:/%';`;

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
  {
    version: 2,
    description:
      'projects renamed to the identity that holds across machines; the newest checkpoint per project found by one index; the files of a checkpoint',
    sql: `${ORIGIN_TABLES.map(renameProjects).join('')}
CREATE INDEX IF NOT EXISTS shim_checkpoints_newest
  ON shim_checkpoints (project_id, at DESC, checkpoint_number DESC);
DROP INDEX IF EXISTS shim_checkpoints_project;
CREATE INDEX IF NOT EXISTS shim_handoffs_session ON shim_handoffs (session_id);
CREATE TABLE IF NOT EXISTS shim_file_patches (
  checkpoint_id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL,
  at TIMESTAMPTZ NOT NULL,
  base_commit TEXT,
  snapshot_commit TEXT NOT NULL,
  patch TEXT NOT NULL,
  bytes INTEGER NOT NULL,${ORIGIN}
);
CREATE INDEX IF NOT EXISTS shim_file_patches_session ON shim_file_patches (session_id);
CREATE INDEX IF NOT EXISTS shim_compaction_summaries_session ON shim_compaction_summaries (session_id);
CREATE INDEX IF NOT EXISTS shim_loop_runs_project ON shim_loop_runs (project_id, at DESC);`,
  },
  {
    version: 3,
    description: "a checkpoint found by its id's first characters through an index",
    // The primary key's index follows the database's collation, which LIKE 'abc%' cannot use:
    // `shim show 3f2a1b0c` read every checkpoint of the server (0.3 s at 200k rows, bench/team-scale.ts).
    sql: `
CREATE INDEX IF NOT EXISTS shim_checkpoints_id_prefix ON shim_checkpoints (id text_pattern_ops);`,
  },
];

export const LATEST_POSTGRES_VERSION = POSTGRES_MIGRATIONS[POSTGRES_MIGRATIONS.length - 1]!.version;
