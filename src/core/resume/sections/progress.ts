/**
 * The sections about progress and what to do next: summary, done and next steps, blockers, decisions, preferences, the last checks and what to re-read.
 * @module
 */
import type { Checkpoint } from '../../checkpoint/checkpoint.ts';
import { truncate } from '../../truncate.ts';
import { section, type Section, type SectionOptions } from './section.ts';
import { bullets, code, fence, first, newest, oneLine, plural, uniq } from './text.ts';
import { openTasks, taskLabel } from './situation.ts';

export function buildSummary(c: Checkpoint): Section | undefined {
  const t = c.taskState;
  const cs = c.conversationState;
  const operation =
    t.operation.trim() !== ''
      ? `Operation: ${oneLine(t.operation)}${t.phase.trim() !== '' ? `, phase ${oneLine(t.phase)}` : ''} (about ${Math.round(t.progress * 100)}% complete).`
      : null;
  const focus =
    cs.currentContext.trim() !== '' ? `Current focus: ${cs.currentContext.trim()}` : null;
  const summary = cs.summary.trim() !== '' ? `Summary: ${cs.summary.trim()}` : null;
  const join = (parts: Array<string | null>) => parts.filter((x) => x !== null).join('\n\n');
  return section('summary', [join([operation, focus, summary]), join([operation, focus]), '']);
}

export function buildDone(c: Checkpoint): Section | undefined {
  const steps = c.taskState.completedSteps.map(oneLine);
  if (steps.length === 0) return undefined;
  const render = (max: number) =>
    `Done so far (oldest first):\n${bullets(newest(steps, max, 'steps'))}`;
  return section('done', [render(40), render(10), '']);
}

export function buildNextSteps(c: Checkpoint): Section | undefined {
  const steps = c.taskState.nextSteps.map(oneLine).filter((s) => s !== '');
  if (steps.length > 0) {
    const render = (max: number, chars: number) =>
      first(
        steps.map((s, i) => `${i + 1}. ${truncate(s, chars)}`),
        max,
      ).join('\n');
    return section('nextSteps', [render(20, 300), render(5, 150), render(2, 100), '']);
  }
  const open = openTasks(c);
  const next = open.find((i) => i.status === 'in_progress') ?? open[0];
  if (next === undefined) return undefined;
  const rest = open.length - 1;
  return section('nextSteps', [
    `Continue with task ${taskLabel(next)}“${oneLine(next.content)}” (${next.status.replace(/_/g, ' ')})${
      rest > 0 ? `, then the ${plural(rest, 'other open task')} in list order` : ''
    }.`,
  ]);
}

export function buildBlockers(c: Checkpoint): Section | undefined {
  const blockers = c.taskState.blockers.map(oneLine).filter((b) => b !== '');
  if (blockers.length === 0) return undefined;
  return section('blockers', [
    bullets(blockers),
    bullets(blockers.map((b) => truncate(b, 120))),
    bullets(
      first(
        blockers.map((b) => truncate(b, 80)),
        3,
      ),
    ),
  ]);
}

export function buildDecisions(c: Checkpoint): Section | undefined {
  const decisions = c.conversationState.keyDecisions.map(oneLine).filter((d) => d !== '');
  if (decisions.length === 0) return undefined;
  const render = (max: number) => bullets(newest(decisions, max, 'decisions'));
  return section('decisions', [render(25), render(10), render(3), '']);
}

export function buildPreferences(c: Checkpoint): Section | undefined {
  const p = c.userPreferences;
  const custom = p.customInstructions?.trim() ?? '';
  const recent = p.recentPreferences?.trim() ?? '';
  if (custom === '' && recent === '') return undefined;
  const render = (max: number) =>
    [
      'Keep following these:',
      custom !== '' ? `Custom instructions:\n${fence(truncate(custom, max), 'text')}` : null,
      recent !== '' ? `Recent preferences:\n${fence(truncate(recent, max), 'text')}` : null,
    ]
      .filter((x) => x !== null)
      .join('\n\n');
  return section('preferences', [render(2000), render(400), '']);
}

/** The headings of the project instructions, as "§ Testing". */
export function instructionHeadings(text: string): string[] {
  const headings: string[] = [];
  let inFence = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const m = inFence ? null : /^#{1,3}\s+(.+?)\s*#*\s*$/.exec(line);
    if (m?.[1]) headings.push(m[1]);
  }
  return headings;
}

/**
 * HND-005: what the next session should read before it carries on — the project's instruction
 * sections and the files the work was in (changed first, then the most recently used).
 */
export function getContextToReload(
  c: Checkpoint,
  instructionFiles: readonly string[] = [],
): string[] {
  const items: string[] = [];
  const custom = c.userPreferences.customInstructions ?? '';
  if (custom.trim() !== '') {
    const headings = instructionHeadings(custom).slice(0, 8);
    const files =
      instructionFiles.length > 0 ? ` (${instructionFiles.map(code).join(' or ')})` : '';
    items.push(
      headings.length > 0
        ? `the project instructions${files}, sections: ${headings.map((h) => `§ ${h}`).join(', ')}`
        : `the project instructions${files}`,
    );
  }
  const changed = uniq(c.fileState.modifiedFiles.map((f) => f.replace(/ \(new\)$/, '')));
  const recent = uniq([...c.fileState.activeFiles].reverse()).filter((f) => !changed.includes(f));
  for (const f of [...changed.slice(0, 6), ...recent].slice(0, 8)) items.push(code(f));
  return items;
}

export function buildChecks(c: Checkpoint): Section | undefined {
  const checks = c.toolState.checks ?? [];
  if (checks.length === 0) return undefined;
  const time = (at: string) => (at.length >= 16 ? `${at.slice(11, 16)} UTC` : at);
  const render = (withOutput: boolean) =>
    `**Last checks**:\n${bullets(
      checks.map((k) => {
        const verdict =
          k.status === 'passing'
            ? 'passing'
            : k.status === 'failing'
              ? '**failing**'
              : '**interrupted** (it never finished: run it again)';
        // The newest failure shows its own output already.
        const shown = c.toolState.lastFailure?.input === k.command;
        const tail =
          withOutput && k.status === 'failing' && k.output && !shown
            ? `\n${fence(truncate(k.output, 300), 'text')}`
            : '';
        return `last ${k.kind} run ${code(k.command)}: ${verdict}, ${time(k.at)}${tail}`;
      }),
    )}`;
  // Under pressure the last commands' exit statuses say the same.
  return section('checks', [render(true), render(false), '']);
}

export function buildReload(c: Checkpoint, options: SectionOptions): Section | undefined {
  const items = (options.contextToReload ?? getContextToReload(c, options.target?.instructionFiles))
    .map(oneLine)
    .filter((s) => s !== '');
  if (items.length === 0) return undefined;
  return section('reload', [
    `Re-read before continuing:\n${bullets(items)}`,
    `Re-read before continuing:\n${bullets(items.slice(0, 3))}`,
    '',
  ]);
}
