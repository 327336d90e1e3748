/**
 * Replication to the team store through the sync outbox (docs/team.md, "Replication"): queue what
 * is new since the marks, then send the oldest due entries in batches — each batch one
 * transaction on the server, idempotent by id — and mark them delivered. Every row is redacted
 * once more before it leaves (it was at capture; a rule added since still applies) and carries
 * the project as every machine names it, the machine and the OS user. While the server is down
 * or refuses, the entries wait with their error and are sent when it answers; none is given up.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { identifyProject } from '../../capture/project-remote.ts';
import { redactValue } from '../../redact/redact.ts';
import { appendLog } from '../../store/home/log.ts';
import type { RowOrigin, TeamRepository, TeamRow } from '../../store/team/team-repository.ts';
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

export type ReplicateResult = { sent: number; gone: number; waiting: number; error: string | null };

/** 5 s, 10 s, 20 s … capped at 5 minutes: a server back up is caught up with soon. */
export const teamRetry = (attempts: number) =>
  Math.min(300_000, 5_000 * 2 ** Math.max(0, attempts - 1));

/** The origin of rows from a directory: the project's identity is read once per directory. */
function originOf(writer: Writer): (cwd: string | null) => RowOrigin {
  const seen = new Map<string, RowOrigin>();
  return (cwd) => {
    const key = cwd ?? '';
    let origin = seen.get(key);
    if (!origin) {
      const project = cwd ? identifyProject(cwd) : { id: 'path:unknown', pathInRepo: '' };
      origin = { projectId: project.id, projectPath: project.pathInRepo, ...writer };
      seen.set(key, origin);
    }
    return origin;
  };
}

export async function replicateToTeam(options: ReplicateOptions): Promise<ReplicateResult> {
  const now = options.now ?? (() => new Date());
  const queue = options.store.teamQueue;
  const source = options.store.teamRows;
  const owner = `${process.pid}:${randomUUID().slice(0, 8)}`;
  const batchSize = options.batchSize ?? 200;
  const origin = originOf(options.writer);
  const result: ReplicateResult = { sent: 0, gone: 0, waiting: 0, error: null };
  queue.sweep();
  for (;;) {
    const batch = queue.claimBatch(owner, now(), options.leaseMs ?? 120_000, batchSize);
    if (batch.length === 0) break;
    const rows: TeamRow[] = [];
    const gone: number[] = [];
    let redactions = 0;
    for (const entry of batch) {
      const local = source.read(entry.kind, entry.rowId);
      if (local === null) {
        gone.push(entry.outboxId);
        continue;
      }
      const checked = await redactValue(local.body);
      redactions += checked.findings;
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
    try {
      await options.repository.write(rows);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const attempts = Math.max(...batch.map((e) => e.attempts));
      queue.deferred(
        batch.map((e) => e.outboxId),
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
    queue.delivered(
      batch.map((e) => e.outboxId),
      owner,
      now().toISOString(),
    );
    result.sent += rows.length;
    result.gone += gone.length;
    options.onProgress?.(`team store: sent ${rows.length} rows`);
  }
  result.waiting = queue.status().waiting;
  return result;
}
