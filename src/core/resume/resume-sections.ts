/**
 * The sections of a resume prompt and of a handoff document, written once and laid out by both
 * renderers (`resume-prompt.ts`, `handoff.ts`), and the budget fitting they share.
 *
 * Every section has a priority and a list of variants, fullest first. When a document is over its
 * budget, the lowest-priority section still able to shrink moves to its next variant, until the
 * document fits: recent messages, tool calls and the diff go first; the user's requests and the
 * task list come last and never disappear (their smallest variants still list every request and
 * every task). An empty variant means the section is omitted; empty sections are never printed.
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
  buildPending,
  buildPreferences,
  buildReload,
  buildSummary,
} from './sections/progress.ts';
import {
  buildClosing,
  buildDiff,
  buildFiles,
  buildMessages,
  buildSnapshot,
  buildToolCalls,
  buildToolErrors,
  buildToolSessions,
} from './sections/files-and-tools.ts';
import type {
  LayoutGroup,
  Section,
  SectionId,
  SectionOptions,
  Sections,
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
    buildChecks(checkpoint),
    buildBlockers(checkpoint),
    buildNextSteps(checkpoint),
    buildSummary(checkpoint),
    buildFiles(checkpoint),
    buildReload(checkpoint, options),
    buildPreferences(checkpoint),
    buildDecisions(checkpoint),
    buildDone(checkpoint),
    buildToolErrors(checkpoint),
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
  maxChars: number;
  /** Named in the note printed when even the smallest variants do not fit. */
  checkpointId: string;
};

/**
 * Renders `layout` within `maxChars`, shrinking the lowest-priority sections first. If even the
 * smallest variants are over (only with absurd limits or unlimited checkpoints), the end is cut
 * at a line boundary with a note saying so.
 */
export function renderWithinBudget(input: FitInput): string {
  const { head, layout, sections, maxChars } = input;
  const choice = new Map<SectionId, number>();
  const ids = layout.flatMap((g) => g.ids).filter((id) => sections[id] !== undefined);
  const render = () => {
    const body = renderLayout(layout, sections, choice);
    return `${[head, body].filter((x) => x !== '').join('\n\n')}\n`;
  };
  let text = render();
  while (text.length > maxChars) {
    let victim: Section | null = null;
    for (const id of ids) {
      const s = sections[id];
      if (s === undefined || (choice.get(id) ?? 0) >= s.variants.length - 1) continue;
      if (victim === null || s.priority < victim.priority) victim = s;
    }
    if (victim === null) break;
    choice.set(victim.id, (choice.get(victim.id) ?? 0) + 1);
    text = render();
  }
  if (text.length <= maxChars) {
    // The last cut may have freed more room than needed: give it back, most important first.
    const shrunk = ids
      .filter((id) => (choice.get(id) ?? 0) > 0)
      .sort((a, b) => (sections[b]?.priority ?? 0) - (sections[a]?.priority ?? 0));
    for (const id of shrunk) {
      for (let v = (choice.get(id) ?? 0) - 1; v >= 0; v--) {
        const kept = choice.get(id) ?? 0;
        choice.set(id, v);
        const grown = render();
        if (grown.length > maxChars) {
          choice.set(id, kept);
          break;
        }
        text = grown;
      }
    }
    return text;
  }
  const note = `\n\n… (cut to fit ${maxChars} characters; the full state is in checkpoint ${input.checkpointId})\n`;
  const room = Math.max(0, maxChars - note.length);
  const cut = text.lastIndexOf('\n', room);
  return `${text.slice(0, cut > room / 2 ? cut : room)}${note}`.slice(0, maxChars);
}
