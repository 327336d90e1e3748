/**
 * The team repository on PostgreSQL (Kysely over pg): a batch is one transaction of multi-row
 * inserts per kind (team-row-writes.ts), idempotent by id, so a batch sent twice — a worker killed
 * after the commit — changes nothing. A batch the server refuses for good (a value it cannot
 * store: SQLSTATE classes 22 and 54) is written again row by row, each in its own transaction, and
 * the rows it refuses come back to be set aside; a server that cannot be reached throws. Reads
 * are team-queries.ts's.
 * @module
 */
import { sql } from 'kysely';
import type {
  FilePatch,
  RefusedRow,
  TeamCheckpoint,
  TeamLoopRunSummary,
  TeamReadScope,
  TeamRepository,
  TeamRow,
  TeamRowKind,
  TeamSearchHit,
  TeamSessionSummary,
  TeamWorkFound,
} from '../ports/team-repository.ts';
import { queryableOf, type TeamDatabase } from './team-database.ts';
import { toTeamError, withTeamErrors } from './team-errors.ts';
import * as pulls from './team-pull-queries.ts';
import * as queries from './team-queries.ts';
import { KINDS, lastById, TABLE, writeKind } from './team-row-writes.ts';

export { openTaskCount } from './team-row-writes.ts';

/**
 * A refusal that sending again will not change: a data exception (22…: a value PostgreSQL cannot
 * take) or a program limit (54…: a tsvector or row too large).
 */
function isRefusedForGood(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && /^(22|54)/.test(code);
}

export class PostgresTeamRepository implements TeamRepository {
  readonly #db: TeamDatabase;
  readonly #url: string;

  constructor(db: TeamDatabase, url: string) {
    this.#db = db;
    this.#url = url;
  }

  #run<T>(work: () => Promise<T>): Promise<T> {
    return withTeamErrors(this.#url, work);
  }

  async #writeAll(rows: readonly TeamRow[]): Promise<void> {
    await this.#db.transaction().execute(async (tx) => {
      for (const kind of KINDS) {
        const ofKind = lastById(rows.filter((r) => r.kind === kind));
        if (ofKind.length > 0) await writeKind(tx, kind, ofKind);
      }
    });
  }

  async write(rows: readonly TeamRow[]): Promise<{ refused: RefusedRow[] }> {
    if (rows.length === 0) return { refused: [] };
    try {
      await this.#writeAll(rows);
      return { refused: [] };
    } catch (error) {
      if (!isRefusedForGood(error)) throw toTeamError(error, this.#url);
    }
    // One row refuses: each alone, so the others go and only it is set aside.
    const refused: RefusedRow[] = [];
    for (const row of rows) {
      try {
        await this.#writeAll([row]);
      } catch (error) {
        if (!isRefusedForGood(error)) throw toTeamError(error, this.#url);
        const reason = String((error as Error).message ?? error).split('\n')[0]!;
        refused.push({ kind: row.kind, id: row.id, reason: reason.slice(0, 300) });
      }
    }
    return { refused };
  }

  newestUnfinished(
    projectIds: readonly string[],
    exclude: { machine: string; osUser: string },
    since: string,
  ): Promise<TeamWorkFound[]> {
    return this.#run(() =>
      pulls.newestUnfinished(queryableOf(this.#db), projectIds, exclude, since),
    );
  }

  listSessions(scope: TeamReadScope): Promise<TeamSessionSummary[]> {
    return this.#run(() => queries.listSessions(this.#db, scope));
  }

  listCheckpoints(
    scope: TeamReadScope,
    exclude: { machine: string; osUser: string } | null,
  ): Promise<TeamCheckpoint[]> {
    return this.#run(() => queries.listCheckpoints(this.#db, scope, exclude));
  }

  findCheckpoint(idOrPrefix: string, scope: TeamReadScope): Promise<TeamCheckpoint[]> {
    return this.#run(() => queries.findCheckpoint(this.#db, idOrPrefix, scope));
  }

  findSessionCheckpoint(
    sessionIdOrPrefix: string,
    scope: TeamReadScope,
  ): Promise<TeamCheckpoint[]> {
    return this.#run(() => queries.findSessionCheckpoint(this.#db, sessionIdOrPrefix, scope));
  }

  listLoopRuns(scope: TeamReadScope): Promise<TeamLoopRunSummary[]> {
    return this.#run(() => queries.listLoopRuns(this.#db, scope));
  }

  search(query: string, scope: TeamReadScope): Promise<TeamSearchHit[]> {
    return this.#run(() => queries.search(this.#db, query, scope));
  }

  filePatch(checkpointId: string): Promise<FilePatch | null> {
    return this.#run(() => queries.filePatch(this.#db, checkpointId));
  }

  async pickUpHandoff(handoffId: string, bySession: string, at: string): Promise<void> {
    await this.#run(() => pulls.pickUpHandoff(queryableOf(this.#db), handoffId, bySession, at));
  }

  /** Every row of the session, in one transaction: its checkpoints' files, summaries, handoffs… */
  forgetSession(sessionId: string): Promise<Record<string, number>> {
    return this.#run(() =>
      this.#db.transaction().execute(async (tx) => {
        const removed: Record<string, number> = {};
        const checkpointIds = tx
          .selectFrom('shim_checkpoints')
          .select('id')
          .where('session_id', '=', sessionId);
        const handoffs = await tx
          .deleteFrom('shim_handoffs')
          .where((eb) =>
            eb.or([eb('session_id', '=', sessionId), eb('checkpoint_id', 'in', checkpointIds)]),
          )
          .executeTakeFirst();
        removed.shim_handoffs = Number(handoffs.numDeletedRows);
        for (const table of [
          'shim_file_patches',
          'shim_compaction_summaries',
          'shim_loop_events',
          'shim_loop_runs',
          'shim_checkpoints',
        ] as const) {
          const result = await tx
            .deleteFrom(table as 'shim_loop_events')
            .where('session_id', '=', sessionId)
            .executeTakeFirst();
          removed[table] = Number(result.numDeletedRows);
        }
        const session = await tx
          .deleteFrom('shim_sessions')
          .where('session_id', '=', sessionId)
          .executeTakeFirst();
        removed.shim_sessions = Number(session.numDeletedRows);
        return removed;
      }),
    );
  }

  forgetCheckpoint(checkpointId: string): Promise<Record<string, number>> {
    return this.#run(() =>
      this.#db.transaction().execute(async (tx) => {
        const removed: Record<string, number> = {};
        const deleted = async (
          name: string,
          query: { executeTakeFirst(): Promise<{ numDeletedRows: bigint }> },
        ) => {
          removed[name] = Number((await query.executeTakeFirst()).numDeletedRows);
        };
        await deleted(
          'shim_handoffs',
          tx.deleteFrom('shim_handoffs').where('checkpoint_id', '=', checkpointId),
        );
        await deleted(
          'shim_file_patches',
          tx.deleteFrom('shim_file_patches').where('checkpoint_id', '=', checkpointId),
        );
        // A summary names its checkpoint only inside its body (the local row's column).
        await deleted(
          'shim_compaction_summaries',
          tx
            .deleteFrom('shim_compaction_summaries')
            .where(sql<string>`body->>'checkpointId'`, '=', checkpointId),
        );
        await deleted(
          'shim_checkpoints',
          tx.deleteFrom('shim_checkpoints').where('id', '=', checkpointId),
        );
        return removed;
      }),
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
