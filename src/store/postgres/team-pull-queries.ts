/**
 * The queries a pull runs, in plain SQL on any pg-like client (`Queryable`: a pg pool, or Kysely
 * through `queryableOf` in team-database.ts): the schema check, the newest unfinished work per
 * project (one index probe per project: shim_checkpoints_newest, and the newest team handoff), a
 * handoff picked up. The pull a starting session waits for (dist/team-pull.cjs) runs them on a
 * bare pg pool; the worker and commands run the same text through Kysely.
 * @module
 */
import { AppError } from '../../core/errors.ts';
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import type { TeamCheckpoint, TeamWorkFound } from '../ports/team-repository.ts';
import { LATEST_POSTGRES_VERSION } from './migrations.ts';
import { toTeamError } from './team-errors.ts';
import { unescapeText, unescapeValue } from './text-escape.ts';

/** What the queries need of a client: pg's `query(text, values)`. */
export type Queryable = {
  query<R>(text: string, values?: readonly unknown[]): Promise<{ rows: R[] }>;
};

type Writer = { machine: string; osUser: string };

export type CheckpointRow = {
  project_id: string;
  id: string;
  session_id: string;
  machine: string;
  os_user: string;
  at: Date;
  body: Record<string, unknown>;
  open_tasks: number;
  ended_at: Date | null;
  end_reason: string | null;
};

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function toCheckpoint(r: CheckpointRow): TeamCheckpoint {
  return {
    projectId: unescapeText(r.project_id),
    checkpoint: unescapeValue(r.body) as unknown as Checkpoint,
    sessionId: unescapeText(r.session_id),
    machine: unescapeText(r.machine),
    osUser: unescapeText(r.os_user),
    createdAt: iso(r.at)!,
    endedAt: iso(r.ended_at),
  };
}

/** The schema version the server is at (0: shim's tables are not there). */
export async function getTeamSchemaVersion(db: Queryable): Promise<number> {
  const found = await db.query<{ present: string | null }>(
    `SELECT to_regclass('shim_schema_version')::text AS present`,
  );
  if (!found.rows[0]?.present) return 0;
  const row = await db.query<{ version: number | null }>(
    'SELECT MAX(version) AS version FROM shim_schema_version',
  );
  return Number(row.rows[0]?.version ?? 0);
}

/** Fails with TEAM_NO_SCHEMA (and how to fix it) when the server lacks shim's tables. */
export async function assertTeamSchema(db: Queryable, url: string): Promise<void> {
  let version: number;
  try {
    version = await getTeamSchemaVersion(db);
  } catch (error) {
    throw toTeamError(error, url);
  }
  if (version === 0)
    throw toTeamError(
      Object.assign(new Error('relation "shim_schema_version" does not exist'), { code: '42P01' }),
      url,
    );
  if (version > LATEST_POSTGRES_VERSION)
    throw new AppError(
      'TEAM_FAILED',
      `the team store is at schema version ${version}, newer than this shim knows (${LATEST_POSTGRES_VERSION})`,
      'upgrade shim on this machine',
    );
}

/**
 * The newest checkpoint per project ($1: project ids, $2: since), whoever wrote it (work newer
 * than it is nobody's), and the newest handoff left for the team per project (rows with a
 * handoff_id): one round trip. Exported for the bench's EXPLAIN (bench/team-scale.ts).
 */
export const NEWEST_UNFINISHED_SQL = `SELECT n.project_id, n.id, n.session_id, n.machine, n.os_user, n.at, n.body, n.open_tasks,
      s.ended_at, s.end_reason, NULL::text AS handoff_id
    FROM unnest($1::text[]) AS p(project_id)
    CROSS JOIN LATERAL (
      SELECT c.project_id, c.id, c.session_id, c.machine, c.os_user, c.at, c.body, c.open_tasks
      FROM shim_checkpoints c
      WHERE c.project_id = p.project_id AND c.at >= $2
      ORDER BY c.at DESC, c.checkpoint_number DESC LIMIT 1) n
    LEFT JOIN shim_sessions s ON s.session_id = n.session_id
    UNION ALL
    SELECT * FROM (
      SELECT DISTINCT ON (h.project_id) h.project_id, c.id, c.session_id, h.machine, h.os_user,
        h.at, c.body, c.open_tasks, NULL::timestamptz, NULL::text, h.id
      FROM shim_handoffs h JOIN shim_checkpoints c ON c.id = h.checkpoint_id
      WHERE h.project_id = ANY($1) AND h.for_team AND h.picked_up_at IS NULL
        AND h.at >= $2
      ORDER BY h.project_id, h.at DESC) handoffs`;

/**
 * Per project: a team handoff not yet picked up when it is the newest work, else the newest
 * checkpoint when it is another machine's and unfinished (its session not ended, or ended with
 * open tasks).
 */
export async function newestUnfinished(
  db: Queryable,
  projectIds: readonly string[],
  exclude: Writer,
  since: string,
): Promise<TeamWorkFound[]> {
  if (projectIds.length === 0) return [];
  const rows = (
    await db.query<CheckpointRow & { handoff_id: string | null }>(NEWEST_UNFINISHED_SQL, [
      [...projectIds],
      since,
    ])
  ).rows;
  const handoffs = rows.filter((r) => r.handoff_id !== null);
  const newest = rows.filter((r) => r.handoff_id === null);
  const found: TeamWorkFound[] = [];
  const mine = (r: CheckpointRow) =>
    unescapeText(r.machine) === exclude.machine && unescapeText(r.os_user) === exclude.osUser;
  const work = (r: CheckpointRow, reason: TeamWorkFound['reason']): TeamWorkFound => {
    const found = toCheckpoint(r);
    return {
      projectId: found.projectId,
      checkpoint: found.checkpoint,
      sessionId: found.sessionId,
      machine: found.machine,
      osUser: found.osUser,
      createdAt: found.createdAt,
      reason,
    };
  };
  for (const projectId of projectIds) {
    const handoff = handoffs.find((r) => r.project_id === projectId);
    const latest = newest.find((r) => r.project_id === projectId);
    if (handoff && !mine(handoff) && (!latest || handoff.at >= latest.at)) {
      found.push({ ...work(handoff, 'handoff'), handoffId: handoff.handoff_id! });
      continue;
    }
    if (!latest || mine(latest)) continue;
    if (latest.ended_at !== null && latest.open_tasks === 0) continue;
    const limited = /usage.?limit/i.test(latest.end_reason ?? '');
    found.push(work(latest, limited ? 'usage_limit' : 'interrupted'));
  }
  return found;
}

/** A team handoff restored on some machine: nobody else is offered it again. */
export async function pickUpHandoff(
  db: Queryable,
  handoffId: string,
  bySession: string,
  at: string,
): Promise<void> {
  await db.query(
    `UPDATE shim_handoffs SET picked_up_at = $1, picked_up_by = $2
    WHERE id = $3 AND picked_up_at IS NULL`,
    [at, bySession, handoffId],
  );
}
