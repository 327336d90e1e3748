/**
 * A plan or spec in markdown, read as the steps of work it lists (issue 15: "will this fit?",
 * shards). Steps are a plan's own units: its checklist or numbered items when it has them (each
 * with everything nested under it), else its sections, else its bullets; what is not a step —
 * the title, the goal, constraints, context sections — is the plan's shared context, which every
 * shard carries. Fenced code is text of the step it stands in, never parsed. Pure.
 * @module
 */

export type StepKind = 'checklist' | 'numbered' | 'section' | 'bullet' | 'whole';

export type PlanStep = {
  /** 1-based, in document order. */
  index: number;
  title: string;
  /** The step's own markdown, nested items and code included. */
  body: string;
  /** The headings it stands under, outermost first. */
  sections: string[];
  kind: StepKind;
  /** A checked box: already done. Null for steps without a box. */
  done: boolean | null;
  /** 1-based line of the step's first line. */
  line: number;
};

export type Plan = {
  title: string | null;
  /** Everything that is not a step (goal, constraints, context), in document order. */
  shared: string;
  steps: PlanStep[];
};

type Line = { text: string; n: number; code: boolean };

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const ITEM = /^(\s*)([-*+]|\d{1,3}[.)])\s+(?:\[([ xX])\]\s+)?(.*)$/;
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
/** Section titles that give context rather than work. */
const CONTEXT_TITLE =
  /^(?:goal|goals|context|background|constraints?|overview|summary|notes?|requirements|non-goals|scope|out of scope|references?|motivation|why|problem|assumptions|risks|open questions|acceptance criteria|definition of done)\b/i;

