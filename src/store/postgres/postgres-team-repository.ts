/**
 * The team repository on PostgreSQL (Kysely over pg). Writes are one transaction per batch,
 * grouped by kind into multi-row inserts: a row already there is kept (checkpoints, summaries,
 * events never change) or replaced by a newer version (sessions, handoffs, loop runs: `at`
 * decides), so a batch sent twice — a worker killed after the commit — changes nothing.
 * About 450 lines: the TeamRepository contract's writes and reads for one dialect, one class.
 * @module
 */
import { sql, type Transaction } from 'kysely';
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import { isOpenTaskStatus } from '../../core/checkpoint/checkpoint.ts';
import { SEARCH_FIELDS, toSearchDocument } from '../../core/checkpoint/search-query.ts';
import type {
  TeamLoopRunSummary,
  TeamReadScope,
  TeamRepository,
  TeamRow,
  TeamRowKind,
  TeamSearchHit,
  TeamSessionSummary,
  TeamWorkFound,
} from '../team/team-repository.ts';
import { fullTextMatches, fullTextQuery, fullTextRank, fullTextSnippet } from './dialect.ts';
import type { TeamDatabase } from './team-database.ts';
import { toTeamError } from './team-errors.ts';
import type { TeamTables } from './team-tables.ts';

/** Words around a search hit's best match (as the local search's snippet). */
const SNIPPET_WORDS = 16;

const TABLE: Record<TeamRowKind, keyof TeamTables> = {
  session: 'shim_sessions',
  checkpoint: 'shim_checkpoints',
  handoff: 'shim_handoffs',
  compaction_summary: 'shim_compaction_summaries',
  loop_run: 'shim_loop_runs',
  loop_event: 'shim_loop_events',
};

const origin = (r: TeamRow) => ({
  project_id: r.origin.projectId,
  project_path: r.origin.projectPath,
  machine: r.origin.machine,
  os_user: r.origin.osUser,
});

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The last version of each id (one statement may not touch a row twice). */
function lastById(rows: readonly TeamRow[]): TeamRow[] {
  const byId = new Map<string, TeamRow>();
  for (const r of rows) {
    const seen = byId.get(r.id);
    if (!seen || seen.at <= r.at) byId.set(r.id, r);
  }
  return [...byId.values()];
}

export function openTaskCount(c: Checkpoint): number {
  return c.taskState.items.filter((i) => isOpenTaskStatus(i.status)).length;
}

