/**
 * Storing a checkpoint together with what it updates besides itself: the session's signal sample,
 * the outcome of restores into the session, and the session's last sighting. One write
 * transaction, so they land together or not at all, and one commit (under synchronous = FULL each
 * commit is a WAL fsync a blocking checkpoint waits for).
 * @module
 */
import type { Checkpoint, CheckpointDraft } from '../../core/checkpoint/checkpoint.ts';
import { CheckpointRepository, prepareCheckpoint } from './checkpoint-repository.ts';
import { DEFAULT_CHAIN } from './checkpoint-chain.ts';
import { withWriteTransaction, type Database } from '../sqlite/database.ts';
import { LearnedSecrets } from './learned-secrets.ts';
import { ResumeRepository } from './resume-repository.ts';
import { SessionRepository } from './session-repository.ts';
import type {
  ChainSettings,
  CheckpointSighting,
  CheckpointWrites,
  LearnedSeal,
  StoredCheckpoint,
} from '../ports/checkpoints.ts';
import { SignalHistoryRepository } from './signal-history-repository.ts';

export class CheckpointWriter implements CheckpointWrites {
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
   * The port's write (ports/checkpoints.ts). Chained through checkpoint-chain.ts; `learned.last`
   * is the newest row of learned-secrets.ts the draft was sealed with.
   */
  write(
    sealed: CheckpointDraft,
    sighting: CheckpointSighting,
    chain: { base: Checkpoint | null; settings: ChainSettings } = {
      base: null,
      settings: DEFAULT_CHAIN,
    },
    learned: LearnedSeal | null = null,
  ): StoredCheckpoint {
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
