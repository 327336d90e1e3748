/**
 * The checkpoint a request would store, built, redacted and limited as createCheckpoint does,
 * with nothing written: no row, no git snapshot, no growth profile, no failure record, nothing
 * queued for the tracker or the team store. A dry run (`shim rescue --dry-run`) shows it.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { Assessment } from '../../core/context/assess.ts';
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import { captureGitState } from '../../capture/git.ts';
import { SecretMemory } from '../../redact/redact.ts';
import { withStore } from '../open-store.ts';
import {
  assessForCheckpoint,
  draftCheckpoint,
  logName,
  readCheckpointBasis,
  readLineage,
  workTreeOf,
  type CheckpointRequest,
} from './checkpoint-input.ts';
import { sealCheckpoint } from './seal-checkpoint.ts';

export type CheckpointPreview = {
  /** Numbered as it would be; its id is stored nowhere. */
  checkpoint: Checkpoint;
  assessment: Assessment;
};

export async function previewCheckpoint(request: CheckpointRequest): Promise<CheckpointPreview> {
  const { state, config } = await readCheckpointBasis(request);
  const sessionId = state.sessionId ?? logName(request.log.path);
  const lineage = await withStore(request.home, (store) => readLineage(store, sessionId));
  const assessment = assessForCheckpoint(request, state, config, lineage.previous);
  const workTree = workTreeOf(request, state);
  // git read as it is; the snapshot a checkpoint takes would be a ref written in the user's repo.
  const git = workTree ? await captureGitState(workTree, {}) : null;
  const draft = draftCheckpoint({
    request,
    state,
    id: randomUUID(),
    git,
    workTree,
    ...lineage,
    assessment,
  });
  const sealed = await sealCheckpoint(draft, SecretMemory.from(state.secretMemory));
  const checkpointNumber = (lineage.previous?.checkpointNumber ?? 0) + 1;
  return { checkpoint: { ...sealed.checkpoint, checkpointNumber }, assessment };
}
