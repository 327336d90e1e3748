/**
 * Replication to the team store through the sync outbox (docs/team.md, "Replication"): queue what
 * is new since the marks, then send what waits in batches — each batch one transaction on the
 * server, idempotent by id — and mark them delivered. Every row is redacted once more before it
 * leaves (it was at capture; a rule added since still applies) and carries the project as every
 * machine names it, the machine and the OS user; the newest checkpoint of a session in a batch
 * takes its uncommitted files along (capture/snapshot-patch.ts). A row the server refuses for
 * good is set aside with one line (never retried); while the server is down everything waits.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { identifyProject } from '../../capture/project-remote.ts';
import { snapshotPatch } from '../../capture/snapshot-patch.ts';
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import { redactText, redactValue } from '../../redact/redact.ts';
import { appendLog } from '../../store/home/log.ts';
import type { TeamEntry } from '../../store/ports/team-queue.ts';
import type { RowOrigin, TeamRepository, TeamRow } from '../../store/ports/team-repository.ts';
import type { CommandStore } from '../open-command-store.ts';
import type { Writer } from './team-settings.ts';

export type ReplicateOptions = {
  /** The rows waiting for the team store, and where they are read from. */
  store: Pick<CommandStore, 'teamQueue' | 'teamRows'>;
  home: string;
  repository: TeamRepository;
  writer: Writer;
  now?: () => Date;
  batchSize?: number;
  leaseMs?: number;
  /** Wait before the next attempt after a failed batch (ms). */
  retryMs?: (attempts: number) => number;
  onProgress?: (line: string) => void;
  /** Called after each batch is written and before it is marked (the soak test kills here). */
  afterWrite?: (rows: number) => void;
};

export type ReplicateResult = {
  sent: number;
  gone: number;
  /** Refused by the server for good: set aside, never retried. */
  setAside: number;
  waiting: number;
  error: string | null;
};

/** Rows per batch and bytes per batch (claude-mem's sync: ≤ 500 ops, ≤ 4 MB). */
export const TEAM_BATCH_ROWS = 200;
export const TEAM_BATCH_BYTES = 4 * 1024 * 1024;

/**
 * 30 s, 1 min, 2 min … capped at 10 minutes between tries while the server does not answer
 * (claude-mem's sync: 30 s → 10 min). SHIM_TEAM_RETRY_MS sets the first wait (the tests' seconds).
 */
export function teamRetryFor(
  env: Readonly<Record<string, string | undefined>>,
): (attempts: number) => number {
  const first = Number(env.SHIM_TEAM_RETRY_MS);
  const base = Number.isFinite(first) && first > 0 ? first : 30_000;
  return (attempts) => Math.min(Math.max(base, 600_000), base * 2 ** Math.max(0, attempts - 1));
}

export const teamRetry = teamRetryFor({});

/** The origin of rows from a directory: the project's identity is read once per directory. */
function originOf(writer: Writer): (cwd: string | null) => RowOrigin {
  const seen = new Map<string, RowOrigin>();
  return (cwd) => {
    const key = cwd ?? '';
    let origin = seen.get(key);
    if (!origin) {
      const project = cwd
        ? identifyProject(cwd, { SHIM_MACHINE: writer.machine })
        : { id: `path:${writer.machine}:unknown`, pathInRepo: '' };
      origin = { projectId: project.id, projectPath: project.pathInRepo, ...writer };
      seen.set(key, origin);
    }
    return origin;
  };
}

/** The files of the newest checkpoint with a snapshot of each session in `rows`, as rows. */
async function filePatchRows(rows: readonly TeamRow[]): Promise<TeamRow[]> {
  const newest = new Map<string, TeamRow>();
  for (const row of rows) {
    const c = row.body as unknown as Checkpoint;
    if (row.kind !== 'checkpoint' || !c.fileState?.snapshot || !c.fileState.repoRoot) continue;
    const seen = newest.get(c.sessionId);
    if (!seen || seen.at <= row.at) newest.set(c.sessionId, row);
  }
  const patches: TeamRow[] = [];
  for (const row of newest.values()) {
    const c = row.body as unknown as Checkpoint;
    const snapshot = c.fileState.snapshot!;
    const made = snapshotPatch(c.fileState.repoRoot!, snapshot);
    if (made.kind === 'none') continue;
    const patch = made.kind === 'patch' ? (await redactText(made.patch)).text : '';
    patches.push({
      ...row,
      kind: 'file_patch',
      body: {
        baseCommit: made.baseCommit,
        snapshotCommit: snapshot.commit,
        patch,
        // A patch that did not travel for its size keeps its size, to say so on the other side.
        bytes: made.bytes,
      },
    });
  }
  return patches;
}

