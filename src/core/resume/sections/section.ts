/**
 * A section of a resume prompt or handoff: its id, priority and variants, fullest first.
 * @module
 */
import type { AgentId } from '../../agent-id.ts';
export type SectionId =
  | 'situation'
  | 'instructions'
  | 'requests'
  | 'tasks'
  | 'snapshot'
  | 'pending'
  | 'checks'
  | 'blockers'
  | 'nextSteps'
  | 'summary'
  | 'files'
  | 'reload'
  | 'preferences'
  | 'decisions'
  | 'done'
  | 'toolErrors'
  | 'toolSessions'
  | 'diff'
  | 'toolCalls'
  | 'messages'
  | 'closing';

export type Section = {
  id: SectionId;
  /** Higher survives longer when the document is over budget. */
  priority: number;
  /** Markdown bodies without a heading, fullest first; '' omits the section. */
  variants: string[];
};

export type Sections = Partial<Record<SectionId, Section>>;

/** One heading (null: none) over the bodies of some sections, in order. */
export type LayoutGroup = { heading: string | null; ids: SectionId[] };

export type SectionOptions = {
  /** Characters of the uncommitted diff shown in full (the rest is summarised by a diffstat). */
  diffChars: number;
  /**
   * Files or CLAUDE.md sections the next session should re-read (docs/specification.md, "Handoff document"); by default
   * the CLAUDE.md headings and the files in play, from the checkpoint.
   */
  contextToReload?: readonly string[];
  /** Claude Code's own compaction summary, when restoring after a compaction: what it lacks is named. */
  compactSummary?: string | null;
  /** The agent the restore is for; when it is not the checkpoint's, the restore says so. */
  forAgent?: AgentId;
  /** The restoring agent's task-list tools (its adapter's capabilities); unnamed when absent. */
  taskTools?: readonly string[];
};

/** Priorities: what a fresh agent can least do without survives longest. */
export const SECTION_PRIORITY: Record<SectionId, number> = {
  /** Its short variant goes before the requests or the tasks lose anything. */
  situation: 94,
  instructions: 100,
  closing: 100,
  requests: 96,
  tasks: 95,
  snapshot: 93,
  pending: 90,
  checks: 88,
  blockers: 89,
  nextSteps: 85,
  summary: 80,
  files: 75,
  reload: 74,
  preferences: 72,
  decisions: 70,
  done: 60,
  toolErrors: 55,
  toolSessions: 50,
  diff: 30,
  toolCalls: 25,
  messages: 20,
};

// ---------------------------------------------------------------------------------------------
// Markdown helpers

export function section(id: SectionId, variants: string[]): Section | undefined {
  const bodies: string[] = [];
  for (const v of variants) if (bodies[bodies.length - 1] !== v) bodies.push(v);
  if (bodies.length === 0 || bodies[0] === '') return undefined;
  return { id, priority: SECTION_PRIORITY[id], variants: bodies };
}
