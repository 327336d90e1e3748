/**
 * Storing a checkpoint together with what it updates besides itself: the session's signal sample,
 * the outcome of restores into the session, and the session's last sighting. One write
 * transaction, so they land together or not at all, and one commit (under synchronous = FULL each
 * commit is a WAL fsync a blocking checkpoint waits for).
 * @module
 */
import type { Checkpoint, CheckpointDraft } from '../../core/checkpoint/checkpoint.ts';
import {
  CheckpointRepository,
  prepareCheckpoint,
  type CheckpointSize,
} from './checkpoint-repository.ts';
import { DEFAULT_CHAIN, type ChainSettings } from './checkpoint-chain.ts';
import { withWriteTransaction, type Database } from '../sqlite/database.ts';
import { LearnedSecrets } from './learned-secrets.ts';
import { ResumeRepository } from './resume-repository.ts';
import { SessionRepository, type SessionSighting } from './session-repository.ts';
import { SignalHistoryRepository } from './signal-history-repository.ts';

/** What a stored checkpoint says of its session beyond its own row. */
export type CheckpointSighting = {
  /** The session as the checkpoint saw it (its transcript, directory, CLI version, model). */
  session: Omit<SessionSighting, 'sessionId' | 'agent'>;
  /** When the session was last active: the checkpoint's time, or a dead session's last line. */
  activeAt: string;
};

export class CheckpointWriter {
  readonly #db: Database;
  readonly #checkpoints: CheckpointRepository;
  readonly #signals: SignalHistoryRepository;
  readonly #resumes: ResumeRepository;
  readonly #sessions: SessionRepository;
  readonly #learned: LearnedSecrets;

  constructor(db: Database) {
    this.#db = db;
    this.#checkpoints = new CheckpointRepository(db);
    this.#signals = new SignalHistoryRepository(db);
    this.#resumes = new ResumeRepository(db);
    this.#sessions = new SessionRepository(db);
    this.#learned = new LearnedSecrets(db);
  }

  /**
   * Stores the draft under the session's next number with its signal sample (bounded per
   * session), marks the restores into the session that it has worked on since as successes (at
   * `session_end`, the rest as failures), and records the sighting. Nothing is kept if any fails.
   * `chain.base`, the previous checkpoint of the session as read, lets it be stored as what
   * changed since (store/checkpoints/checkpoint-chain.ts). `learned`: the newest row of the
   * home's learned secrets (learned-secrets.ts) the draft was sealed with, and how to replace
   * lines' values in a draft (null when none stands in it); any learned since (another process
   * redacting what this draft inherited) are replaced in it before it is stored.
   */
  write(
    sealed: CheckpointDraft,
    sighting: CheckpointSighting,
    chain: { base: Checkpoint | null; settings: ChainSettings } = {
      base: null,
      settings: DEFAULT_CHAIN,
    },
    learned: {
      last: number;
      scrub: (draft: CheckpointDraft, lines: string[]) => CheckpointDraft | null;
    } | null = null,
  ): { checkpoint: Checkpoint; size: CheckpointSize } {
    // Compressed and diffed against the base before the write lock is taken: others wait less.
    let draft = sealed;
    let prepared = prepareCheckpoint(draft, chain.base, chain.settings);
    return withWriteTransaction(this.#db, () => {
      const newer = learned === null ? null : this.#learned.since(learned.last);
      const scrubbed = newer && newer.lines.length > 0 ? learned!.scrub(draft, newer.lines) : null;
      if (scrubbed !== null) {
        draft = scrubbed;
        prepared = prepareCheckpoint(draft, chain.base, chain.settings);
      }
      const stored = this.#checkpoints.insertPrepared(draft, prepared, chain.settings);
      this.#signals.record({
        sessionId: draft.sessionId,
        recordedAt: draft.createdAt,
        signals: draft.signals,
        crashRisk: draft.signals.crashRisk,
      });
      this.#resumes.markOutcome(
        draft.sessionId,
        draft.signals.messageCount,
        draft.triggeredBy === 'session_end',
      );
      this.#sessions.touch(
        { ...sighting.session, sessionId: draft.sessionId, agent: draft.source.agent },
        sighting.activeAt,
      );
      return stored;
    });
  }
}
