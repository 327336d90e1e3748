/**
 * The sections about where the work stands: the situation (what happened, when, what the
 * summary lacks), project instructions, the user's requests and the task list.
 * @module
 */
import type { Checkpoint } from '../../checkpoint/checkpoint.ts';
import { getCheckpointContextPercent, formatDuration } from '../resume.ts';
import { isOpenTaskStatus } from '../../checkpoint/checkpoint.ts';
import type { ResumeDetection } from '../resume.ts';
import { truncate } from '../../truncate.ts';
import { agentName, DEFAULT_AGENT } from '../../agent-id.ts';
import { section, type Section, type SectionOptions } from './section.ts';
import { code, fence, oneLine, plural } from './text.ts';

/** The first line of the situation: what happened, and when if known ("4 minutes ago"). */
export function reasonLine(
  reason: ResumeDetection['interruptionReason'],
  ago: string,
  agent = 'Claude Code',
): string {
  const when = ago === '' ? '' : ` ${ago}`;
  switch (reason) {
    case 'compaction':
      return `${agent} compacted this conversation${when}. Its summary is lossy; the state below is exact, and where the two differ, trust this one.`;
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
    case 'usage_limit':
      return `The previous session stopped at a usage limit${when}, in the middle of its work; shim wrote this handoff so that this session carries on.`;
  }
}

/** Folded, lower-cased opening words: how a request or task is recognised in another text. */
export function needleOf(text: string): string {
  return oneLine(text).toLowerCase().slice(0, 60);
}

/** What Claude Code's summary does not carry that this restore does. */
export function describeSummaryGaps(c: Checkpoint, summary: string): string | null {
  const agent = agentName(c.source.agent ?? DEFAULT_AGENT);
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
  return `${agent}'s summary leaves out ${gaps.join(', ')}; they are below.`;
}

export function buildSituation(
  c: Checkpoint,
  d: ResumeDetection | null,
  options: SectionOptions,
): Section | undefined {
  const percent = getCheckpointContextPercent(c);
  const reason = d?.interruptionReason ?? null;
  const lines: string[] = [];
  const from = c.source.agent ?? DEFAULT_AGENT;
  const agent = agentName(from);
  const ago =
    d !== null && d.timeSinceInterruption > 0
      ? `${formatDuration(d.timeSinceInterruption)} ago`
      : '';
  // Work moving between agents: the new one must know whose session it carries on.
  if (options.forAgent !== undefined && options.forAgent !== from)
    lines.push(`Continued from a ${agent} session${ago === '' ? '' : `, ${ago}`}.`);
  if (d === null) {
    lines.push('This continues work that shim saved in a checkpoint.');
  } else {
    const ago = d.timeSinceInterruption > 0 ? `${formatDuration(d.timeSinceInterruption)} ago` : '';
    if (d.from)
      lines.push(
        `This work comes from ${d.from.osUser} on ${d.from.machine}${ago ? `, ${ago}` : ''}, through shim's team store: its files and branch are on that machine unless they were pushed.`,
      );
    lines.push(reasonLine(d.interruptionReason, ago, agent));
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
        `Summaries like ${agent}'s tend to drop the user's later requests, exact task statuses and the last check results: all of them are below.`,
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
    c.source.cliVersion !== null ? `${agent} ${c.source.cliVersion}` : null,
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

export function openTasks(c: Checkpoint) {
  return c.taskState.items.filter((i) => isOpenTaskStatus(i.status));
}

export function taskLabel(item: Checkpoint['taskState']['items'][number]): string {
  return item.id !== undefined && item.id !== '' ? `#${item.id} ` : '';
}

/** How the restore names the tools that rebuild the task list: the agent's own, when known. */
function taskToolWords(tools: readonly string[] | undefined): string {
  return tools !== undefined && tools.length > 0 ? tools.join(' or ') : 'your task-list tool';
}

export function buildInstructions(
  c: Checkpoint,
  options: Pick<SectionOptions, 'taskTools'> = {},
): Section | undefined {
  const items = c.taskState.items;
  const pending = c.toolState.pendingOperations;
  const snapshot = c.fileState.snapshot;
  const lines: string[] = [
    'Continue the work from where it stopped. Do not start over, re-plan, or re-investigate what is recorded here as done.',
  ];
  if (items.length > 0) {
    lines.push(
      'Do not redo completed tasks ([x]). Carry on with the task in progress, then the open ones in list order, and keep the statuses up to date.',
      `If your task list is empty, recreate it from the list below (${taskToolWords(options.taskTools)}) with the same statuses before continuing.`,
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

export function buildRequests(c: Checkpoint): Section | undefined {
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

export function buildTasks(c: Checkpoint): Section | undefined {
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
