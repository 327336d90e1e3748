/**
 * One kind of replicated row written to the team store in one multi-row statement: a row already
 * there is kept (events, file patches never change), replaced by a newer version (sessions, loop
 * runs: `at` decides; handoffs keep a pick-up the server recorded), or replaced by its version
 * redacted again (checkpoints, summaries: their session learned a secret later).
 * Every string is escaped on the way (text-escape.ts: PostgreSQL takes no U+0000); a checkpoint's
 * search text is capped below the tsvector's limit. A session keeps only its newest file patch.
 * @module
 */
import { sql, type Transaction } from 'kysely';
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import { isOpenTaskStatus } from '../../core/checkpoint/checkpoint.ts';
import { SEARCH_FIELDS, toSearchDocument } from '../../core/checkpoint/search-query.ts';
import { replaceRoot } from '../../core/team/rebase-checkpoint.ts';
import type { TeamRow, TeamRowKind } from '../ports/team-repository.ts';
import type { TeamTables } from './team-tables.ts';
import { escapeText, escapeValue } from './text-escape.ts';

/** What a tsvector is built from stays well under its 1 MB limit (SQLSTATE 54000 past it). */
const SEARCH_TEXT_CHARS = 256_000;

export const TABLE: Record<TeamRowKind, keyof TeamTables> = {
  session: 'shim_sessions',
  checkpoint: 'shim_checkpoints',
  handoff: 'shim_handoffs',
  compaction_summary: 'shim_compaction_summaries',
  loop_run: 'shim_loop_runs',
  loop_event: 'shim_loop_events',
  file_patch: 'shim_file_patches',
};

/** Written in this order in a batch: a session before its checkpoints, a checkpoint before its files. */
export const KINDS: readonly TeamRowKind[] = [
  'session',
  'checkpoint',
  'handoff',
  'compaction_summary',
  'loop_run',
  'loop_event',
  'file_patch',
];

const origin = (r: TeamRow) => ({
  project_id: escapeText(r.origin.projectId),
  project_path: escapeText(r.origin.projectPath),
  machine: escapeText(r.origin.machine),
  os_user: escapeText(r.origin.osUser),
});

const str = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' ? escapeText(v) : null;
const json = (r: TeamRow) => JSON.stringify(escapeValue(r.body));
/** `excluded.at`, for the newer-version guards. */
const excludedAt = () => sql<Date>`excluded.at`;

export function openTaskCount(c: Checkpoint): number {
  return c.taskState.items.filter((i) => isOpenTaskStatus(i.status)).length;
}

/** The last version of each id (one statement may not touch a row twice). */
export function lastById(rows: readonly TeamRow[]): TeamRow[] {
  const byId = new Map<string, TeamRow>();
  for (const r of rows) {
    const seen = byId.get(r.id);
    if (!seen || seen.at <= r.at) byId.set(r.id, r);
  }
  return [...byId.values()];
}

/** What a checkpoint is found by: its searchable fields, the clone's root taken out of its paths. */
function searchText(c: Checkpoint): string {
  const doc = toSearchDocument(c);
  const root = (c.fileState.repoRoot ?? c.source.cwd ?? '').replace(/\/+$/, '');
  let text = SEARCH_FIELDS.map((f) => doc[f]).join('\n');
  if (root.length > 1) text = replaceRoot(text, root, '.');
  return escapeText(text.slice(0, SEARCH_TEXT_CHARS));
}

export async function writeKind(
  tx: Transaction<TeamTables>,
  kind: TeamRowKind,
  rows: TeamRow[],
): Promise<void> {
  switch (kind) {
    case 'session':
      await tx
        .insertInto('shim_sessions')
        .values(
          rows.map((r) => ({
            session_id: escapeText(r.id),
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
            .where('shim_sessions.at', '<=', excludedAt()),
        )
        .execute();
      return;
    case 'checkpoint':
      await tx
        .insertInto('shim_checkpoints')
        .values(
          rows.map((r) => {
            const c = r.body as unknown as Checkpoint;
            return {
              id: escapeText(r.id),
              session_id: escapeText(c.sessionId),
              checkpoint_number: c.checkpointNumber,
              at: r.at,
              triggered_by: escapeText(c.triggeredBy),
              open_tasks: openTaskCount(c),
              search_text: searchText(c),
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
            id: escapeText(r.id),
            session_id: r.sessionId === null ? null : escapeText(r.sessionId),
            checkpoint_id: escapeText(String(r.body.checkpointId ?? '')),
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
            id: escapeText(r.id),
            session_id: r.sessionId === null ? null : escapeText(r.sessionId),
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
            .where('shim_loop_runs.at', '<=', excludedAt()),
        )
        .execute();
      return;
    case 'compaction_summary':
    case 'loop_event':
      await tx
        .insertInto(TABLE[kind] as 'shim_loop_events')
        .values(
          rows.map((r) => ({
            id: escapeText(r.id),
            session_id: r.sessionId === null ? null : escapeText(r.sessionId),
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
    case 'file_patch':
      await tx
        .insertInto('shim_file_patches')
        .values(
          rows.map((r) => ({
            checkpoint_id: escapeText(r.id),
            session_id: escapeText(r.sessionId ?? ''),
            at: r.at,
            base_commit: str(r.body.baseCommit),
            snapshot_commit: escapeText(String(r.body.snapshotCommit ?? '')),
            patch: escapeText(String(r.body.patch ?? '')),
            bytes: Number(r.body.bytes ?? 0),
            ...origin(r),
          })),
        )
        .onConflict((oc) => oc.column('checkpoint_id').doNothing())
        .execute();
      // Only the newest checkpoint's files of a session travel: older ones are superseded.
      for (const r of rows)
        await tx
          .deleteFrom('shim_file_patches')
          .where('session_id', '=', escapeText(r.sessionId ?? ''))
          .where('at', '<', new Date(r.at))
          .execute();
      return;
  }
}