/** The rows of a claimed batch, up to TEAM_BATCH_BYTES; what did not fit goes back unsent. */
async function readBatch(
  batch: readonly TeamEntry[],
  options: ReplicateOptions,
  origin: (cwd: string | null) => RowOrigin,
): Promise<{ rows: TeamRow[]; sent: TeamEntry[]; gone: number[]; later: number[] }> {
  const rows: TeamRow[] = [];
  const sent: TeamEntry[] = [];
  const gone: number[] = [];
  const later: number[] = [];
  let bytes = 0;
  let redactions = 0;
  for (const entry of batch) {
    if (bytes >= TEAM_BATCH_BYTES) {
      later.push(entry.outboxId);
      continue;
    }
    const local = options.store.teamRows.read(entry.kind, entry.rowId);
    if (local === null) {
      gone.push(entry.outboxId);
      continue;
    }
    const checked = await redactValue(local.body);
    redactions += checked.findings;
    bytes += JSON.stringify(checked.value).length;
    sent.push(entry);
    rows.push({
      kind: entry.kind,
      id: entry.rowId,
      sessionId: entry.sessionId,
      at: entry.at,
      origin: origin(local.cwd),
      body: checked.value,
    });
  }
  if (redactions > 0)
    appendLog(options.home, 'warn', 'team replication: redacted what capture had left', {
      findings: redactions,
    });
  return { rows, sent, gone, later };
}

export async function replicateToTeam(options: ReplicateOptions): Promise<ReplicateResult> {
  const now = options.now ?? (() => new Date());
  const queue = options.store.teamQueue;
  const owner = `${process.pid}:${randomUUID().slice(0, 8)}`;
  const origin = originOf(options.writer);
  const result: ReplicateResult = { sent: 0, gone: 0, setAside: 0, waiting: 0, error: null };
  queue.sweep();
  for (;;) {
    // The server answers: everything waiting goes now, whatever its backoff said.
    const batch = queue.claimBatch(
      owner,
      now(),
      options.leaseMs ?? 120_000,
      options.batchSize ?? TEAM_BATCH_ROWS,
    );
    if (batch.length === 0) break;
    const { rows, sent, gone, later } = await readBatch(batch, options, origin);
    queue.release(later);
    let refused;
    try {
      refused = (await options.repository.write([...rows, ...(await filePatchRows(rows))])).refused;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const attempts = Math.max(...batch.map((e) => e.attempts));
      queue.deferred(
        [...sent, ...gone.map((outboxId) => ({ outboxId }))].map((e) => e.outboxId),
        message,
        new Date(now().getTime() + (options.retryMs ?? teamRetry)(attempts)).toISOString(),
      );
      appendLog(options.home, 'warn', 'team replication: the batch waits', {
        error: message,
        rows: batch.length,
      });
      options.onProgress?.(`team store: ${batch.length} rows wait: ${message}`);
      result.error = message;
      break;
    }
    options.afterWrite?.(rows.length);
    const setAside = new Set(
      refused.filter((r) => r.kind !== 'file_patch').map((r) => `${r.kind}:${r.id}`),
    );
    for (const row of refused) {
      const entry = sent.find((e) => e.kind === row.kind && e.rowId === row.id);
      const line = `team store: the server refuses ${row.kind} ${row.id.slice(0, 8)} for good (${row.reason}): set aside, not retried`;
      if (entry) queue.setAside(entry.outboxId, row.reason);
      appendLog(options.home, 'error', line, { kind: row.kind, id: row.id });
      options.onProgress?.(line);
    }
    queue.delivered(
      [
        ...sent.filter((e) => !setAside.has(`${e.kind}:${e.rowId}`)),
        ...gone.map((id) => ({ outboxId: id })),
      ].map((e) => e.outboxId),
      owner,
      now().toISOString(),
    );
    result.sent += rows.length - setAside.size;
    result.setAside += setAside.size;
    result.gone += gone.length;
    options.onProgress?.(`team store: sent ${rows.length - setAside.size} rows`);
  }
  result.waiting = queue.status().waiting;
  return result;
}
