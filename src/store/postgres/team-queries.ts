/**
 * The team store's reads, as domain objects (the newest unfinished work per project is
 * team-pull-queries.ts's, in plain SQL): sessions, checkpoints by id or session, search,
 * loop runs and file patches. Everything read is unescaped (text-escape.ts); nothing here names
 * another machine's clone in what a reader is shown except inside the checkpoint, whose paths
 * the caller rebases (core/team/rebase-checkpoint.ts).
 * @module
 */
import { sql, type RawBuilder } from 'kysely';
import type {
  FilePatch,
  TeamCheckpoint,
  TeamLoopRunSummary,
  TeamReadScope,
  TeamSearchHit,
  TeamSessionSummary,
} from '../ports/team-repository.ts';
import { fullTextMatches, fullTextQuery, fullTextRank, fullTextSnippet } from './dialect.ts';
import type { TeamDatabase } from './team-database.ts';
import { toCheckpoint, type CheckpointRow } from './team-pull-queries.ts';
import { unescapeText, unescapeValue } from './text-escape.ts';

/** Words around a search hit's best match (as the local search's snippet). */
const SNIPPET_WORDS = 16;

type Writer = { machine: string; osUser: string };

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const osUserOnly = (scope: TeamReadScope, column: string) =>
  scope.osUser !== undefined ? sql`AND ${sql.ref(column)} = ${scope.osUser}` : sql``;
const ids = (scope: TeamReadScope) => [...scope.projectIds];

/** Checkpoints with their session's end, filtered by `where`, newest first. */
function checkpoints(
  db: TeamDatabase,
  where: RawBuilder<unknown>,
  limit: number,
): Promise<TeamCheckpoint[]> {
  return sql<CheckpointRow>`
    SELECT c.project_id, c.id, c.session_id, c.machine, c.os_user, c.at, c.body, c.open_tasks,
      s.ended_at, s.end_reason
    FROM shim_checkpoints c LEFT JOIN shim_sessions s ON s.session_id = c.session_id
    WHERE ${where}
    ORDER BY c.at DESC, c.checkpoint_number DESC
    LIMIT ${limit}`
    .execute(db)
    .then((r) => r.rows.map(toCheckpoint));
}

export function listCheckpoints(
  db: TeamDatabase,
  scope: TeamReadScope,
  exclude: Writer | null,
): Promise<TeamCheckpoint[]> {
  if (scope.projectIds.length === 0) return Promise.resolve([]);
  return checkpoints(
    db,
    sql`c.project_id = ANY(${ids(scope)}) ${osUserOnly(scope, 'c.os_user')}
      ${scope.sessionId !== undefined ? sql`AND c.session_id = ${scope.sessionId}` : sql``}
      ${exclude ? sql`AND NOT (c.machine = ${exclude.machine} AND c.os_user = ${exclude.osUser})` : sql``}`,
    scope.limit,
  );
}

/** Ids are uuids: a prefix is matched as text, its LIKE wildcards taken literally. */
const prefixOf = (text: string) => `${text.replace(/[\\%_]/g, '\\$&')}%`;

export function findCheckpoint(
  db: TeamDatabase,
  idOrPrefix: string,
  scope: TeamReadScope,
): Promise<TeamCheckpoint[]> {
  if (scope.projectIds.length === 0) return Promise.resolve([]);
  return checkpoints(
    db,
    sql`(c.id = ${idOrPrefix} OR c.id LIKE ${prefixOf(idOrPrefix)})
      AND c.project_id = ANY(${ids(scope)})`,
    10,
  );
}

export async function findSessionCheckpoint(
  db: TeamDatabase,
  sessionIdOrPrefix: string,
  scope: TeamReadScope,
): Promise<TeamCheckpoint[]> {
  if (scope.projectIds.length === 0) return [];
  const rows = await sql<CheckpointRow>`
    SELECT DISTINCT ON (c.session_id) c.project_id, c.id, c.session_id, c.machine, c.os_user,
      c.at, c.body, c.open_tasks, s.ended_at, s.end_reason
    FROM shim_checkpoints c LEFT JOIN shim_sessions s ON s.session_id = c.session_id
    WHERE (c.session_id = ${sessionIdOrPrefix} OR c.session_id LIKE ${prefixOf(sessionIdOrPrefix)})
      AND c.project_id = ANY(${ids(scope)})
    ORDER BY c.session_id, c.at DESC, c.checkpoint_number DESC
    LIMIT 10`.execute(db);
  return rows.rows.map(toCheckpoint);
}

