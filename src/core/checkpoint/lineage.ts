/**
 * Inheritance across sessions. A session restored from an earlier one (after a crash, or from a
 * handoff) starts with little of its own — often just "continue". Its checkpoints carry the
 * ancestor's requests, open tasks, decisions and files until they are done, so a second and a
 * third crash still restore the original request and the task list. The ancestor's checkpoint
 * already holds what it inherited itself, so one step covers the whole chain.
 * @module
 */
import type { Checkpoint, CheckpointDraft, TaskStateItem } from './checkpoint.ts';
import { isOpenTaskStatus } from './checkpoint.ts';

const normalize = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/** Unique values, keeping the last occurrence's position (the newest wins a cut from the front). */
function uniqueKeepLast(values: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (let i = values.length - 1; i >= 0; i--) {
    const v = values[i]!;
    if (seen.has(v)) continue;
    seen.add(v);
    out.unshift(v);
  }
  return out;
}

/**
 * The task list: this session's own items, then the ancestor's open items it has not taken up
 * (matched by text). With no list of its own, the ancestor's whole list stands.
 */
export function mergeTaskItems(
  own: readonly TaskStateItem[],
  ancestor: readonly TaskStateItem[],
): TaskStateItem[] {
  if (own.length === 0) return ancestor.map((i) => ({ ...i, inherited: true }));
  const taken = new Set(own.map((i) => normalize(i.content)));
  const carried = ancestor
    .filter((i) => isOpenTaskStatus(i.status) && !taken.has(normalize(i.content)))
    .map((i) => ({ ...i, inherited: true }));
  return [...own, ...carried];
}

export function inheritFromAncestor(draft: CheckpointDraft, ancestor: Checkpoint): CheckpointDraft {
  const inheritedRequests = ancestor.conversationState.userRequests;
  const items = mergeTaskItems(draft.taskState.items, ancestor.taskState.items);
  const done = items.filter((i) => i.status === 'completed');
  const open = items.filter((i) => isOpenTaskStatus(i.status));
  const ownOpen = new Set(draft.taskState.items.map((i) => i.content));
  const carriedSteps = open
    .filter((i) => !ownOpen.has(i.content))
    .map((i) => `(from the earlier session) ${i.content}`);
  const gitKnown = draft.fileState.repoRoot !== null;
  const ancestorPreferences = ancestor.userPreferences.recentPreferences?.split('\n') ?? [];
  const ownPreferences = draft.userPreferences.recentPreferences?.split('\n') ?? [];
  const preferences = uniqueKeepLast([...ancestorPreferences, ...ownPreferences]).filter(
    (p) => p !== '',
  );
  return {
    ...draft,
    conversationState: {
      ...draft.conversationState,
      userRequests: [...inheritedRequests, ...draft.conversationState.userRequests],
      inheritedRequests: inheritedRequests.length,
      currentContext:
        draft.taskState.items.length === 0 && ancestor.conversationState.currentContext !== ''
          ? ancestor.conversationState.currentContext
          : draft.conversationState.currentContext,
      keyDecisions: uniqueKeepLast([
        ...ancestor.conversationState.keyDecisions,
        ...draft.conversationState.keyDecisions,
      ]),
    },
    taskState: {
      ...draft.taskState,
      items,
      progress: items.length > 0 ? done.length / items.length : draft.taskState.progress,
      operation: draft.taskState.operation || ancestor.taskState.operation,
      completedSteps: uniqueKeepLast([
        ...ancestor.taskState.completedSteps,
        ...draft.taskState.completedSteps,
      ]),
      nextSteps:
        draft.taskState.items.length === 0
          ? ancestor.taskState.nextSteps
          : [...draft.taskState.nextSteps, ...carriedSteps],
    },
    fileState: {
      ...draft.fileState,
      activeFiles: uniqueKeepLast([
        ...ancestor.fileState.activeFiles,
        ...draft.fileState.activeFiles,
      ]),
      // Without git, the files the sessions edited are all we know of the work in progress.
      modifiedFiles: gitKnown
        ? draft.fileState.modifiedFiles
        : uniqueKeepLast([...ancestor.fileState.modifiedFiles, ...draft.fileState.modifiedFiles]),
    },
    toolState: {
      ...draft.toolState,
      checks: draft.toolState.checks?.length
        ? draft.toolState.checks
        : (ancestor.toolState.checks ?? []),
    },
    userPreferences: {
      ...draft.userPreferences,
      ...(draft.userPreferences.customInstructions === undefined &&
      ancestor.userPreferences.customInstructions !== undefined
        ? { customInstructions: ancestor.userPreferences.customInstructions }
        : {}),
      ...(preferences.length > 0 ? { recentPreferences: preferences.join('\n') } : {}),
    },
  };
}
