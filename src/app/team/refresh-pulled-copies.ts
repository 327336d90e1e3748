/**
 * Once found, gone everywhere — also in what came from another machine. A checkpoint pulled from
 * the team store and restored here keeps the body it had then; when its machine learns later that
 * a value it holds is a secret, the team store's copy is replaced by a redacted one
 * (store/checkpoints/session-rewrite.ts re-queues it), and the pull never fetches a checkpoint it
 * already holds. So after each pull the copies held here (restored, or waiting in team_work) are
 * compared with the team's: the values the team's now redacts are learned (redact/learn-redacted.ts)
 * and replaced in the copies, in the sessions restored from them (whose own rows and team copies
 * carry what they inherited) and for the whole home (store `learned`).
 * @module
 */
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import { learnRedacted } from '../../redact/learn-redacted.ts';
import { forgetRememberedValue, SecretMemory } from '../../redact/redact.ts';
import type { TeamRepository } from '../../store/ports/team-repository.ts';
import { redactStoredSession } from '../checkpoint/redact-stored-session.ts';
import type { Store } from '../open-store.ts';

/** Returns how many values were learned from the team's copies. */
export async function refreshPulledCopies(options: {
  store: Store;
  repository: Pick<TeamRepository, 'findCheckpoint'>;
  /** The projects this machine has (the team store is read within them only). */
  projectIds: readonly string[];
  since: string;
}): Promise<number> {
  const { store, repository } = options;
  const held = new Map<string, Checkpoint[]>();
  const hold = (c: Checkpoint) => held.set(c.id, [...(held.get(c.id) ?? []), c]);
  for (const { id } of store.rewrite.pulledCopies(options.since)) {
    const copy = store.checkpoints.getById(id);
    if (copy) hold(copy);
  }
  const cached = store.teamWork.list();
  for (const work of cached) hold(work.checkpoint);
  if (held.size === 0 || options.projectIds.length === 0) return 0;
  let learned = 0;
  for (const [id, copies] of held) {
    const scope = { projectIds: options.projectIds, limit: 1 };
    const team = (await repository.findCheckpoint(id, scope)).find((t) => t.checkpoint.id === id);
    if (!team) continue;
    const memory = new SecretMemory();
    for (const copy of copies) learnRedacted(copy, team.checkpoint, memory);
    if (memory.size === 0) continue;
    learned += memory.size;
    redactStoredSession(store, team.sessionId, memory);
    for (const work of cached)
      if (work.checkpoint.id === id)
        store.teamWork.replaceCheckpoint(forgetRememberedValue(work.checkpoint, memory).value);
  }
  return learned;
}
