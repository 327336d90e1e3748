/**
 * Checkpoints stored as chains (seed 003, "continuous checkpointing", "context chain integrity
 * checks"; docs/specification.md, "The store"): a session's checkpoint is stored as what changed
 * since an earlier one of the same session (checkpoint-delta.ts), with a whole one every
 * `fullEvery` steps or whenever the change is not smaller than the whole. Reading a checkpoint
 * rebuilds it from the nearest whole one and checks the result against the hash stored with it.
 *
 * A broken chain — a link deleted by hand, a row rewritten under it, a step that no longer
 * applies — is never read as a wrong state: the read falls back to the newest checkpoint of the
 * session before the break that rebuilds exactly, and says so (ChainBreak).
 * @module
 */
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import type { Database } from '../sqlite/database.ts';
import type { ChainBreak, ChainReport, ChainSettings } from '../ports/checkpoints.ts';
import { compressSections, toCheckpoint, withState, type Row } from './checkpoint-rows.ts';
import {
  applyDelta,
  decodeDelta,
  encodeDelta,
  stateHash,
  stateOf,
  type CheckpointState,
} from './checkpoint-delta.ts';

export const DEFAULT_CHAIN: ChainSettings = { incremental: true, fullEvery: 10 };

/** No chain is followed further than this, whatever its rows say (a loop in the links). */
const MAX_CHAIN = 1_000;

/**
 * A delta ready to be stored: the change, the checkpoint it is a change of, and that checkpoint's
 * state hash as read (a base rewritten since — redacted again — takes no change computed on it).
 */
export type DeltaCandidate = { deltaOf: string; data: Buffer; baseHash: string };

/**
 * The change from `base` (the previous checkpoint of the draft's session, as read) to `state`, or
 * null when it would be no smaller than `wholeBytes` or when incremental storage is off.
 * Computed before the write lock is taken; the write decides with the base's row (chainStep).
 */
export function deltaCandidate(
  base: Checkpoint | null,
  sessionId: string,
  state: CheckpointState,
  texts: string[],
  wholeBytes: number,
  settings: ChainSettings,
): DeltaCandidate | null {
  if (!settings.incremental || settings.fullEvery < 1 || !base || base.sessionId !== sessionId)
    return null;
  const from = stateOf(base);
  const data = encodeDelta(from, state, texts);
  return data && data.length < wholeBytes
    ? { deltaOf: base.id, data, baseHash: stateHash(from) }
    : null;
}

/**
 * Inside the write transaction: the depth the candidate's row gets, or null to store the
 * checkpoint whole (its base is gone or was rewritten since it was read, or the chain has run
 * `fullEvery` steps).
 */
export function chainStep(
  db: Database,
  candidate: DeltaCandidate | null,
  sessionId: string,
  settings: ChainSettings,
): number | null {
  if (!candidate) return null;
  const base = db
    .prepare('SELECT chain_depth, state_hash FROM checkpoints WHERE id = ? AND session_id = ?')
    .get(candidate.deltaOf, sessionId) as
    { chain_depth: number; state_hash: string | null } | undefined;
  if (!base || base.state_hash !== candidate.baseHash) return null;
  if (base.chain_depth + 1 > settings.fullEvery) return null;
  return base.chain_depth + 1;
}

const getRow = (db: Database, id: string): Row | undefined =>
  db.prepare('SELECT * FROM checkpoints WHERE id = ?').get(id) as Row | undefined;

type Rebuilt = { checkpoint: Checkpoint } | { broken: Omit<ChainBreak, 'fellBackTo'> };

/** `row` rebuilt from its chain; damage to a row's own bytes throws as toCheckpoint does. */
function rebuild(db: Database, row: Row): Rebuilt {
  const chain: Row[] = [row];
  const broken = (at: string, reason: ChainBreak['reason']): Rebuilt => ({
    broken: { checkpointId: row.id, sessionId: row.session_id, at, reason },
  });
  for (let r = row; r.delta_of;) {
    if (chain.length > MAX_CHAIN) return broken(r.id, 'chain too long');
    const parent = getRow(db, r.delta_of);
    if (!parent) return broken(r.id, 'missing link');
    if (parent.session_id !== row.session_id) return broken(r.id, 'link into another session');
    chain.push(parent);
    r = parent;
  }
  const whole = chain[chain.length - 1]!;
  if (chain.length === 1) return { checkpoint: toCheckpoint(whole) };
  const steps = chain.slice(0, -1).reverse();
  const deltas = steps.map(readDelta);
  // Applied in place to a state just decoded, its hash checked once at the end.
  const state = stateOf(toCheckpoint(whole));
  try {
    for (const ops of deltas) applyDelta(state, ops);
    if (stateHash(state) === row.state_hash) return { checkpoint: withState(row, state) };
  } catch {
    // named below
  }
  // Wrong at the end: step by step, checking each, to name the first step that goes wrong.
  const again = stateOf(toCheckpoint(whole));
  for (const [i, step] of steps.entries()) {
    try {
      applyDelta(again, deltas[i]!);
    } catch {
      return broken(step.id, 'state mismatch');
    }
    if (stateHash(again) !== step.state_hash) return broken(step.id, 'state mismatch');
  }
  return broken(row.id, 'state mismatch');
}

