/**
 * The resume prompt (docs/specification.md, "Resume"): markdown injected into a fresh session so the agent carries
 * on without asking. The specified sections (situation, progress, context, next steps, files, tools,
 * blockers) plus what Claude Code's own compaction summary carries and more: the user's requests
 * verbatim, the exact task list, pending operations, the snapshot to restore, recent failures,
 * and explicit instructions to continue rather than restart.
 *
 * Bounded by `maxChars` (default 12,000 ≈ 3,000 tokens): the least important sections shrink
 * first (recent messages, tool calls, the diff); the requests and the task list are kept.
 * @module
 */
import type { AgentId } from '../agent-id.ts';
import type { Checkpoint } from '../checkpoint/checkpoint.ts';
import type { ResumeDetection } from './resume.ts';
import { buildSections, renderWithinBudget, type LayoutGroup } from './resume-sections.ts';

/** About 3,000 tokens: room for every request by its opening words in typical sessions. */
export const DEFAULT_RESUME_PROMPT_MAX_CHARS = 12_000;

/** Diff characters shown in the prompt: the agent can run `git diff` for the rest. */
export const RESUME_PROMPT_DIFF_CHARS = 3_000;

export type ResumePromptOptions = {
  maxChars?: number;
  /** Claude Code's own summary, when restoring after a compaction. */
  compactSummary?: string | null;
  /** The agent the restore goes into (`shim resume --for`, another agent's SessionStart). */
  forAgent?: AgentId;
  /** The restoring agent's task-list tools (its adapter's `capabilities.taskTools`). */
  taskTools?: readonly string[];
  /** The session began with `/clear` (SessionStart source `clear`). */
  afterClear?: boolean;
};

/**
 * The restore's first line says what happened: a compaction, a crash, a handoff, a `/clear` —
 * the agent reads it before anything else, and "interrupted" is true of only some of them.
 */
export function restoreHeading(
  checkpointNumber: number,
  reason: ResumeDetection['interruptionReason'] | null,
  options: { afterClear?: boolean } = {},
): string {
  const which = `(shim checkpoint #${checkpointNumber})`;
  switch (reason) {
    case 'compaction':
      return `# Continuing after compaction ${which}`;
    case 'crash':
      return `# Resuming after a crash ${which}`;
    case 'timeout':
      return `# Resuming after the session stopped responding ${which}`;
    case 'manual_exit':
      return `# Resuming work left open at exit ${which}`;
    case 'usage_limit':
      return `# Resuming after the usage limit ${which}`;
    case 'handoff':
      return options.afterClear
        ? `# Picking up your handoff after /clear ${which}`
        : `# Picking up your handoff ${which}`;
    case 'unknown':
    case null:
      return `# Resuming interrupted work ${which}`;
  }
}

/** Instructions first and last, then what to act on, then what explains it. */
export const RESUME_PROMPT_LAYOUT: readonly LayoutGroup[] = [
  { heading: null, ids: ['situation'] },
  { heading: 'How to continue', ids: ['instructions'] },
  { heading: 'What the user asked', ids: ['requests'] },
  { heading: 'Tasks', ids: ['tasks'] },
  { heading: 'Pending operations: check these first', ids: ['pending'] },
  { heading: 'Last checks', ids: ['checks'] },
  { heading: 'Blockers', ids: ['blockers'] },
  { heading: 'Next steps', ids: ['nextSteps'] },
  { heading: 'Where the work stands', ids: ['summary', 'done'] },
  { heading: 'Key decisions', ids: ['decisions'] },
  { heading: 'Files', ids: ['snapshot', 'files', 'diff'] },
  { heading: 'Read first', ids: ['reload'] },
  { heading: 'User preferences', ids: ['preferences'] },
  { heading: 'Recent tool activity', ids: ['toolErrors', 'toolSessions', 'toolCalls'] },
  { heading: 'Recent messages', ids: ['messages'] },
  { heading: null, ids: ['closing'] },
];

const SECTION_NAMES: Record<string, string> = {
  conversationState: 'the conversation',
  taskState: 'the tasks',
  fileState: 'the files',
  toolState: 'the tool activity',
  userPreferences: 'the preferences',
};

/** Said at the top when parts of the checkpoint were replaced by stand-ins (seal-checkpoint). */
function partialNote(checkpoint: Checkpoint): string {
  const parts = checkpoint.source.partial ?? [];
  if (parts.length === 0) return '';
  return `\n\n> shim could not process ${parts.map((p) => SECTION_NAMES[p] ?? p).join(', ')} of this session; that part was left out. Read the transcript or ask the user for it.`;
}

export function renderResumePrompt(
  checkpoint: Checkpoint,
  detection: ResumeDetection | null,
  options?: ResumePromptOptions,
): string {
  return renderWithinBudget({
    head: `${restoreHeading(checkpoint.checkpointNumber, detection?.interruptionReason ?? null, {
      afterClear: options?.afterClear ?? false,
    })}${partialNote(checkpoint)}`,
    layout: RESUME_PROMPT_LAYOUT,
    sections: buildSections(checkpoint, detection, {
      diffChars: RESUME_PROMPT_DIFF_CHARS,
      ...(options?.compactSummary ? { compactSummary: options.compactSummary } : {}),
      ...(options?.forAgent ? { forAgent: options.forAgent } : {}),
      ...(options?.taskTools ? { taskTools: options.taskTools } : {}),
    }),
    maxChars: options?.maxChars ?? DEFAULT_RESUME_PROMPT_MAX_CHARS,
    checkpointId: checkpoint.id,
  });
}