async function writeKind(
  tx: Transaction<TeamTables>,
  kind: TeamRowKind,
  rows: TeamRow[],
): Promise<void> {
  const json = (r: TeamRow) => JSON.stringify(r.body);
  switch (kind) {
    case 'session':
      await tx
        .insertInto('shim_sessions')
        .values(
          rows.map((r) => ({
            session_id: r.id,
            at: r.at,
            cwd: str(r.body.cwd),
            ended_at: str(r.body.endedAt),
            end_reason: str(r.body.endReason),
            body: json(r),
            ...origin(r),
          })),
        )
        .onConflict((oc) =>
          oc
            .column('session_id')
            .doUpdateSet((eb) => ({
              at: eb.ref('excluded.at'),
              cwd: eb.ref('excluded.cwd'),
              ended_at: eb.ref('excluded.ended_at'),
              end_reason: eb.ref('excluded.end_reason'),
              body: eb.ref('excluded.body'),
            }))
            .where('shim_sessions.at', '<=', eb_at()),
        )
        .execute();
      return;
    case 'checkpoint':
      await tx
        .insertInto('shim_checkpoints')
        .values(
          rows.map((r) => {
            const c = r.body as unknown as Checkpoint;
            const doc = toSearchDocument(c);
            return {
              id: r.id,
              session_id: c.sessionId,
              checkpoint_number: c.checkpointNumber,
              at: r.at,
              triggered_by: c.triggeredBy,
              open_tasks: openTaskCount(c),
              search_text: SEARCH_FIELDS.map((f) => doc[f]).join('\n'),
              body: json(r),
              ...origin(r),
            };
          }),
        )
        // A checkpoint's content changes only when it is redacted again (its session learned a
        // secret later: app/checkpoint/redact-stored-session.ts); the redacted body replaces the old one.
        .onConflict((oc) =>
          oc.column('id').doUpdateSet((eb) => ({
            open_tasks: eb.ref('excluded.open_tasks'),
            search_text: eb.ref('excluded.search_text'),
            body: eb.ref('excluded.body'),
          })),
        )
        .execute();
      return;
    case 'handoff':
      await tx
        .insertInto('shim_handoffs')
        .values(
          rows.map((r) => ({
            id: r.id,
            session_id: r.sessionId,
            checkpoint_id: String(r.body.checkpointId ?? ''),
            at: r.at,
            for_team: r.body.forTeam === true,
            body: json(r),
            ...origin(r),
          })),
        )
        // A pick-up recorded on the server stays: only the body and the team flag follow.
        .onConflict((oc) =>
          oc.column('id').doUpdateSet((eb) => ({
            for_team: eb.ref('excluded.for_team'),
            body: eb.ref('excluded.body'),
          })),
        )
        .execute();
      return;
    case 'loop_run':
      await tx
        .insertInto('shim_loop_runs')
        .values(
          rows.map((r) => ({
            id: r.id,
            session_id: r.sessionId,
            at: r.at,
            status: str(r.body.status),
            body: json(r),
            ...origin(r),
          })),
        )
        .onConflict((oc) =>
          oc
            .column('id')
            .doUpdateSet((eb) => ({
              at: eb.ref('excluded.at'),
              status: eb.ref('excluded.status'),
              body: eb.ref('excluded.body'),
            }))
            .where('shim_loop_runs.at', '<=', eb_at()),
        )
        .execute();
      return;
    case 'compaction_summary':
    case 'loop_event':
      await tx
        .insertInto(TABLE[kind] as 'shim_loop_events')
        .values(
          rows.map((r) => ({
            id: r.id,
            session_id: r.sessionId,
            at: r.at,
            body: json(r),
            ...origin(r),
          })),
        )
        // A summary changes only when it is redacted again (its session learned a secret later:
        // app/checkpoint/redact-stored-session.ts): the new body replaces the old. Events never change.
        .onConflict((oc) =>
          kind === 'compaction_summary'
            ? oc.column('id').doUpdateSet((eb) => ({ body: eb.ref('excluded.body') }))
            : oc.column('id').doNothing(),
        )
        .execute();
      return;
  }
}

/** `excluded.at` for the newer-version guard. */
function eb_at() {
  return sql<Date>`excluded.at`;
}

