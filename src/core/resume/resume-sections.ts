/**
 * The sections of a resume prompt and of a handoff document, written once and laid out by both
 * renderers (`resume-prompt.ts`, `handoff.ts`), and the budget fitting they share.
 *
 * Every section has a priority and a list of variants, fullest first. A document has two sizes:
 * the usual one and a hard limit. Sections below `ESSENTIAL_PRIORITY` (messages, tool calls, the
 * diff, decisions, the summary…) shrink, lowest priority first, until the document is within the
 * usual size; the essential ones (the call in flight, the requests, the tasks, the last commands,
 * the newest failure, the files) shrink only past the hard limit, so they keep their room in a
 * long session. An empty variant means the section is omitted; empty sections are never printed.
 * @module
 */
import type { Checkpoint } from '../checkpoint/checkpoint.ts';
import type { ResumeDetection } from './resume.ts';
import {
  buildBlockers,
  buildChecks,
  buildDecisions,
  buildDone,
  buildNextSteps,
  buildPreferences,
  buildReload,
  buildSummary,
} from './sections/progress.ts';
import { buildCommands, buildFailure, buildPending } from './sections/where-you-were.ts';
import {
  buildClosing,
  buildDiff,
  buildFiles,
  buildMessages,
  buildSnapshot,
  buildToolCalls,
  buildToolSessions,
} from './sections/files-and-tools.ts';
import {
  ESSENTIAL_PRIORITY,
  type LayoutGroup,
  type Section,
  type SectionId,
  type SectionOptions,
  type Sections,
} from './sections/section.ts';
import {
  buildInstructions,
  buildRequests,
  buildSituation,
  buildTasks,
} from './sections/situation.ts';

export type { LayoutGroup, SectionOptions } from './sections/section.ts';
export { code, fence, oneLine } from './sections/text.ts';
export { diffStat } from './sections/files-and-tools.ts';

/** Every section of `checkpoint` that has something to say. */
export function buildSections(
  checkpoint: Checkpoint,
  detection: ResumeDetection | null,
  options: SectionOptions,
): Sections {
  const built = [
    buildSituation(checkpoint, detection, options),
    buildInstructions(checkpoint, options),
    buildRequests(checkpoint),
    buildTasks(checkpoint),
    buildSnapshot(checkpoint),
    buildPending(checkpoint),
    buildCommands(checkpoint),
    buildFailure(checkpoint),
    buildChecks(checkpoint),
    buildBlockers(checkpoint),
    buildNextSteps(checkpoint),
    buildSummary(checkpoint),
    buildFiles(checkpoint),
    buildReload(checkpoint, options),
    buildPreferences(checkpoint),
    buildDecisions(checkpoint),
    buildDone(checkpoint),
    buildToolSessions(checkpoint),
    buildDiff(checkpoint, options.diffChars),
    buildToolCalls(checkpoint),
    buildMessages(checkpoint),
    buildClosing(checkpoint),
  ];
  const sections: Sections = {};
  for (const s of built) if (s !== undefined) sections[s.id] = s;
  return sections;
}

// ---------------------------------------------------------------------------------------------
// Layout and budget

function renderLayout(
  layout: readonly LayoutGroup[],
  sections: Sections,
  choice: ReadonlyMap<SectionId, number>,
): string {
  const groups: string[] = [];
  for (const group of layout) {
    const bodies = group.ids
      .map((id) => sections[id]?.variants[choice.get(id) ?? 0] ?? '')
      .filter((b) => b !== '');
    if (bodies.length === 0) continue;
    groups.push(
      [...(group.heading !== null ? [`## ${group.heading}`] : []), ...bodies].join('\n\n'),
    );
  }
  return groups.join('\n\n');
}

export type FitInput = {
  /** Printed first and never cut (a title, front-matter). */
  head: string;
  layout: readonly LayoutGroup[];
  sections: Sections;
  /** The hard limit. */
  maxChars: number;
  /** The usual size: only essential sections may take the document past it (default: maxChars). */
  usualChars?: number;
  /** Named in the note printed when even the smallest variants do not fit. */
  checkpointId: string;
};

/**
 * Renders `layout` within the usual size, then the hard limit, shrinking the lowest-priority
 * sections first (at the usual size only those below `ESSENTIAL_PRIORITY`). If even the smallest
 * variants are over the hard limit (only with absurd limits or unlimited checkpoints), the end is
 * cut at a line boundary with a note saying so.
 */
export function renderWithinBudget(input: FitInput): string {
  const { head, layout, sections, maxChars } = input;
  const usual = Math.min(input.usualChars ?? maxChars, maxChars);
  const choice = new Map<SectionId, number>();
  const ids = layout.flatMap((g) => g.ids).filter((id) => sections[id] !== undefined);
  const render = () => {
    const body = renderLayout(layout, sections, choice);
    return `${[head, body].filter((x) => x !== '').join('\n\n')}\n`;
  };
  const essential = (s: Section) => s.priority >= ESSENTIAL_PRIORITY;
  let text = render();
  const shrink = (limit: number, may: (s: Section) => boolean) => {
    while (text.length > limit) {
      let victim: Section | null = null;
      for (const id of ids) {
        const s = sections[id];
        if (s === undefined || !may(s) || (choice.get(id) ?? 0) >= s.variants.length - 1) continue;
        if (victim === null || s.priority < victim.priority) victim = s;
      }
      if (victim === null) return;
      choice.set(victim.id, (choice.get(victim.id) ?? 0) + 1);
      text = render();
    }
  };
  shrink(usual, (s) => !essential(s));
  shrink(maxChars, () => true);
  if (text.length <= maxChars) {
    // The last cut may have freed more room than needed: give it back, most important first,
    // each section up to the size it may take.
    const shrunk = ids
      .filter((id) => (choice.get(id) ?? 0) > 0)
      .sort((a, b) => (sections[b]?.priority ?? 0) - (sections[a]?.priority ?? 0));
    // A section takes room back only while every more important one has all of its own.
    for (const id of shrunk) {
      const bound = essential(sections[id]!) ? maxChars : usual;
      for (let v = (choice.get(id) ?? 0) - 1; v >= 0; v--) {
        const kept = choice.get(id) ?? 0;
        choice.set(id, v);
        const grown = render();
        if (grown.length > bound) {
          choice.set(id, kept);
          break;
        }
        text = grown;
      }
      if ((choice.get(id) ?? 0) > 0) break;
    }
    return text;
  }
  const note = `\n\n… (cut to fit ${maxChars} characters; the full state is in checkpoint ${input.checkpointId})\n`;
  const room = Math.max(0, maxChars - note.length);
  const cut = text.lastIndexOf('\n', room);
  return `${text.slice(0, cut > room / 2 ? cut : room)}${note}`.slice(0, maxChars);
}
