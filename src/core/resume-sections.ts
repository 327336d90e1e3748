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
import type { Checkpoint } from './checkpoint.ts';
import { getCheckpointContextPercent, isOpenTaskStatus, formatDuration } from './resume.ts';
import type { ResumeDetection } from './resume.ts';
import { summarizeValue, truncate } from './truncate.ts';

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
   * Files or CLAUDE.md sections the next session should re-read (seed 004 HND-005); by default
   * the CLAUDE.md headings and the files in play, from the checkpoint.
   */
  contextToReload?: readonly string[];
  /** Claude Code's own compaction summary, when restoring after a compaction: what it lacks is named. */
  compactSummary?: string | null;
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

function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === char ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

/** A fenced block that `text` cannot close, whatever backticks it contains. */
export function fence(text: string, info = ''): string {
  const ticks = '`'.repeat(Math.max(3, longestRun(text, '`') + 1));
  return `${ticks}${info}\n${text.replace(/\n+$/, '')}\n${ticks}`;
}

/** An inline code span holding `text` on one line, whatever backticks it contains. */
export function code(text: string): string {
  const flat = oneLine(text);
  const ticks = '`'.repeat(longestRun(flat, '`') + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${flat}${pad}${ticks}`;
}

/** Collapses line breaks (and the spaces around them) to single spaces. */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

function bullets(items: readonly string[]): string {
  return items.map((i) => `- ${i}`).join('\n');
}

/** The newest `max` of `items` (oldest first), with a note of how many older ones were left out. */
function newest(items: readonly string[], max: number, what: string): string[] {
  if (items.length <= max) return [...items];
  const left = items.length - max;
  return [`(${left} earlier ${what} not shown)`, ...items.slice(-max)];
}

/** The first `max` of `items`, with a note of how many more there are. */
function first<T>(items: readonly T[], max: number): Array<T | string> {
  if (items.length <= max) return [...items];
  return [...items.slice(0, max), `… and ${items.length - max} more`];
}

function shortSha(sha: string | null): string | null {
  return sha === null ? null : sha.slice(0, 12);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function uniq(values: readonly string[]): string[] {
  return [...new Set(values)];
}

// ---------------------------------------------------------------------------------------------
// Section builders

function section(id: SectionId, variants: string[]): Section | undefined {
  const bodies: string[] = [];
  for (const v of variants) if (bodies[bodies.length - 1] !== v) bodies.push(v);
  if (bodies.length === 0 || bodies[0] === '') return undefined;
  return { id, priority: SECTION_PRIORITY[id], variants: bodies };
}

/** The first line of the situation: what happened, and when if known ("4 minutes ago"). */
function reasonLine(reason: ResumeDetection['interruptionReason'], ago: string): string {
  const when = ago === '' ? '' : ` ${ago}`;
  switch (reason) {
    case 'compaction':
      return `Claude Code compacted this conversation${when}. Its summary is lossy; the state below is exact, and where the two differ, trust this one.`;
    case 'crash':
      return `The previous session crashed${when}, before finishing its work.`;
    case 'timeout':
      return `The previous session stopped responding and timed out${when}, before finishing its work.`;
    case 'manual_exit':
      return `The user ended the previous session${when} while work was still open.`;
    case 'unknown':
      return `The previous session stopped${when} without a clean end (the cause is unknown).`;
    case 'handoff':
      return `The user wrote a handoff${when} (\`shim handoff\`) so that this session carries on the work.`;
  }
}

/** Folded, lower-cased opening words: how a request or task is recognised in another text. */
function needleOf(text: string): string {
  return oneLine(text).toLowerCase().slice(0, 60);
}

/** What Claude Code's summary does not carry that this restore does. */
function describeSummaryGaps(c: Checkpoint, summary: string): string | null {
  const haystack = oneLine(summary).toLowerCase();
  const requests = c.conversationState.userRequests;
  const lostRequests = requests.filter((r) => !haystack.includes(needleOf(r))).length;
  const open = openTasks(c);
  const lostTasks = open.filter((t) => !haystack.includes(needleOf(t.content))).length;
  const gaps: string[] = [];
  if (lostRequests > 0)
    gaps.push(`${lostRequests} of the user's ${plural(requests.length, 'request')} (verbatim)`);
  if (lostTasks > 0) gaps.push(`${lostTasks} of ${plural(open.length, 'open task')}`);
  if (c.toolState.checks?.length) gaps.push('the last check results');
  if (gaps.length === 0) return null;
  return `Claude Code's summary leaves out ${gaps.join(', ')}; they are below.`;
}

function buildSituation(
  c: Checkpoint,
  d: ResumeDetection | null,
  options: SectionOptions,
): Section | undefined {
  const percent = getCheckpointContextPercent(c);
  const reason = d?.interruptionReason ?? null;
  const lines: string[] = [];
  if (d === null) {
    lines.push('This continues work that shim saved in a checkpoint.');
  } else {
    const ago = d.timeSinceInterruption > 0 ? `${formatDuration(d.timeSinceInterruption)} ago` : '';
    lines.push(reasonLine(d.interruptionReason, ago));
  }
  const interrupted = c.toolState.pendingOperations.filter((op) => op.interrupted);
  if (interrupted.length > 0) {
    lines.push(
      `It stopped while ${interrupted.length === 1 ? 'this was running' : 'these were running'}: ${interrupted
        .map((op) => oneLine(truncate(op.description, 200)))
        .join('; ')} (see Pending operations).`,
    );
  }
  if (reason === 'compaction') {
    const gaps = options.compactSummary ? describeSummaryGaps(c, options.compactSummary) : null;
    lines.push(
      gaps ??
        "Summaries like Claude Code's tend to drop the user's later requests, exact task statuses and the last check results: all of them are below.",
    );
  }
  const core = lines.length + 1;
  lines.push(
    reason === 'compaction'
      ? `shim saved checkpoint #${c.checkpointNumber} (${code(c.id)}) of this session at ${c.createdAt}, as the compaction began (context was at ${percent}% of the auto-compact threshold; after the compaction it starts low again).`
      : `shim saved checkpoint #${c.checkpointNumber} (${code(c.id)}) of session ${code(c.sessionId)} at ${c.createdAt}: trigger ${code(c.triggeredBy)}, context at ${percent}% of the auto-compact threshold (level ${c.source.level}, risk ${c.signals.crashRisk}).`,
  );
  if (c.source.resumedFrom) {
    lines.push(
      `That session had itself been restored from session ${code(c.source.resumedFrom.sessionId)}: requests and open tasks marked "earlier session" come from there.`,
    );
  }
  const where = [
    c.source.cwd !== null ? `working directory ${code(c.source.cwd)}` : null,
    c.source.model !== null ? `model ${code(c.source.model)}` : null,
    c.source.cliVersion !== null ? `Claude Code ${c.source.cliVersion}` : null,
  ].filter((s) => s !== null);
  if (where.length > 0) lines.push(`Session: ${where.join(', ')}.`);
  // A compaction is not a guess: the detector's reasoning and the old risk would only mislead.
  if (d !== null && reason !== 'compaction')
    lines.push(`Detection (confidence ${d.confidence}): ${d.explanation}`);
  if (c.signals.riskFactors.length > 0 && reason !== 'compaction') {
    lines.push(`Risk factors at the checkpoint: ${c.signals.riskFactors.map(oneLine).join('; ')}.`);
  }
  if (percent >= 85 || reason === 'crash' || reason === 'compaction') {
    lines.push(
      'Context is the scarce resource here: work economically (read files in ranges, filter long command output, do not re-read what this summary already tells you).',
    );
  }
  return section('situation', [lines.join('\n'), lines.slice(0, core).join('\n')]);
}

function openTasks(c: Checkpoint) {
  return c.taskState.items.filter((i) => isOpenTaskStatus(i.status));
}

function taskLabel(item: Checkpoint['taskState']['items'][number]): string {
  return item.id !== undefined && item.id !== '' ? `#${item.id} ` : '';
}

function buildInstructions(c: Checkpoint): Section | undefined {
  const items = c.taskState.items;
  const pending = c.toolState.pendingOperations;
  const snapshot = c.fileState.snapshot;
  const lines: string[] = [
    'Continue the work from where it stopped. Do not start over, re-plan, or re-investigate what is recorded here as done.',
  ];
  if (items.length > 0) {
    lines.push(
      'Do not redo completed tasks ([x]). Carry on with the task in progress, then the open ones in list order, and keep the statuses up to date.',
      'If your task list is empty, recreate it from the list below (TodoWrite or TaskCreate) with the same statuses before continuing.',
    );
  }
  if (pending.length > 0) {
    lines.push(
      `First verify the ${plural(pending.length, 'pending operation')} below: each started but no result was recorded, so it may not have completed (or completed only in part). Check its effects before re-running it.`,
    );
  }
  if (c.taskState.blockers.length > 0) {
    lines.push('Read the blockers below before retrying anything that already failed.');
  }
  lines.push(
    "Do not ask the user to repeat or re-explain anything: their requests are quoted verbatim below. Ask only about something this checkpoint doesn't answer.",
  );
  if (snapshot !== null) {
    lines.push(
      `Check the working tree with ${code('git status')}: it should still hold the changes listed under Files. If they are missing, ${code(`shim restore-files ${c.id}`)} restores the files from the checkpoint's snapshot.`,
    );
  } else if (c.fileState.modifiedFiles.length > 0 || c.fileState.stagedFiles.length > 0) {
    lines.push(
      `Check the working tree with ${code('git status')}: it should still hold the changes listed under Files.`,
    );
  }
  if (c.source.transcriptPath !== null) {
    lines.push(
      `Exact details (code, error output) are in the previous transcript, ${code(c.source.transcriptPath)}: read only the parts you need.`,
    );
  }
  lines.push("If the user's next message asks for something different, do that instead.");
  return section('instructions', [lines.map((l, i) => `${i + 1}. ${l}`).join('\n')]);
}

function buildRequests(c: Checkpoint): Section | undefined {
  const requests = c.conversationState.userRequests;
  if (requests.length === 0) return undefined;
  const n = requests.length;
  const inherited = Math.min(n, c.conversationState.inheritedRequests ?? 0);
  const origin = (i: number) => (i < inherited ? ' (earlier session)' : '');
  const label = (i: number) =>
    `**Request ${i + 1} of ${n}**${origin(i)}${i === n - 1 ? ' (most recent)' : ''}`;
  /**
   * The first request (what the work is for) and the newest `recent` in fences, each cut to
   * `fullChars`; the ones between as one line each, cut to `olderChars` (their opening words).
   */
  const render = (recent: number, fullChars: number | null, olderChars: number | null) => {
    const fullFrom = n - recent;
    const blocks: string[] = [];
    let between: string[] = [];
    const flush = () => {
      if (between.length > 0) blocks.push(between.join('\n'));
      between = [];
    };
    requests.forEach((r, i) => {
      if (i === 0 || i >= fullFrom || olderChars === null) {
        flush();
        // The newest request is what the user wants now: it is never cut here.
        const cut = fullChars !== null && i < n - 1 && r.length > fullChars;
        blocks.push(
          `${label(i)}${cut ? ` (first ${fullChars} characters; the full text is in the transcript)` : ''}:\n${fence(cut ? truncate(r, fullChars) : r, 'text')}`,
        );
      } else {
        between.push(`- ${label(i)}: ${oneLine(truncate(r, olderChars))}`);
      }
    });
    flush();
    return [
      n === 1
        ? "The user's request, verbatim:"
        : `The user's ${n} requests, oldest first (the last is the most recent)${
            olderChars !== null && n > recent + 1
              ? '; the first and the newest verbatim, the others by their opening words'
              : ', verbatim'
          }:`,
      ...blocks,
    ].join('\n\n');
  };
  return section('requests', [
    render(n, null, null),
    render(3, 1500, 300),
    render(3, 800, 150),
    render(2, 500, 100),
    render(1, 300, 70),
    render(1, 200, 60),
  ]);
}

function buildTasks(c: Checkpoint): Section | undefined {
  const items = c.taskState.items;
  if (items.length === 0) return undefined;
  const counts = new Map<string, number>();
  for (const i of items) counts.set(i.status, (counts.get(i.status) ?? 0) + 1);
  const order = ['completed', 'in_progress', 'pending'];
  const statuses = [...counts.keys()].sort(
    (a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99),
  );
  const summary = `${plural(items.length, 'task')}: ${statuses
    .map((s) => `${counts.get(s)} ${s.replace(/_/g, ' ')}`)
    .join(', ')}.`;
  const render = (completedChars: number | null, allChars: number | null) => {
    const lines = items.map((item) => {
      const done = item.status === 'completed';
      const max = done ? (completedChars ?? allChars) : allChars;
      const text = oneLine(max === null ? item.content : truncate(item.content, max));
      const from = item.inherited ? ' (earlier session)' : '';
      if (done) return `- [x] ${taskLabel(item)}${text}${from}`;
      const status =
        item.status === 'pending'
          ? ''
          : item.status === 'in_progress'
            ? ' — **in progress**'
            : ` (status: ${item.status})`;
      return `- [ ] ${taskLabel(item)}${text}${status}${from}`;
    });
    return `${summary}\n\n${lines.join('\n')}`;
  };
  return section('tasks', [render(null, null), render(80, null), render(60, 120), render(40, 60)]);
}

function buildSnapshot(c: Checkpoint): Section | undefined {
  const f = c.fileState;
  const s = f.snapshot;
  if (s === null) {
    if (f.repoRoot === null) return undefined;
    return section('snapshot', [
      `No git snapshot was saved with this checkpoint, so shim cannot restore its files; check them with ${code('git status')} and ${code('git diff')}.`,
    ]);
  }
  const on = [
    s.branch !== null ? `on branch ${code(s.branch)}` : null,
    s.head !== null ? `at HEAD ${code(shortSha(s.head) ?? '')}` : 'before the first commit',
  ].filter((x) => x !== null);
  return section('snapshot', [
    [
      `Snapshot of the working tree at the checkpoint: ${code(s.ref)} (commit ${code(shortSha(s.commit) ?? '')}), taken ${on.join(' ')}.`,
      `To restore the files as they were at the checkpoint: ${code(`shim restore-files ${c.id}`)}`,
    ].join('\n'),
  ]);
}

/** A path in a code span; the " (new)" shim appends to untracked files stays outside it. */
function filePath(path: string): string {
  return path.endsWith(' (new)') ? `${code(path.slice(0, -6))} (new)` : code(path);
}

/** A path as short as it can be said: relative to the repository or the working directory. */
function shortPath(path: string, bases: ReadonlyArray<string | null>): string {
  for (const base of bases) {
    if (base !== null && path.startsWith(`${base}/`)) return path.slice(base.length + 1);
  }
  return path;
}

function buildFiles(c: Checkpoint): Section | undefined {
  const f = c.fileState;
  const bases = [f.repoRoot, c.source.cwd];
  const short = (paths: readonly string[]) => uniq(paths.map((p) => shortPath(p, bases)));
  const modified = short(f.modifiedFiles);
  const staged = short(f.stagedFiles);
  const inPlay = new Set([...modified, ...staged]);
  const active = short(f.activeFiles).filter((p) => !inPlay.has(p));
  if (modified.length + staged.length + active.length === 0) return undefined;
  // The snapshot section already names the branch and HEAD when there is one.
  const showGit = f.snapshot === null;
  const where = f.repoRoot ?? c.source.cwd;
  const repo =
    where !== null
      ? `${f.repoRoot !== null ? 'Repository' : 'Working directory'} ${code(where)}${showGit && f.branch !== null ? `, branch ${code(f.branch)}` : ''}${
          showGit && f.head !== null ? `, HEAD ${code(shortSha(f.head) ?? '')}` : ''
        }; paths below are relative to it.`
      : null;
  const list = (title: string, paths: string[], max: number) =>
    paths.length === 0
      ? null
      : `${title} (${paths.length}):\n${bullets(first(paths.map(filePath), max))}`;
  // Without git the list is the files the agent changed, oldest first: the newest matter most.
  const newest = (max: number) =>
    modified.length > max
      ? `Most recently changed: ${modified
          .slice(-max)
          .map((p) => code(p.replace(/ \(new\)$/, '')))
          .join(', ')}.`
      : null;
  const render = (max: number, withActive: boolean) =>
    [
      repo,
      list('Modified, not committed', modified, max),
      newest(max),
      list('Staged', staged, max),
      withActive ? list('Also in play (read or edited recently)', active, max) : null,
    ]
      .filter((x) => x !== null)
      .join('\n\n');
  return section('files', [
    render(50, true),
    render(15, true),
    render(5, false),
    [
      repo,
      `${modified.length} modified, ${staged.length} staged, ${active.length} other files in play (lists cut for size).`,
      newest(10) ??
        `Modified: ${modified.map((p) => code(p.replace(/ \(new\)$/, ''))).join(', ')}.`,
    ]
      .filter((x) => x !== null)
      .join('\n'),
  ]);
}

/** Per-file added/removed line counts of a unified diff. */
export function diffStat(diff: string): Array<{ file: string; added: number; removed: number }> {
  const stats: Array<{ file: string; added: number; removed: number }> = [];
  let current: { file: string; added: number; removed: number } | null = null;
  for (const line of diff.split('\n')) {
    const header = /^diff --git a\/(.+?) b\/(.+)$/.exec(line);
    if (header) {
      current = { file: header[2] ?? header[1] ?? '', added: 0, removed: 0 };
      stats.push(current);
    } else if (current !== null) {
      if (line.startsWith('+') && !line.startsWith('+++')) current.added++;
      else if (line.startsWith('-') && !line.startsWith('---')) current.removed++;
    }
  }
  return stats;
}

function buildDiff(c: Checkpoint, diffChars: number): Section | undefined {
  const diff = c.fileState.uncommittedDiff.replace(/\n+$/, '');
  if (diff.trim() === '') return undefined;
  const stat = diffStat(diff);
  const statText =
    stat.length > 0 ? bullets(stat.map((s) => `${code(s.file)} +${s.added} −${s.removed}`)) : null;
  const lead = `Uncommitted changes at the checkpoint (run ${code('git diff')} for the current state):`;
  const shown = diff.length > diffChars ? `${diff.slice(0, diffChars)}\n… (diff cut here)` : diff;
  return section('diff', [
    [lead, statText, fence(shown, 'diff')].filter((x) => x !== null).join('\n\n'),
    statText !== null ? `${lead}\n\n${statText}` : '',
    '',
  ]);
}

function buildSummary(c: Checkpoint): Section | undefined {
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

function buildDone(c: Checkpoint): Section | undefined {
  const steps = c.taskState.completedSteps.map(oneLine);
  if (steps.length === 0) return undefined;
  const render = (max: number) =>
    `Done so far (oldest first):\n${bullets(newest(steps, max, 'steps'))}`;
  return section('done', [render(40), render(10), '']);
}

function buildNextSteps(c: Checkpoint): Section | undefined {
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

function buildPending(c: Checkpoint): Section | undefined {
  const ops = c.toolState.pendingOperations;
  if (ops.length === 0) return undefined;
  const allInterrupted = ops.every((op) => op.interrupted);
  const render = (chars: number, max: number) =>
    [
      allInterrupted
        ? 'Interrupted: each was still running when the session stopped, so it did not finish. Check its side effects, then re-run it if it is still needed.'
        : 'Started but never finished: no result was recorded, so each may not have completed. Check its effects before re-running it.',
      bullets(
        first(ops, max).map((op) => {
          if (typeof op === 'string') return op;
          const main = `**${op.interrupted ? 'interrupted' : op.type}** ${oneLine(truncate(op.description, chars))} (started ${op.startedAt}, id ${code(op.id)})`;
          const resume =
            op.resumeWith.trim() !== ''
              ? `\n  To resume: ${oneLine(truncate(op.resumeWith, chars))}`
              : '';
          return main + resume;
        }),
      ),
    ].join('\n\n');
  return section('pending', [render(500, 50), render(150, 50), render(100, 5), render(60, 2)]);
}

function buildBlockers(c: Checkpoint): Section | undefined {
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

function buildDecisions(c: Checkpoint): Section | undefined {
  const decisions = c.conversationState.keyDecisions.map(oneLine).filter((d) => d !== '');
  if (decisions.length === 0) return undefined;
  const render = (max: number) => bullets(newest(decisions, max, 'decisions'));
  return section('decisions', [render(25), render(10), render(3), '']);
}

function buildPreferences(c: Checkpoint): Section | undefined {
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

/** The headings of project instructions (CLAUDE.md), as "CLAUDE.md § Testing". */
function instructionHeadings(text: string): string[] {
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
export function getContextToReload(c: Checkpoint): string[] {
  const items: string[] = [];
  const custom = c.userPreferences.customInstructions ?? '';
  if (custom.trim() !== '') {
    const headings = instructionHeadings(custom).slice(0, 8);
    items.push(
      headings.length > 0
        ? `CLAUDE.md, sections: ${headings.map((h) => `§ ${h}`).join(', ')}`
        : 'CLAUDE.md (the project instructions)',
    );
  }
  const changed = uniq(c.fileState.modifiedFiles.map((f) => f.replace(/ \(new\)$/, '')));
  const recent = uniq([...c.fileState.activeFiles].reverse()).filter((f) => !changed.includes(f));
  for (const f of [...changed.slice(0, 6), ...recent].slice(0, 8)) items.push(code(f));
  return items;
}

function buildChecks(c: Checkpoint): Section | undefined {
  const checks = c.toolState.checks ?? [];
  if (checks.length === 0) return undefined;
  const time = (at: string) => (at.length >= 16 ? `${at.slice(11, 16)} UTC` : at);
  const render = (withOutput: boolean) =>
    bullets(
      checks.map((k) => {
        const verdict =
          k.status === 'passing'
            ? 'passing'
            : k.status === 'failing'
              ? '**failing**'
              : '**interrupted** (it never finished: run it again)';
        const tail =
          withOutput && k.status === 'failing' && k.output
            ? `\n${fence(truncate(k.output, 300), 'text')}`
            : '';
        return `last ${k.kind} run ${code(k.command)}: ${verdict}, ${time(k.at)}${tail}`;
      }),
    );
  return section('checks', [render(true), render(false)]);
}

function buildReload(c: Checkpoint, options: SectionOptions): Section | undefined {
  const items = (options.contextToReload ?? getContextToReload(c))
    .map(oneLine)
    .filter((s) => s !== '');
  if (items.length === 0) return undefined;
  return section('reload', [
    `Re-read before continuing:\n${bullets(items)}`,
    `Re-read before continuing:\n${bullets(items.slice(0, 3))}`,
    '',
  ]);
}

function buildToolErrors(c: Checkpoint): Section | undefined {
  const failed = c.toolState.recentToolCalls.filter((t) => !t.success);
  const patterns = c.signals.errorPatterns.map(oneLine).filter((p) => p !== '');
  if (failed.length === 0 && patterns.length === 0) return undefined;
  const render = (chars: number) =>
    [
      failed.length > 0
        ? `Recent tool failures (newest last):\n${bullets(
            failed.map(
              (t) =>
                `${t.timestamp} **${t.tool}** ${code(truncate(t.args, Math.min(chars, 200)))} → ${oneLine(truncate(t.result, chars))}`,
            ),
          )}`
        : null,
      patterns.length > 0 ? `Error patterns seen: ${patterns.join('; ')}.` : null,
    ]
      .filter((x) => x !== null)
      .join('\n\n');
  return section('toolErrors', [render(500), render(150), '']);
}

function buildToolSessions(c: Checkpoint): Section | undefined {
  const sessions = c.toolState.activeSessions;
  if (sessions.length === 0) return undefined;
  return section('toolSessions', [
    `Tool sessions open at the checkpoint (they may no longer exist):\n${bullets(
      sessions.map((s) => {
        const state =
          Object.keys(s.state).length > 0 ? `, state ${code(summarizeValue(s.state, 200))}` : '';
        return `${s.type} ${code(s.id)}: ${oneLine(s.purpose)} (started ${s.startedAt}${state})`;
      }),
    )}`,
    '',
  ]);
}

function buildToolCalls(c: Checkpoint): Section | undefined {
  const calls = c.toolState.recentToolCalls;
  if (calls.length === 0) return undefined;
  const render = (max: number, chars: number) =>
    `Last tool calls (newest last):\n${bullets(
      newest(
        calls.map(
          (t) =>
            `${t.timestamp} **${t.tool}** ${code(truncate(t.args, chars))} → ${t.success ? 'ok' : 'failed'}`,
        ),
        max,
        'calls',
      ),
    )}`;
  return section('toolCalls', [render(20, 160), render(8, 80), '']);
}

function buildMessages(c: Checkpoint): Section | undefined {
  const requests = new Set(c.conversationState.userRequests.map((r) => r.trim()));
  const messages = c.conversationState.recentMessages.filter(
    (m) => m.content.trim() !== '' && !(m.role === 'user' && requests.has(m.content.trim())),
  );
  if (messages.length === 0) return undefined;
  const render = (max: number, chars: number) =>
    `Last messages before the checkpoint (newest last):\n\n${messages
      .slice(-max)
      .map(
        (m) =>
          `**${m.role}** (${m.timestamp}):\n${fence(truncate(m.content.trim(), chars), 'text')}`,
      )
      .join('\n\n')}`;
  return section('messages', [render(10, 1000), render(4, 300), '']);
}

function buildClosing(c: Checkpoint): Section | undefined {
  const open = openTasks(c).length;
  return section('closing', [
    open > 0
      ? `Continue now with the next step above (${plural(open, 'task')} still open), without asking the user to repeat anything.`
      : 'Continue now from where the work stopped, without asking the user to repeat anything.',
  ]);
}

/** Every section of `checkpoint` that has something to say. */
export function buildSections(
  checkpoint: Checkpoint,
  detection: ResumeDetection | null,
  options: SectionOptions,
): Sections {
  const built = [
    buildSituation(checkpoint, detection, options),
    buildInstructions(checkpoint),
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
