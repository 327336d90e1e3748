/** Resolves a checkpoint id, a unique id prefix, or "the newest" to a checkpoint, within a scope. */
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import { AppError } from '../../core/errors.ts';
import type { Checkpoints } from '../../store/ports/checkpoints.ts';
import { describeScope, isInScope, type Scope } from '../project-scope.ts';

/**
 * A full id names one checkpoint wherever it was taken; a prefix is looked up within the scope
 * (so `shim show 3f2a` cannot pick another project's checkpoint).
 */
export function findCheckpoint(
  repo: Checkpoints,
  idOrPrefix: string,
  scope: Scope = { kind: 'all' },
): Checkpoint {
  const exact = repo.getById(idOrPrefix);
  if (exact) return exact;
  if (idOrPrefix.length < 4) {
    throw new AppError(
      'USAGE',
      `checkpoint id "${idOrPrefix}" is too short`,
      'give at least 4 characters of the id (see `shim list`)',
    );
  }
  const found = repo.findIdsByPrefix(idOrPrefix, 50).flatMap((id) => repo.getById(id) ?? []);
  const inScope = found.filter((c) => isInScope(scope, c.source.cwd));
  if (inScope.length === 1) return inScope[0]!;
  if (inScope.length > 1) {
    throw new AppError(
      'USAGE',
      `"${idOrPrefix}" matches ${inScope.length} checkpoints (${inScope
        .slice(0, 5)
        .map((c) => c.id)
        .join(', ')})`,
      'give more characters of the id',
    );
  }
  throw new AppError(
    'CHECKPOINT_NOT_FOUND',
    found.length > 0
      ? `no checkpoint ${idOrPrefix} in ${describeScope(scope)} (${found.length} in other projects)`
      : `no checkpoint ${idOrPrefix}`,
    found.length > 0
      ? 'add --all to look at every project, or give the full id'
      : 'list checkpoints with `shim list` (`--all` for every project)',
  );
}

/**
 * The newest checkpoint of a session (any project: a session id is explicit), else the newest
 * of the scope.
 */
export function findLatestCheckpoint(
  repo: Checkpoints,
  sessionId: string | undefined,
  scope: Scope,
): Checkpoint {
  const checkpoint = sessionId
    ? repo.getMostRecent(sessionId)
    : scope.kind === 'all'
      ? repo.getLatest()
      : repo.getMostRecentInProject(scope.root);
  if (checkpoint) return checkpoint;
  if (sessionId) {
    throw new AppError(
      'CHECKPOINT_NOT_FOUND',
      `no checkpoint for session ${sessionId}`,
      'list the sessions with checkpoints with `shim list --all`',
    );
  }
  if (scope.kind === 'all' || repo.count() === 0) {
    throw new AppError(
      'CHECKPOINT_NOT_FOUND',
      'there are no checkpoints yet',
      'take one with `shim checkpoint`, or let the hooks take them (`shim install`)',
    );
  }
  throw new AppError(
    'CHECKPOINT_NOT_FOUND',
    `there are no checkpoints in ${describeScope(scope)}`,
    'add --all to look at every project, or take one here with `shim checkpoint`',
  );
}