/** A delta row's change; unreadable bytes are damage (the store's recovery takes over). */
function readDelta(row: Row): ReturnType<typeof decodeDelta> {
  try {
    if (!row.state_delta) throw new Error('no delta stored');
    return decodeDelta(row.state_delta);
  } catch (error) {
    throw new Error(
      `damaged checkpoint row ${row.id}: ${(error as Error).message} (SQLITE_CORRUPT)`,
      { cause: error },
    );
  }
}

/** How many older checkpoints of the session a read tries when the chain is broken. */
const FALLBACK_TRIES = 64;

/**
 * The checkpoint of `row`, whole; when its chain is broken, the newest checkpoint of its session
 * before it that rebuilds exactly (null if none does), with the break.
 */
export function readCheckpointRow(
  db: Database,
  row: Row,
): { checkpoint: Checkpoint | null; broken: ChainBreak | null } {
  const first = rebuild(db, row);
  if ('checkpoint' in first) return { checkpoint: first.checkpoint, broken: null };
  const older = db
    .prepare(
      `SELECT * FROM checkpoints WHERE session_id = ? AND checkpoint_number < ?
       ORDER BY checkpoint_number DESC LIMIT ?`,
    )
    .all(row.session_id, row.checkpoint_number, FALLBACK_TRIES) as Row[];
  for (const candidate of older) {
    const again = rebuild(db, candidate);
    if ('checkpoint' in again)
      return {
        checkpoint: again.checkpoint,
        broken: { ...first.broken, fellBackTo: candidate.id },
      };
  }
  return { checkpoint: null, broken: { ...first.broken, fellBackTo: null } };
}

/**
 * The store's chains checked: every link (its row there, in the same session), and the newest
 * checkpoint of the `sessions` most recently active sessions rebuilt and compared with its hash.
 */
export function checkChains(db: Database, sessions = 200): ChainReport {
  const counts = db
    .prepare(
      `SELECT SUM(CASE WHEN delta_of IS NULL THEN 1 ELSE 0 END) AS whole,
              SUM(CASE WHEN delta_of IS NULL THEN 0 ELSE 1 END) AS deltas FROM checkpoints`,
    )
    .get() as { whole: number | null; deltas: number | null };
  const broken: ChainBreak[] = [];
  const links = db
    .prepare(
      `SELECT c.id, c.session_id, c.delta_of, p.session_id AS parent_session
       FROM checkpoints c LEFT JOIN checkpoints p ON p.id = c.delta_of
       WHERE c.delta_of IS NOT NULL AND (p.id IS NULL OR p.session_id <> c.session_id)`,
    )
    .all() as Array<{ id: string; session_id: string; parent_session: string | null }>;
  for (const link of links)
    broken.push({
      checkpointId: link.id,
      sessionId: link.session_id,
      at: link.id,
      reason: link.parent_session === null ? 'missing link' : 'link into another session',
      fellBackTo: null,
    });
  const newest = db
    .prepare(
      `SELECT * FROM checkpoints c WHERE c.id = (SELECT k.id FROM checkpoints k
         WHERE k.session_id = c.session_id ORDER BY k.checkpoint_number DESC LIMIT 1)
       ORDER BY c.created_at DESC LIMIT ?`,
    )
    .all(sessions) as Row[];
  let verified = 0;
  for (const row of newest) {
    const read = readCheckpointRow(db, row);
    if (read.broken) {
      if (!broken.some((b) => b.at === read.broken!.at)) broken.push(read.broken);
    } else verified++;
  }
  return { whole: counts.whole ?? 0, deltas: counts.deltas ?? 0, verified, broken };
}

/** Stores `checkpoint`'s state whole in its own row, which then needs no other (its id stays). */
export function rewriteWhole(db: Database, checkpoint: Checkpoint): void {
  const { sections, size } = compressSections(checkpoint);
  db.prepare(
    `UPDATE checkpoints SET conversation_state = ?, task_state = ?, file_state = ?, tool_state = ?,
       signals = ?, user_preferences = ?, delta_of = NULL, chain_depth = 0, state_delta = NULL,
       state_hash = ?, stored_size = ?
     WHERE id = ?`,
  ).run(
    sections.conversation.data,
    sections.task.data,
    sections.file.data,
    sections.tool.data,
    sections.signals.data,
    sections.preferences.data,
    stateHash(stateOf(checkpoint)),
    size.compressed,
    checkpoint.id,
  );
}

/**
 * Before `ids` are deleted (gc, forget), inside their transaction: every checkpoint kept that is
 * stored as a change of one of them is rewritten whole first, so that nothing kept needs a
 * deleted row. Returns how many were rewritten.
 */
export function detachDependents(db: Database, ids: readonly string[]): number {
  if (ids.length === 0) return 0;
  const doomed = new Set(ids);
  const dependents = db.prepare('SELECT * FROM checkpoints WHERE delta_of = ?');
  let rewritten = 0;
  for (const id of ids) {
    for (const row of dependents.all(id) as Row[]) {
      if (doomed.has(row.id)) continue;
      const { checkpoint, broken } = readCheckpointRow(db, row);
      // A dependent that cannot be rebuilt is lost already; it keeps its broken link.
      if (!checkpoint || broken) continue;
      rewriteWhole(db, checkpoint);
      rewritten++;
    }
  }
  return rewritten;
}