export async function listSessions(
  db: TeamDatabase,
  scope: TeamReadScope,
): Promise<TeamSessionSummary[]> {
  if (scope.projectIds.length === 0) return [];
  // The newest sessions first, then for each its newest checkpoint and count (index probes).
  const rows = await sql<{
    session_id: string;
    project_id: string;
    project_path: string;
    machine: string;
    os_user: string;
    ended_at: Date | null;
    last_at: Date | null;
    checkpoints: string;
    open_tasks: number | null;
    first_request: string | null;
  }>`
    SELECT s.session_id, s.project_id, s.project_path, s.machine, s.os_user, s.ended_at,
      n.at AS last_at, n.open_tasks, n.first_request,
      (SELECT COUNT(*) FROM shim_checkpoints k WHERE k.session_id = s.session_id) AS checkpoints
    FROM shim_sessions s
    LEFT JOIN LATERAL (
      SELECT c.at, c.open_tasks, c.body->'conversationState'->'userRequests'->>0 AS first_request
      FROM shim_checkpoints c WHERE c.session_id = s.session_id
      ORDER BY c.at DESC LIMIT 1) n ON true
    WHERE s.project_id = ANY(${ids(scope)}) ${osUserOnly(scope, 's.os_user')}
    ORDER BY COALESCE(n.at, s.at) DESC
    LIMIT ${scope.limit}`.execute(db);
  return rows.rows.map((r) => ({
    sessionId: unescapeText(r.session_id),
    projectId: unescapeText(r.project_id),
    projectPath: unescapeText(r.project_path),
    machine: unescapeText(r.machine),
    osUser: unescapeText(r.os_user),
    lastCheckpointAt: iso(r.last_at),
    checkpoints: Number(r.checkpoints),
    openTasks: Number(r.open_tasks ?? 0),
    endedAt: iso(r.ended_at),
    firstRequest: r.first_request === null ? null : unescapeText(r.first_request),
  }));
}

export async function listLoopRuns(
  db: TeamDatabase,
  scope: TeamReadScope,
): Promise<TeamLoopRunSummary[]> {
  if (scope.projectIds.length === 0) return [];
  const rows = await sql<{
    id: string;
    project_id: string;
    project_path: string;
    machine: string;
    os_user: string;
    at: Date;
    status: string | null;
    body: Record<string, unknown>;
  }>`
    SELECT id, project_id, project_path, machine, os_user, at, status, body FROM shim_loop_runs
    WHERE project_id = ANY(${ids(scope)}) ${osUserOnly(scope, 'os_user')}
    ORDER BY at DESC
    LIMIT ${scope.limit}`.execute(db);
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return rows.rows.map((raw) => {
    const r = unescapeValue(raw);
    return {
      runId: r.id,
      projectId: r.project_id,
      machine: r.machine,
      osUser: r.os_user,
      projectPath: r.project_path,
      goal: text(r.body.goal) ?? '',
      status: r.status ?? text(r.body.status) ?? 'unknown',
      iteration: Number(r.body.iteration ?? 0),
      restarts: Number(r.body.restarts ?? 0),
      costUsd: Number(r.body.cost_usd ?? 0),
      lastEvent: text(r.body.last_event),
      createdAt: text(r.body.created_at),
      updatedAt: iso(raw.at)!,
    };
  });
}

export async function search(
  db: TeamDatabase,
  query: string,
  scope: TeamReadScope,
): Promise<TeamSearchHit[]> {
  if (scope.projectIds.length === 0 || query.trim() === '') return [];
  const rows = await sql<{
    id: string;
    session_id: string;
    project_id: string;
    machine: string;
    os_user: string;
    at: Date;
    rank: number;
    snippet: string;
    clone_root: string | null;
  }>`
    SELECT DISTINCT ON (rank_order.session_id) * FROM (
      SELECT c.id, c.session_id, c.project_id, c.machine, c.os_user, c.at,
        ${fullTextRank('c.search', 'q')} AS rank,
        ${fullTextSnippet('c.search_text', 'q', SNIPPET_WORDS)} AS snippet,
        COALESCE(c.body->'fileState'->>'repoRoot', c.body->'source'->>'cwd') AS clone_root
      FROM shim_checkpoints c, ${fullTextQuery(query)} q
      WHERE ${fullTextMatches('c.search', 'q')} AND c.project_id = ANY(${ids(scope)})
        ${osUserOnly(scope, 'c.os_user')}
    ) rank_order
    ORDER BY rank_order.session_id, rank_order.rank DESC, rank_order.at DESC`.execute(db);
  return rows.rows
    .map((raw) => {
      const r = unescapeValue(raw);
      return {
        cloneRoot: r.clone_root,
        checkpointId: r.id,
        sessionId: r.session_id,
        projectId: r.project_id,
        machine: r.machine,
        osUser: r.os_user,
        createdAt: iso(raw.at)!,
        rank: Number(r.rank),
        snippet: r.snippet.replace(/\s+/g, ' ').trim(),
      };
    })
    .sort((a, b) => b.rank - a.rank || b.createdAt.localeCompare(a.createdAt))
    .slice(0, scope.limit);
}

export async function filePatch(db: TeamDatabase, checkpointId: string): Promise<FilePatch | null> {
  const row = await db
    .selectFrom('shim_file_patches')
    .select(['checkpoint_id', 'base_commit', 'snapshot_commit', 'patch', 'bytes'])
    .where('checkpoint_id', '=', checkpointId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    checkpointId: unescapeText(row.checkpoint_id),
    baseCommit: row.base_commit === null ? null : unescapeText(row.base_commit),
    snapshotCommit: unescapeText(row.snapshot_commit),
    patch: unescapeText(row.patch),
    bytes: Number(row.bytes),
  };
}
