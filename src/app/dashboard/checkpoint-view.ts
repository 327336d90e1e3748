/**
 * One checkpoint as the dashboard shows it: the handoff it renders to, its task list and files
 * with the uncommitted diff it captured, the resume prompt as it would be injected, and — for a
 * compaction's checkpoint — Claude Code's own summary beside it with the facts each one carried.
 * Everything in a checkpoint was redacted when it was taken.
 * @module
 */
import type { Agents } from '../../agents/agent.ts';
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import { AppError } from '../../core/errors.ts';
import { renderHandoff } from '../../core/resume/handoff.ts';
import { withStore } from '../open-store.ts';
import { loadConfig } from '../../store/config/config.ts';
import {
  readCheckpointChain,
  type CheckpointChainView,
} from '../checkpoint/checkpoint-chain-view.ts';
import { renderRestoreFor } from '../restore/render-restore.ts';
import { shownRestore } from '../restore/shown-restore.ts';

export type CheckpointFact = { fact: string; inCheckpoint: boolean; inSummary: boolean };

export type CheckpointView = {
  id: string;
  sessionId: string;
  number: number;
  createdAt: string;
  trigger: string;
  reason: string | null;
  level: string;
  contextTokens: number;
  compactThreshold: number;
  transcriptLine: number;
  tasks: Array<{ content: string; status: string }>;
  files: { modified: string[]; active: string[]; diff: string; snapshot: string | null };
  handoff: string;
  resumePrompt: string;
  /** Claude Code's summary of the compaction this checkpoint was taken for, when recorded. */
  compactSummary: string | null;
  /** The checkpoint's requests, tasks and files, and whether each summary carried them. */
  facts: CheckpointFact[];
  /** What led to it: the checkpoints before it in its chain (app/checkpoint/checkpoint-chain-view.ts). */
  chain: CheckpointChainView | null;
};

const CHECKPOINT_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** Words of a fact that would show it was carried: its first few distinctive words. */
function carried(text: string, fact: string): boolean {
  const words = fact
    .toLowerCase()
    .split(/[^a-z0-9_./-]+/)
    .filter((w) => w.length > 3)
    .slice(0, 6);
  if (words.length === 0) return false;
  const haystack = text.toLowerCase();
  return words.filter((w) => haystack.includes(w)).length >= Math.ceil(words.length * 0.6);
}

function factsOf(checkpoint: Checkpoint): string[] {
  return [
    ...checkpoint.conversationState.userRequests.slice(0, 10),
    ...checkpoint.taskState.items.map((t) => t.content),
    ...checkpoint.fileState.modifiedFiles.slice(0, 20),
  ];
}

export async function viewCheckpoint(
  home: string,
  id: string,
  now: number,
  agents: Agents,
): Promise<CheckpointView> {
  if (!CHECKPOINT_ID.test(id))
    throw new AppError('USAGE', 'not a checkpoint id', 'ids are letters, digits, - and _');
  const config = await loadConfig(home, { lenient: true });
  const limits = { hours: config.restoreContextHours, max: config.restoreMaxContexts };
  return withStore(home, async (store) => {
    const checkpoint = store.checkpoints.getById(id);
    if (!checkpoint)
      throw new AppError(
        'CHECKPOINT_NOT_FOUND',
        `no checkpoint ${id}`,
        'it may have been removed by shim gc',
      );
    const shown = await shownRestore(store, checkpoint, home, now, agents);
    const summary = shown.compactSummary;
    const resumePrompt = renderRestoreFor(checkpoint, shown.detection, shown.target, {
      compactSummary: summary,
    });
    return {
      id: checkpoint.id,
      sessionId: checkpoint.sessionId,
      number: checkpoint.checkpointNumber,
      createdAt: checkpoint.createdAt,
      trigger: checkpoint.triggeredBy,
      reason: checkpoint.source.reason,
      level: checkpoint.source.level,
      contextTokens: checkpoint.source.contextTokens,
      compactThreshold: checkpoint.source.compactThreshold,
      transcriptLine: checkpoint.source.transcriptLine,
      tasks: checkpoint.taskState.items.map((t) => ({ content: t.content, status: t.status })),
      files: {
        modified: checkpoint.fileState.modifiedFiles,
        active: checkpoint.fileState.activeFiles,
        diff: checkpoint.fileState.uncommittedDiff,
        snapshot: checkpoint.fileState.snapshot?.ref ?? null,
      },
      handoff: renderHandoff(checkpoint, shown.detection),
      resumePrompt,
      compactSummary: summary,
      facts: factsOf(checkpoint).map((fact) => ({
        fact,
        inCheckpoint: true,
        inSummary: summary !== null && carried(summary, fact),
      })),
      chain: readCheckpointChain(store, id, limits),
    };
  });
}
