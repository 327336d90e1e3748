/** Resolves a checkpoint id, unique id prefix, or `session:<n>`-free default to a checkpoint. */
import type { Checkpoint } from '../core/checkpoint.ts';
import { AppError } from '../core/errors.ts';
import type { CheckpointRepository } from '../store/checkpoint-repository.ts';

export function findCheckpoint(repo: CheckpointRepository, idOrPrefix: string): Checkpoint {
  const exact = repo.getById(idOrPrefix);
  if (exact) return exact;
  if (idOrPrefix.length < 4) {
    throw new AppError(
      'USAGE',
      `checkpoint id "${idOrPrefix}" is too short`,
      'give at least 4 characters of the id (see `shim list`)',
    );
  }
  const ids = repo.findIdsByPrefix(idOrPrefix);
  if (ids.length === 1) return repo.getById(ids[0]!)!;
  if (ids.length > 1) {
    throw new AppError(
      'USAGE',
      `"${idOrPrefix}" matches ${ids.length} checkpoints (${ids.join(', ')})`,
      'give more characters of the id',
    );
  }
  throw new AppError(
    'CHECKPOINT_NOT_FOUND',
    `no checkpoint ${idOrPrefix}`,
    'list checkpoints with `shim list`',
  );
}

/** The newest checkpoint of a session, or of anything when no session is given. */
export function findLatestCheckpoint(repo: CheckpointRepository, sessionId?: string): Checkpoint {
  const checkpoint = sessionId ? repo.getMostRecent(sessionId) : repo.getLatest();
  if (!checkpoint) {
    throw new AppError(
      'CHECKPOINT_NOT_FOUND',
      sessionId ? `no checkpoint for session ${sessionId}` : 'there are no checkpoints yet',
      'take one with `shim checkpoint`, or let the hooks take them (`shim install`, coming next)',
    );
  }
  return checkpoint;
}
