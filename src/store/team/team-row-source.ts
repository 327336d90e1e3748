/**
 * Reads the local rows the team outbox names, as the domain objects the team store keeps:
 * a checkpoint whole (decompressed), a session, a handoff with its document, a compaction
 * summary, a loop run (its options parsed), a loop event. A row deleted since it was queued
 * (gc, purge) reads as null: there is nothing left to send.
 * @module
 */
import { readFileSync } from 'node:fs';
import { CheckpointRepository } from '../checkpoints/checkpoint-repository.ts';
import type { Database } from '../sqlite/database.ts';
import { SessionRepository } from '../checkpoints/session-repository.ts';
import type { TeamRowKind } from '../ports/team-repository.ts';
import type { TeamRowBodies, LocalRow } from '../ports/team-rows.ts';

const parse = (text: unknown): unknown => {
  if (typeof text !== 'string') return text ?? null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

/** A handoff document is read from its file; one that cannot be read leaves the row without it. */
function readDocument(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').slice(0, 200_000);
  } catch {
    return null;
  }
}

export class TeamRowSource implements TeamRowBodies {
  readonly #db: Database;
  readonly #checkpoints: CheckpointRepository;
  readonly #sessions: SessionRepository;

  constructor(db: Database) {
    this.#db = db;
    this.#checkpoints = new CheckpointRepository(db);
    this.#sessions = new SessionRepository(db);
  }

  read(kind: TeamRowKind, id: string): LocalRow | null {
    switch (kind) {
      case 'checkpoint': {
        const c = this.#checkpoints.getById(id);
        return c
          ? {
              body: c as unknown as Record<string, unknown>,
              cwd: c.fileState.repoRoot ?? c.source.cwd,
            }
          : null;
      }
      case 'session': {
        const s = this.#sessions.get(id);
        return s ? { body: s as unknown as Record<string, unknown>, cwd: s.cwd } : null;
      }
      case 'handoff': {
        const row = this.#db
          .prepare(
            `SELECT h.*, c.cwd AS checkpoint_cwd FROM handoffs h LEFT JOIN checkpoints c ON c.id = h.checkpoint_id
             WHERE h.id = ?`,
          )
          .get(id) as Record<string, unknown> | undefined;
        if (!row) return null;
        return {
          body: {
            id: row.id,
            checkpointId: row.checkpoint_id,
            sessionId: row.session_id,
            kind: row.kind,
            forTeam: row.kind === 'team',
            createdAt: row.created_at,
            pickedUpAt: row.picked_up_at,
            document: readDocument(String(row.path)),
          },
          cwd: (row.project as string | null) ?? (row.checkpoint_cwd as string | null),
        };
      }
      case 'compaction_summary': {
        const row = this.#db
          .prepare(
            `SELECT s.*, c.cwd FROM compaction_summaries s LEFT JOIN checkpoints c ON c.id = s.checkpoint_id
             WHERE s.id = ?`,
          )
          .get(id) as Record<string, unknown> | undefined;
        if (!row) return null;
        const session = this.#sessions.get(String(row.session_id));
        return {
          body: {
            id: row.id,
            sessionId: row.session_id,
            recordedAt: row.recorded_at,
            trigger: row.trigger,
            summary: row.summary,
            checkpointId: row.checkpoint_id,
          },
          cwd: (row.cwd as string | null) ?? session?.cwd ?? null,
        };
      }
      case 'loop_run': {
        const row = this.#db.prepare('SELECT * FROM loop_runs WHERE run_id = ?').get(id) as
          Record<string, unknown> | undefined;
        if (!row) return null;
        const body: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(row))
          body[key] = key === 'options' || key === 'state' ? parse(value) : value;
        return { body, cwd: String(row.cwd) };
      }
      case 'file_patch':
        // Made from a checkpoint's snapshot as it is sent (app/team/replicate.ts), never queued.
        return null;
      case 'loop_event': {
        const at = id.lastIndexOf(':');
        const row = this.#db
          .prepare(
            `SELECT e.*, r.cwd FROM loop_events e JOIN loop_runs r ON r.run_id = e.run_id
             WHERE e.run_id = ? AND e.seq = ?`,
          )
          .get(id.slice(0, at), Number(id.slice(at + 1))) as Record<string, unknown> | undefined;
        if (!row) return null;
        return {
          body: {
            runId: row.run_id,
            seq: row.seq,
            at: row.at,
            name: row.name,
            iteration: row.iteration,
            data: parse(row.data),
          },
          cwd: String(row.cwd),
        };
      }
    }
  }
}
