/**
 * The one restore renderer (docs/specification.md, "Resume"): the markdown every restore injects
 * — at session start after a crash or a handoff, after a compaction, before Gemini compresses,
 * in `shim show`, the dashboard, `shim resume --print --for`, the loop's switch of agent and a
 * restore pulled from the team store — so that the next session carries on without asking.
 *
 * Fed by a checkpoint of whatever agent and store the work came from, and by the agent it goes
 * into as a value ({@link RestoreTarget}: its name, hook text limit, task tools, instruction
 * files). It says what happened, how to continue, where the work was (the call in flight, the
 * last commands, the newest failure, the files changed: from the tool calls, never a summary),
 * every request whole, the task list, then what explains it.
 *
 * Sized by priority: usually at most {@link USUAL_RESTORE_CHARS}; only the essential parts may
 * take it further, up to the target's hook text limit (resume-sections.ts).
 * @module
 */
import type { Checkpoint } from '../checkpoint/checkpoint.ts';
import type { ResumeDetection } from './resume.ts';
import type { RestoreTarget } from './restore-target.ts';
import { buildSections, renderWithinBudget, type LayoutGroup } from './resume-sections.ts';

/**
 * The usual size of a restore (≈ 2,000 tokens): every headline part of a typical session fits,
 * and a fresh context is not spent on what the tool calls and the files already say.
 */
export const USUAL_RESTORE_CHARS = 7_500;

/** Diff characters shown in the restore: the agent can run `git diff` for the rest. */
export const RESUME_PROMPT_DIFF_CHARS = 3_000;

export type RestoreRequest = {
  checkpoint: Checkpoint;
  /** Why the work stopped (null: only that a checkpoint holds it). */
  detection: ResumeDetection | null;
  /** The agent the restore goes into. */
  target: RestoreTarget;
  /** The agent's own summary, when restoring after its compaction: what it lacks is named. */
  compactSummary?: string | null;
  /** The session began with `/clear` (SessionStart source `clear`). */
  afterClear?: boolean;
  /** A hard limit below the target's (a caller with less room than a hook). */
  maxChars?: number;
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
    case 'relay':
      return `# Carrying the work on after /clear (relay) ${which}`;
    case 'handoff':
      return options.afterClear
        ? `# Picking up your handoff after /clear ${which}`
        : `# Picking up your handoff ${which}`;
    case 'unknown':
    case null:
      return `# Resuming interrupted work ${which}`;
  }
}

/** Instructions first and last, then the moment it stopped, what to act on, what explains it. */
export const RESUME_PROMPT_LAYOUT: readonly LayoutGroup[] = [
  { heading: null, ids: ['situation'] },
  { heading: 'How to continue', ids: ['instructions'] },
  {
    heading: 'Where you were',
    ids: ['pending', 'commands', 'failure', 'checks', 'blockers', 'files', 'snapshot'],
  },
  { heading: 'What the user asked', ids: ['requests'] },
  { heading: 'Tasks', ids: ['tasks'] },
  { heading: 'Next steps', ids: ['nextSteps'] },
  { heading: 'Where the work stands', ids: ['summary', 'done'] },
  { heading: 'Key decisions', ids: ['decisions'] },
  { heading: 'Uncommitted changes', ids: ['diff'] },
  { heading: 'Read first', ids: ['reload'] },
  { heading: 'User preferences', ids: ['preferences'] },
  { heading: 'Recent tool activity', ids: ['toolSessions', 'toolCalls'] },
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

/** The restore of `request.checkpoint` for `request.target`: the one text every door injects. */
export function renderRestore(request: RestoreRequest): string {
  const { checkpoint, detection, target } = request;
  return renderWithinBudget({
    head: `${restoreHeading(checkpoint.checkpointNumber, detection?.interruptionReason ?? null, {
      afterClear: request.afterClear ?? false,
    })}${partialNote(checkpoint)}`,
    layout: RESUME_PROMPT_LAYOUT,
    sections: buildSections(checkpoint, detection, {
      diffChars: RESUME_PROMPT_DIFF_CHARS,
      ...(request.compactSummary ? { compactSummary: request.compactSummary } : {}),
      target,
    }),
    maxChars: Math.min(request.maxChars ?? target.textLimit, target.textLimit),
    usualChars: USUAL_RESTORE_CHARS,
    checkpointId: checkpoint.id,
  });
}