type Found = {
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

export class PostgresTeamRepository implements TeamRepository {
  readonly #db: TeamDatabase;
  readonly #url: string;

  constructor(db: TeamDatabase, url: string) {
    this.#db = db;
    this.#url = url;
  }

  async #run<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw toTeamError(error, this.#url);
    }
  }

  async write(rows: readonly TeamRow[]): Promise<void> {
    if (rows.length === 0) return;
    const kinds: TeamRowKind[] = [
      'session',
      'checkpoint',
      'handoff',
      'compaction_summary',
      'loop_run',
      'loop_event',
    ];
    await this.#run(() =>
      this.#db.transaction().execute(async (tx) => {
        for (const kind of kinds) {
          const ofKind = lastById(rows.filter((r) => r.kind === kind));
          if (ofKind.length > 0) await writeKind(tx, kind, ofKind);
        }
      }),
    );
  }

  async newestUnfinished(
    projectIds: readonly string[],
    exclude: { machine: string; osUser: string },
    since: string,
  ): Promise<TeamWorkFound[]> {
    if (projectIds.length === 0) return [];
    const ids = [...projectIds];
    return this.#run(async () => {
      // The newest checkpoint per project, whoever wrote it: work newer than it is nobody's.
      const newest = await sql<Found>`
        SELECT DISTINCT ON (c.project_id) c.project_id, c.id, c.session_id, c.machine, c.os_user,
          c.at, c.body, c.open_tasks, s.ended_at, s.end_reason
        FROM shim_checkpoints c LEFT JOIN shim_sessions s ON s.session_id = c.session_id
        WHERE c.project_id = ANY(${ids}) AND c.at >= ${since}
        ORDER BY c.project_id, c.at DESC, c.checkpoint_number DESC`.execute(this.#db);
      const handoffs = await sql<Found & { handoff_id: string }>`
        SELECT DISTINCT ON (h.project_id) h.project_id, h.id AS handoff_id, c.id, c.session_id,
          h.machine, h.os_user, h.at, c.body, c.open_tasks, NULL AS ended_at, NULL AS end_reason
        FROM shim_handoffs h JOIN shim_checkpoints c ON c.id = h.checkpoint_id
        WHERE h.project_id = ANY(${ids}) AND h.for_team AND h.picked_up_at IS NULL AND h.at >= ${since}
        ORDER BY h.project_id, h.at DESC`.execute(this.#db);
      const found: TeamWorkFound[] = [];
      const mine = (r: Found) => r.machine === exclude.machine && r.os_user === exclude.osUser;
      for (const projectId of ids) {
        const handoff = handoffs.rows.find((r) => r.project_id === projectId);
        const latest = newest.rows.find((r) => r.project_id === projectId);
        if (handoff && !mine(handoff) && (!latest || handoff.at >= latest.at)) {
          found.push({ ...toFound(handoff, 'handoff'), handoffId: handoff.handoff_id });
          continue;
        }
        if (!latest || mine(latest)) continue;
        const endedCleanly = latest.ended_at !== null && latest.open_tasks === 0;
        if (endedCleanly) continue;
        const limited = /usage.?limit/i.test(latest.end_reason ?? '');
        found.push(toFound(latest, limited ? 'usage_limit' : 'interrupted'));
      }
      return found;
    });
  }

  async listSessions(scope: TeamReadScope): Promise<TeamSessionSummary[]> {
    if (scope.projectIds.length === 0) return [];
    const rows = await this.#run(() =>
      sql<{
        session_id: string;
        project_id: string;
        machine: string;
        os_user: string;
        cwd: string | null;
        last_at: Date | null;
        checkpoints: string;
        open_tasks: number | null;
        ended_at: Date | null;
        first_request: string | null;
      }>`
        SELECT s.session_id, s.project_id, s.machine, s.os_user, s.cwd, s.ended_at,
          MAX(c.at) AS last_at, COUNT(c.id) AS checkpoints,
          (ARRAY_AGG(c.open_tasks ORDER BY c.at DESC))[1] AS open_tasks,
          (ARRAY_AGG(c.body->'conversationState'->'userRequests'->>0 ORDER BY c.at DESC))[1] AS first_request
        FROM shim_sessions s LEFT JOIN shim_checkpoints c ON c.session_id = s.session_id
        WHERE s.project_id = ANY(${[...scope.projectIds]})
          ${scope.osUser !== undefined ? sql`AND s.os_user = ${scope.osUser}` : sql``}
        GROUP BY s.session_id
        ORDER BY COALESCE(MAX(c.at), s.at) DESC
        LIMIT ${scope.limit}`.execute(this.#db),
    );
    return rows.rows.map((r) => ({
      sessionId: r.session_id,
      projectId: r.project_id,
      machine: r.machine,
      osUser: r.os_user,
      cwd: r.cwd,
      lastCheckpointAt: r.last_at ? new Date(r.last_at).toISOString() : null,
      checkpoints: Number(r.checkpoints),
      openTasks: Number(r.open_tasks ?? 0),
      endedAt: r.ended_at ? new Date(r.ended_at).toISOString() : null,
      firstRequest: r.first_request,
    }));
  }

  async listLoopRuns(scope: TeamReadScope): Promise<TeamLoopRunSummary[]> {
    if (scope.projectIds.length === 0) return [];
    const rows = await this.#run(() =>
      sql<{
        id: string;
        project_id: string;
        machine: string;
        os_user: string;
        at: Date;
        status: string | null;
        body: Record<string, unknown>;
      }>`
        SELECT id, project_id, machine, os_user, at, status, body FROM shim_loop_runs
        WHERE project_id = ANY(${[...scope.projectIds]})
          ${scope.osUser !== undefined ? sql`AND os_user = ${scope.osUser}` : sql``}
        ORDER BY at DESC
        LIMIT ${scope.limit}`.execute(this.#db),
    );
    const text = (v: unknown) => (typeof v === 'string' ? v : null);
    return rows.rows.map((r) => ({
      runId: r.id,
      projectId: r.project_id,
      machine: r.machine,
      osUser: r.os_user,
      cwd: text(r.body.cwd),
      goal: text(r.body.goal) ?? '',
      status: r.status ?? text(r.body.status) ?? 'unknown',
      iteration: Number(r.body.iteration ?? 0),
      restarts: Number(r.body.restarts ?? 0),
      costUsd: Number(r.body.cost_usd ?? 0),
      lastEvent: text(r.body.last_event),
      createdAt: text(r.body.created_at),
      updatedAt: new Date(r.at).toISOString(),
    }));
  }

  async search(query: string, scope: TeamReadScope): Promise<TeamSearchHit[]> {
    if (scope.projectIds.length === 0 || query.trim() === '') return [];
    const rows = await this.#run(() =>
      sql<{
        id: string;
        session_id: string;
        project_id: string;
        machine: string;
        os_user: string;
        at: Date;
        rank: number;
        snippet: string;
      }>`
        SELECT DISTINCT ON (rank_order.session_id) * FROM (
          SELECT c.id, c.session_id, c.project_id, c.machine, c.os_user, c.at,
            ${fullTextRank('c.search', 'q')} AS rank,
            ${fullTextSnippet('c.search_text', 'q', SNIPPET_WORDS)} AS snippet
          FROM shim_checkpoints c, ${fullTextQuery(query)} q
          WHERE ${fullTextMatches('c.search', 'q')} AND c.project_id = ANY(${[...scope.projectIds]})
            ${scope.osUser !== undefined ? sql`AND c.os_user = ${scope.osUser}` : sql``}
        ) rank_order
        ORDER BY rank_order.session_id, rank_order.rank DESC, rank_order.at DESC`.execute(this.#db),
    );
    return rows.rows
      .map((r) => ({
        checkpointId: r.id,
        sessionId: r.session_id,
        projectId: r.project_id,
        machine: r.machine,
        osUser: r.os_user,
        createdAt: new Date(r.at).toISOString(),
        rank: Number(r.rank),
        snippet: r.snippet.replace(/\s+/g, ' ').trim(),
      }))
      .sort((a, b) => b.rank - a.rank || b.createdAt.localeCompare(a.createdAt))
      .slice(0, scope.limit);
  }

  async pickUpHandoff(handoffId: string, bySession: string, at: string): Promise<void> {
    await this.#run(() =>
      this.#db
        .updateTable('shim_handoffs')
        .set({ picked_up_at: at, picked_up_by: bySession })
        .where('id', '=', handoffId)
        .where('picked_up_at', 'is', null)
        .execute(),
    );
  }

  async applyRetention(days: number): Promise<number> {
    const before = new Date(Date.now() - days * 86_400_000);
    return this.#run(() =>
      this.#db.transaction().execute(async (tx) => {
        let deleted = 0;
        for (const table of Object.values(TABLE)) {
          const result = await tx
            .deleteFrom(table as 'shim_loop_events')
            .where('at', '<', before)
            .executeTakeFirst();
          deleted += Number(result.numDeletedRows);
        }
        return deleted;
      }),
    );
  }

  async count(kind: TeamRowKind): Promise<number> {
    const row = await this.#run(() =>
      this.#db
        .selectFrom(TABLE[kind] as 'shim_loop_events')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirst(),
    );
    return Number(row?.n ?? 0);
  }

  async canWrite(): Promise<boolean> {
    const row = await this.#run(() =>
      sql<{ ok: boolean }>`
        SELECT bool_and(has_table_privilege(t, 'INSERT') AND has_table_privilege(t, 'UPDATE')) AS ok
        FROM unnest(${Object.values(TABLE)}::text[]) AS t`.execute(this.#db),
    );
    return row.rows[0]?.ok === true;
  }

  async close(): Promise<void> {
    await this.#db.destroy();
  }
}

function toFound(r: Found, reason: TeamWorkFound['reason']): TeamWorkFound {
  return {
    projectId: r.project_id,
    checkpoint: r.body as unknown as Checkpoint,
    sessionId: r.session_id,
    machine: r.machine,
    osUser: r.os_user,
    createdAt: new Date(r.at).toISOString(),
    reason,
  };
}
