/**
 * What led to a checkpoint (seed 003, "event chains"; issue 43): the checkpoints before it in its
 * chain — the previous one of its session, or for a session's first the one it was restored
 * from — each with what happened since the one before it, and how it is stored. Walked back
 * while the checkpoints are younger than `restoreContextHours` before it and fewer than
 * `restoreMaxContexts` (config). A chain whose stored links are broken says so: its newest work
 * reads as an older checkpoint, never as a wrong state.
 * @module
 */
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import { changesBetween } from '../../core/checkpoint/checkpoint-changes.ts';
import type { ChainBreak } from '../../store/ports/checkpoints.ts';
import type { Store } from '../open-store.ts';

export type ChainStep = {
  id: string;
  sessionId: string;
  number: number;
  createdAt: string;
  trigger: string;
  reason: string | null;
  level: string;
  /** How this step follows the one before it (older, next in the list). */
  via: 'previous' | 'restored from' | 'start';
  /** The checkpoint it follows was removed (gc, forget): `changes` are what it held. */
  parentMissing: boolean;
  /** Stored as what changed since another checkpoint (its id), or whole. */
  storedAs: { deltaOf: string | null; bytes: number; wholeBytes: number };
  /** What happened since the step before it; for the oldest step, what it held. */
  changes: string[];
};

export type CheckpointChainView = {
  /** Newest first: the checkpoint itself, then what led to it. */
  steps: ChainStep[];
  /** The checkpoint asked for could not be rebuilt; `steps` start at what it reads as. */
  broken: ChainBreak | null;
  /** More checkpoints lie further back than the hours and count allow. */
  more: boolean;
};

export type ChainLimits = { hours: number; max: number };

function stepOf(
  store: Store,
  checkpoint: Checkpoint,
  parent: Checkpoint | null,
  hasParentId: boolean,
): ChainStep {
  const summary = store.checkpoints.getSummary(checkpoint.id);
  return {
    id: checkpoint.id,
    sessionId: checkpoint.sessionId,
    number: checkpoint.checkpointNumber,
    createdAt: checkpoint.createdAt,
    trigger: checkpoint.triggeredBy,
    reason: checkpoint.source.reason,
    level: checkpoint.source.level,
    via: !hasParentId
      ? 'start'
      : parent && parent.sessionId !== checkpoint.sessionId
        ? 'restored from'
        : 'previous',
    storedAs: {
      deltaOf: summary?.deltaOf ?? null,
      bytes: summary?.size.stored ?? 0,
      wholeBytes: summary?.size.compressed ?? 0,
    },
    parentMissing: hasParentId && parent === null,
    changes: changesBetween(parent, checkpoint),
  };
}

/** The chain that led to checkpoint `id`; null when the store has no such checkpoint. */
export function readCheckpointChain(
  store: Store,
  id: string,
  limits: ChainLimits,
): CheckpointChainView | null {
  const read = store.checkpoints.readChecked(id);
  if (!read) return null;
  const steps: ChainStep[] = [];
  let current = read.checkpoint;
  const oldest = current ? Date.parse(current.createdAt) - limits.hours * 3_600_000 : 0;
  const seen = new Set<string>();
  let more = false;
  while (current && !seen.has(current.id)) {
    seen.add(current.id);
    const parentId = current.source.parentId ?? null;
    const parent = parentId ? store.checkpoints.getById(parentId) : null;
    // A parent read back as an older one (its own chain broken) is not this one's parent.
    const real = parent?.id === parentId ? parent : null;
    steps.push(stepOf(store, current, real, parentId !== null));
    if (!real) break;
    if (steps.length >= limits.max || Date.parse(real.createdAt) < oldest) {
      more = true;
      break;
    }
    current = real;
  }
  return { steps, broken: read.broken, more };
}

const short = (id: string) => id.slice(0, 8);

/** The chain as markdown: `## What led here`, newest first (shim show, the MCP timeline). */
export function renderCheckpointChain(view: CheckpointChainView): string {
  const lines = ['## What led here', ''];
  if (view.broken)
    lines.push(
      `> The chain of checkpoint ${short(view.broken.checkpointId)} is broken (${view.broken.reason} at ${short(view.broken.at)}): ${view.broken.fellBackTo ? `this is ${short(view.broken.fellBackTo)}, the newest of its session that rebuilds exactly` : 'no earlier checkpoint of its session rebuilds'}. \`shim doctor\` lists broken chains.`,
      '',
    );
  for (const step of view.steps) {
    const stored = step.storedAs.deltaOf
      ? `stored as its change since ${short(step.storedAs.deltaOf)} (${step.storedAs.bytes} of ${step.storedAs.wholeBytes} bytes)`
      : `stored whole (${step.storedAs.bytes} bytes)`;
    lines.push(
      `- **#${step.number}** ${short(step.id)} · ${step.createdAt} · ${step.trigger}${step.reason ? ` (${step.reason})` : ''} · ${step.level} · ${stored}`,
    );
    const after =
      step.via === 'restored from'
        ? `session ${short(step.sessionId)} restored from the checkpoint below`
        : step.parentMissing
          ? 'the checkpoint before it was removed; it holds'
          : step.via === 'start'
            ? 'the first of its chain; it holds'
            : 'since the one below';
    lines.push(
      `  ${after}: ${step.changes.length > 0 ? step.changes.join('; ') : 'nothing changed'}`,
    );
  }
  if (view.more) lines.push('- … earlier checkpoints (restoreContextHours, restoreMaxContexts)');
  return lines.join('\n');
}