/** The lines, each marked when it is inside fenced code (fences included). */
function readLines(markdown: string): Line[] {
  const lines: Line[] = [];
  let fence: string | null = null;
  markdown.split(/\r?\n/).forEach((text, i) => {
    const opening = FENCE.exec(text)?.[1];
    if (fence === null && opening) {
      fence = opening;
      lines.push({ text, n: i + 1, code: true });
    } else if (fence !== null) {
      if (
        opening &&
        opening[0] === fence[0] &&
        opening.length >= fence.length &&
        /^\s*[`~]+\s*$/.test(text)
      )
        fence = null;
      lines.push({ text, n: i + 1, code: true });
    } else {
      lines.push({ text, n: i + 1, code: false });
    }
  });
  return lines;
}

const indentOf = (text: string) => (/^\s*/.exec(text)?.[0] ?? '').replace(/\t/g, '    ').length;

type Item = {
  at: number;
  indent: number;
  kind: 'checklist' | 'numbered' | 'bullet';
  done: boolean | null;
  title: string;
};

function findItems(lines: Line[]): Item[] {
  const items: Item[] = [];
  lines.forEach((line, at) => {
    if (line.code) return;
    const m = ITEM.exec(line.text);
    if (!m) return;
    const box = m[3];
    items.push({
      at,
      indent: indentOf(m[1] ?? ''),
      kind: box !== undefined ? 'checklist' : /\d/.test(m[2] ?? '') ? 'numbered' : 'bullet',
      done: box === undefined ? null : box !== ' ',
      title: (m[4] ?? '').trim(),
    });
  });
  return items;
}

/** The headings in force at each line. */
function sectionsAt(lines: Line[]): string[][] {
  const path: Array<{ level: number; title: string }> = [];
  return lines.map((line) => {
    const m = line.code ? null : HEADING.exec(line.text);
    if (m) {
      const level = m[1]!.length;
      while (path.length > 0 && path[path.length - 1]!.level >= level) path.pop();
      path.push({ level, title: m[2]!.trim() });
    }
    return path.map((h) => h.title);
  });
}

/**
 * Where a list item's step ends: at the next item at its indent or less, a heading, or a line
 * back at the item's margin after a blank line (a paragraph after the list).
 */
function itemEnd(lines: Line[], start: number, indent: number): number {
  let blank = false;
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.code) {
      blank = false;
      continue;
    }
    if (line.text.trim() === '') {
      blank = true;
      continue;
    }
    if (HEADING.test(line.text)) return i;
    const item = ITEM.exec(line.text);
    if (item && indentOf(item[1] ?? '') <= indent) return i;
    if (blank && indentOf(line.text) <= indent) return i;
    blank = false;
  }
  return lines.length;
}

const join = (lines: Line[]) =>
  lines
    .map((l) => l.text)
    .join('\n')
    .replace(/^\n+|\s+$/g, '');

export function parsePlan(markdown: string): Plan {
  const lines = readLines(markdown);
  const sections = sectionsAt(lines);
  const firstHeading = lines.find((l) => !l.code && /^#\s/.test(l.text));
  const title = firstHeading ? (HEADING.exec(firstHeading.text)?.[2]?.trim() ?? null) : null;
  const inStep = new Array<boolean>(lines.length).fill(false);
  const steps: PlanStep[] = [];
  const add = (
    from: number,
    to: number,
    kind: StepKind,
    stepTitle: string,
    done: boolean | null,
  ) => {
    for (let i = from; i < to; i++) inStep[i] = true;
    steps.push({
      index: 0,
      title: stepTitle,
      body: join(lines.slice(from, to)),
      sections: (sections[from] ?? []).filter((s) => s !== title),
      kind,
      done,
      line: lines[from]!.n,
    });
  };

  const items = findItems(lines);
  const work = items.filter((i) => i.kind !== 'bullet');
  const chosen = work.length > 0 ? work : items;
  if (chosen.length > 0) {
    // The outermost items of the chosen kind are the steps; deeper ones belong to them.
    const margin = Math.min(...chosen.map((i) => i.indent));
    let covered = -1;
    for (const item of chosen) {
      if (item.indent !== margin || item.at < covered) continue;
      const end = itemEnd(lines, item.at, item.indent);
      add(item.at, end, item.kind, item.title, item.done);
      covered = end;
    }
  } else {
    // No lists: the sections that are not context are the steps, at their deepest level.
    const heads = lines
      .map((l, at) => ({ at, m: l.code ? null : HEADING.exec(l.text) }))
      .filter((h): h is { at: number; m: RegExpExecArray } => h.m !== null && h.m[1]!.length > 1);
    heads.forEach((h, k) => {
      const level = h.m[1]!.length;
      const next = heads.slice(k + 1).find((o) => o.m[1]!.length <= level)?.at ?? lines.length;
      const child = heads[k + 1];
      const hasSub = child !== undefined && child.at < next && child.m[1]!.length > level;
      if (hasSub || CONTEXT_TITLE.test(h.m[2]!.trim())) return;
      add(h.at, next, 'section', h.m[2]!.trim(), null);
    });
    if (steps.length === 0) {
      const body = lines.filter((l) => l !== firstHeading);
      if (join(body) !== '') add(0, lines.length, 'whole', title ?? 'the plan', null);
    }
  }
  steps.sort((a, b) => a.line - b.line).forEach((s, i) => (s.index = i + 1));
  // A heading over steps only is carried by the steps themselves (PlanStep.sections).
  const headingOfStepsOnly = (at: number) => {
    for (let i = at + 1; i < lines.length; i++) {
      const line = lines[i]!;
      if (!line.code && HEADING.test(line.text)) return true;
      if (!inStep[i] && line.text.trim() !== '') return false;
    }
    return true;
  };
  const shared = lines.filter((line, i) => {
    if (inStep[i]) return false;
    const heading = line.code ? null : HEADING.exec(line.text);
    return !heading || heading[1] === '#' || !headingOfStepsOnly(i);
  });
  return { title, shared: join(shared), steps };
}

/** Paths a text names: `backticked` ones and words like src/app/x.ts. */
export function mentionedFiles(text: string): string[] {
  const found = new Set<string>();
  const add = (path: string) => found.add(path.replace(/^\.\//, '').replace(/[:#].*$/, ''));
  for (const m of text.matchAll(/`([^`\s]+)`/g)) if (looksLikePath(m[1]!)) add(m[1]!);
  for (const m of text.matchAll(/(?<![\w/.:-])((?:[\w.-]+\/)+[\w.-]+\.[A-Za-z0-9]{1,8})(?![\w/])/g))
    add(m[1]!);
  return [...found];
}

function looksLikePath(word: string): boolean {
  if (/^[a-z]+:\/\//i.test(word)) return false;
  return /\.[A-Za-z0-9]{1,8}(?::\d+)?$/.test(word) && /^[\w./-]+(?::\d+)?$/.test(word);
}
