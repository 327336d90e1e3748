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
import { agentName } from '../../agent-id.ts';
import { cutRequest, REQUEST_CUT } from '../../checkpoint/checkpoint-limits.ts';
import { section, type Section, type SectionOptions } from './section.ts';
import { code, fence, oneLine, plural } from './text.ts';

/** The first line of the situation: what happened, and when if known ("4 minutes ago"). */
export function reasonLine(
  reason: ResumeDetection['interruptionReason'],
  ago: string,
  agent: string,
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
    case 'relay':
      return `The user cleared the context${when} (\`/clear\`) to carry the work on in a fresh one: shim's relay (config \`relay\`) restores the cleared session's whole state below, not a summary of it.`;
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
  const agent = agentName(c.source.agent);
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
  const from = c.source.agent;
  const agent = agentName(from);
  const ago =
    d !== null && d.timeSinceInterruption > 0
      ? `${formatDuration(d.timeSinceInterruption)} ago`
      : '';
  // Work moving between agents: the new one must know whose session it carries on.
  if (options.target !== undefined && options.target.id !== from)
    lines.push(
      `Continued in ${options.target.name} from a ${agent} session${ago === '' ? '' : `, ${ago}`}: the tools named below are ${agent}'s.`,
    );
  if (d === null) {
    lines.push('This continues work that shim saved in a checkpoint.');
  } else {
    const ago = d.timeSinceInterruption > 0 ? `${formatDuration(d.timeSinceInterruption)} ago` : '';
    if (d.from)
      lines.push(
        `This work comes from ${d.from.osUser} on ${d.from.machine}${ago ? `, ${ago}` : ''}, through shim's team store: its files and branch are on that machine unless they were pushed.`,
        // The store holds what that machine checkpointed, nothing of its session after that; a
        // command still running a second after it started was checkpointed (docs/team.md).
        c.toolState.pendingOperations.some((op) => op.command !== undefined)
          ? `This checkpoint (${c.createdAt}) was taken while a command ran there (under Where you were); what ran after it is not in the team store, so check that machine before redoing its last steps.`
          : `What ran there after this checkpoint (${c.createdAt}) is not in the team store: a command still running when that session stopped is not shown here, so check that machine before redoing its last steps.`,
      );
    lines.push(reasonLine(d.interruptionReason, ago, agent));
  }
  const interrupted = c.toolState.pendingOperations.filter((op) => op.interrupted);
  if (interrupted.length > 0) {
    lines.push(
      `It stopped while ${interrupted.length === 1 ? 'this was running' : 'these were running'}: ${interrupted
        .map((op) => oneLine(truncate(op.description, 200)))
        .join('; ')} (see Where you were).`,
    );
  }
  // What happened and why to trust this: all of the situation a restore short of room keeps.
  const least = lines.length;
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
  return section('situation', [
    lines.join('\n'),
    lines.slice(0, core).join('\n'),
    lines.slice(0, least).join('\n'),
  ]);
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
  options: Pick<SectionOptions, 'target'> = {},
): Section | undefined {
  const items = c.taskState.items;
  const pending = c.toolState.pendingOperations;
  const snapshot = c.fileState.snapshot;
  const lines: string[] = [
    'Carry on from where the work stopped: do not start over, re-plan or re-investigate what is recorded here as done.',
  ];
  if (pending.length > 0) {
    lines.push(
      `First check the ${plural(pending.length, 'call')} in flight under Where you were: ${pending.length === 1 ? 'it' : 'each'} started but did not finish, so it may have done only part of its work.`,
    );
  }
  if (items.length > 0) {
    lines.push(
      `Keep the done tasks ([x]) done; go on with the one in progress, then the open ones in order. If your task list is empty, recreate it (${taskToolWords(options.target?.taskTools)}) with the same statuses.`,
    );
  }
  if (c.taskState.blockers.length > 0) {
    lines.push('Read the blockers before retrying anything that already failed.');
  }
  lines.push(
    "The user's requests are quoted verbatim below: do not ask them to repeat anything this restore answers.",
  );
  if (snapshot !== null) {
    lines.push(
      `${code('git status')} should still show the changes listed under Where you were; if they are missing, ${code(`shim restore-files ${c.id}`)} restores them from the checkpoint's snapshot.`,
    );
  } else if (c.fileState.modifiedFiles.length > 0 || c.fileState.stagedFiles.length > 0) {
    lines.push(`${code('git status')} should still show the changes listed under Where you were.`);
  }
  if (c.source.transcriptPath !== null) {
    lines.push(
      `Exact details (code, error output) are in the previous transcript, ${code(c.source.transcriptPath)}: read only the parts you need.`,
    );
  }
  lines.push("If the user's next message asks for something else, do that instead.");
  return section('instructions', [lines.map((l, i) => `${i + 1}. ${l}`).join('\n')]);
}

