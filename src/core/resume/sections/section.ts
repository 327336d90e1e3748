/**
 * A section of a resume prompt or handoff: its id, priority and variants, fullest first.
 * @module
 */
import type { RestoreTarget } from '../restore-target.ts';
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
  | 'commands'
  | 'failure'
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
   * Files or instruction-file sections the next session should re-read (docs/specification.md, "Handoff document"); by
   * default the headings of the agent's instruction files (CLAUDE.md, AGENTS.md, GEMINI.md) and the files in play.
   */
  contextToReload?: readonly string[];
  /** The agent's own compaction summary (Claude Code hands it over), after a compaction: what it lacks is named. */
  compactSummary?: string | null;
  /**
   * The agent the restore goes into (a handoff document has none): named when it is not the
   * checkpoint's, its task tools and instruction files named for the next steps.
   */
  target?: RestoreTarget;
};

/**
 * Priorities: what a fresh agent can least do without survives longest. From
 * {@link ESSENTIAL_PRIORITY} up a section is the restore's core: it gives room only when the
 * whole text is over the agent's hard limit, never to stay under the usual size.
 */
export const SECTION_PRIORITY: Record<SectionId, number> = {
  instructions: 100,
  closing: 100,
  /** The call in flight: what the next session must check before anything else. */
  pending: 98,
  requests: 96,
  tasks: 95,
  commands: 93,
  failure: 92,
  snapshot: 91,
  files: 90,
  checks: 88,
  blockers: 89,
  /** Its short variant (what happened, when) is all a fresh agent needs of it. */
  situation: 86,
  nextSteps: 85,
  reload: 74,
  preferences: 72,
  decisions: 70,
  done: 60,
  summary: 45,
  toolSessions: 50,
  diff: 30,
  toolCalls: 25,
  messages: 20,
};

/** Sections from this priority up are never shrunk to reach the usual size, only the hard limit. */
export const ESSENTIAL_PRIORITY = 90;

// ---------------------------------------------------------------------------------------------
// Markdown helpers

export function section(id: SectionId, variants: string[]): Section | undefined {
  const bodies: string[] = [];
  for (const v of variants) if (bodies[bodies.length - 1] !== v) bodies.push(v);
  if (bodies.length === 0 || bodies[0] === '') return undefined;
  return { id, priority: SECTION_PRIORITY[id], variants: bodies };
}
