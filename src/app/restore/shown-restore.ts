/**
 * The restore a stored checkpoint stands for, as `shim show` and the dashboard print it: the one
 * the agent was given when shim restored it (a compaction's checkpoint reads "Continuing after
 * compaction", as the model got it), else the one a session starting now would get.
 * @module
 */
import type { Agent, Agents } from '../../agents/agent.ts';
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import {
  compactionDetection,
  isInterruptionReason,
  type ResumeDetection,
} from '../../core/resume/resume.ts';
import type { Store } from '../open-store.ts';
import { planResume } from './plan-resume.ts';

export type ShownRestore = {
  detection: ResumeDetection;
  /** The agent's own summary of the compaction the checkpoint was taken for, when recorded. */
  compactSummary: string | null;
  /** The agent it went (or would go) into: the checkpoint's own. */
  target: Agent;
  /** The session it was restored into and when; null when it never was. */
  restored: { sessionId: string; at: string } | null;
};

export async function shownRestore(
  store: Store,
  checkpoint: Checkpoint,
  home: string,
  now: number,
  agents: Agents,
): Promise<ShownRestore> {
  const compactSummary = store.dashboard.getCompactionSummary(checkpoint.id)?.summary ?? null;
  const target = await agents.agent(checkpoint.source.agent);
  const given = store.resumes.listForCheckpoint(checkpoint.id).at(-1);
  if (given !== undefined && isInterruptionReason(given.interruptionReason)) {
    const explanation = `shim restored this checkpoint into session ${given.sessionId.slice(0, 8)} at ${given.restoredAt} (${given.notes ?? given.interruptionReason}).`;
    return {
      detection:
        given.interruptionReason === 'compaction'
          ? compactionDetection(checkpoint.id, explanation)
          : {
              shouldResume: true,
              lastCheckpointId: checkpoint.id,
              interruptionReason: given.interruptionReason,
              timeSinceInterruption: given.timeSinceCheckpoint,
              confidence: given.resumeConfidence,
              explanation,
            },
      compactSummary,
      target,
      restored: { sessionId: given.sessionId, at: given.restoredAt },
    };
  }
  // Taken as a compaction began: what it is for is the restore after that compaction.
  if (checkpoint.triggeredBy === 'pre_compact')
    return {
      detection: compactionDetection(
        checkpoint.id,
        'The session was compacted; its exact state is restored on top of the summary.',
      ),
      compactSummary,
      target,
      restored: null,
    };
  const plan = await planResume(store, checkpoint, home, now, agents);
  return { detection: plan.detection, compactSummary, target, restored: null };
}