/** A request cut for room keeps this much of its head and tail. */
const CUT_REQUEST_CHARS = 200;
/** Past every long request cut, the others keep only their opening words, one step at a time. */
const OPENING_CHARS = [160, 100, 60];

export function buildRequests(c: Checkpoint): Section | undefined {
  const requests = c.conversationState.userRequests.map((r) => r.trim());
  if (requests.length === 0) return undefined;
  const n = requests.length;
  const inherited = Math.min(n, c.conversationState.inheritedRequests ?? 0);
  const label = (i: number) =>
    `**${i + 1}.**${i < inherited ? ' (earlier session)' : ''}${i === n - 1 ? ' (most recent)' : ''}`;
  /**
   * Each request within its cap (whole when it fits), or by its opening words when `opening` is
   * set; the newest, what the user wants now, as kept. One line after its number, more in a block.
   */
  const render = (caps: readonly number[], opening?: number) => {
    let cut = false;
    const blocks = requests.map((r, i) => {
      const text =
        i === n - 1 ? r : opening === undefined ? cutRequest(r, caps[i]!) : truncate(r, opening);
      cut ||= REQUEST_CUT.test(text);
      return text.includes('\n') || text.includes('```') || text.length > 300
        ? `${label(i)}\n${fence(text, 'text')}`
        : `${label(i)} ${text}`;
    });
    const head =
      n === 1
        ? "The user's request, verbatim"
        : `The user's ${n} requests, oldest first (the last is the most recent), verbatim`;
    const how =
      opening !== undefined
        ? '; short of room, the older ones by their opening words'
        : cut
          ? '; where one is cut, its head and tail are kept and the cut is said'
          : '';
    return `${head}${how}:\n\n${blocks.join('\n\n')}`;
  };
  // To make room, the longest request is cut first (so the most stay whole), then the next
  // longest…; never the newest.
  const order = requests
    .map((r, i) => ({ i, length: r.length }))
    .sort((a, b) => (a.i === n - 1 ? 1 : b.i === n - 1 ? -1 : b.length - a.length))
    .map((x) => x.i);
  const long = order.filter((i) => requests[i]!.length > CUT_REQUEST_CHARS);
  const caps: number[] = requests.map(() => Infinity);
  const variants = [render(caps)];
  // One more cut per step for the first 24, then more at a time: a few dozen variants at most.
  for (let done = 0, step = 1; done < long.length; done += step, step = done < 24 ? 1 : step * 2) {
    for (const i of long.slice(done, done + step)) caps[i] = CUT_REQUEST_CHARS;
    variants.push(render(caps));
  }
  for (const chars of OPENING_CHARS) variants.push(render(caps, chars));
  return section('requests', variants);
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
  // Short of room, the done tasks are named by their numbers only (or counted): the open ones
  // are the work left.
  const openOnly = (allChars: number | null) => {
    const done = items.filter((i) => i.status === 'completed');
    const ids = done.map((i) => (i.id !== undefined && i.id !== '' ? `#${i.id}` : null));
    const named = ids.every((id) => id !== null) ? `: ${ids.join(', ')}` : '';
    const open = render(null, allChars)
      .split('\n')
      .filter((l) => l.startsWith('- [ ] '));
    return `${summary}\n\nDone (${done.length})${named.length <= 600 ? named : ''}.\n\n${open.join('\n')}`;
  };
  return section('tasks', [
    render(null, null),
    render(80, null),
    render(60, 120),
    render(40, 60),
    openOnly(120),
    openOnly(60),
  ]);
}
