/**
 * The loop summary (docs/specification.md, "The loop"): at most 2,000 characters of markdown that a fresh session gets
 * when `shim loop` restarts it: the goal, where the loop stands and why it restarted, files
 * modified since the loop began, error patterns, the test status and the newest log lines.
 *
 * Every section survives: the space left after the status is shared out so that short
 * sections keep all they need and long ones (goal, lists, test output) are cut with "… N more"
 * instead of pushing later sections off the end. A hard cut with a notice is the last resort.
 * Garbage in any field renders as "none" or "?" and never throws.
 * @module
 */

export const LOOP_SUMMARY_MAX_CHARS = 2000;
export const LOOP_SUMMARY_TRUNCATION_NOTICE = `\n… (summary truncated at ${LOOP_SUMMARY_MAX_CHARS} characters)`;

export type LoopRestartReason = 'context_exhaustion' | 'stuck' | 'crash' | 'timeout' | 'resume';

export type LoopSummaryInput = {
  goal: string;
  iteration: number;
  maxIterations: number;
  restarts: number;
  maxRestarts: number;
  reason: LoopRestartReason;
  reasonDetail: string | null;
  contextPercent: number | null;
  sessionId: string | null;
  checkpointId: string | null;
  testStatus: { command: string; passed: boolean | null; outputTail: string } | null;
  filesChanged: string[];
  errorPatterns: Array<{ signature: string; count: number; example: string }>;
  /** Newest last, one line each. */
  recentLog: string[];
};

const ITEM_CHARS = 200;
const ID_CHARS = 64;
const COMMAND_CHARS = 100;
const DETAIL_CHARS = 200;
const NONE = 'none';

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const oneLine = (value: unknown): string => str(value).replace(/\s+/g, ' ').trim();
const count = (value: unknown): string =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0
    ? String(Math.floor(value))
    : '?';

/** The first `max` characters of `text` (fewer rather than half a surrogate pair). */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, Math.floor(max));
  const code = text.charCodeAt(end - 1);
  if (end > 0 && code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

/** `text` cut to `max` characters with an ellipsis, never splitting a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max < 1) return '';
  return `${cut(text, max - 1)}…`;
}

/**
 * An id fit for a shell hint: only word characters, `.`, `:` and `-` are kept. '' (unknown) when
 * nothing is left or it is too long to be a real id: a clipped id would make a broken command.
 */
const safeId = (value: unknown): string => {
  const id = str(value).replace(/[^\w.:-]/g, '');
  return id.length > ID_CHARS ? '' : id;
};

function renderGoal(goal: string, budget: number): string {
  if (goal === '') return NONE;
  if (goal.length <= budget) return goal;
  const suffix = (n: number): string => `\n… (${n} more characters)`;
  const keep = Math.max(0, budget - suffix(goal.length).length);
  const head = cut(goal, keep);
  return `${head}${suffix(goal.length - head.length)}`;
}

/**
 * Lines that fit in `budget`, plus a "… N more" line for the rest. With `newestLast`, the
 * last items are kept and the notice goes first.
 */
function renderList(
  items: readonly string[],
  budget: number,
  more: (n: number) => string,
  newestLast = false,
): string {
  if (items.length === 0) return NONE;
  const full = items.join('\n');
  if (full.length <= budget) return full;
  const ordered = newestLast ? [...items].reverse() : [...items];
  const reserve = more(items.length).length + 1;
  const kept: string[] = [];
  let used = 0;
  for (const item of ordered) {
    const cost = item.length + (kept.length > 0 ? 1 : 0);
    if (used + cost + reserve > budget) break;
    kept.push(item);
    used += cost;
  }
  if (kept.length === 0 && budget - reserve >= 24) {
    const first = ordered[0] ?? '';
    kept.push(clip(first, budget - reserve));
  }
  const notice = more(items.length - kept.length);
  if (newestLast) return [notice, ...kept.reverse()].join('\n');
  return [...kept, notice].join('\n');
}

const fileLines = (files: unknown): string[] => {
  const seen = new Set<string>();
  for (const file of list(files)) {
    const path = oneLine(file);
    if (path !== '') seen.add(path);
  }
  return [...seen].map((path) => `- ${clip(path, ITEM_CHARS)}`);
};

const errorLines = (patterns: unknown): string[] => {
  const entries: Array<{ signature: string; count: number; example: string }> = [];
  for (const entry of list(patterns)) {
    if (entry === null || typeof entry !== 'object') continue;
    const record = entry as Record<string, unknown>;
    const signature = oneLine(record.signature);
    const example = oneLine(record.example);
    if (signature === '' && example === '') continue;
    const n = typeof record.count === 'number' && Number.isFinite(record.count) ? record.count : 0;
    entries.push({ signature, count: n, example });
  }
  entries.sort((a, b) => b.count - a.count);
  return entries.map((entry) => {
    const n = entry.count > 0 ? `${Math.floor(entry.count)}×` : '?×';
    const signature = clip(entry.signature || entry.example, 150);
    const example =
      entry.example !== '' && entry.example !== entry.signature
        ? ` (e.g. ${clip(entry.example, 150)})`
        : '';
    return `- ${n} ${signature}${example}`;
  });
};

const logLines = (log: unknown): string[] =>
  list(log)
    .map((line) => oneLine(line))
    .filter((line) => line !== '')
    .map((line) => `- ${clip(line, ITEM_CHARS)}`);

/** A code fence longer than any backtick run in `text`. */
const fenceFor = (text: string): string => {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  return '`'.repeat(Math.max(3, longest + 1));
};

function renderTests(tests: unknown, budget: number): string {
  if (tests === null || typeof tests !== 'object') return NONE;
  const record = tests as Record<string, unknown>;
  const command = clip(oneLine(record.command), COMMAND_CHARS) || '(unknown command)';
  const result =
    record.passed === true ? 'passed' : record.passed === false ? 'FAILED' : 'not run yet';
  const head = `- \`${command.replace(/`/g, "'")}\`: ${result}`;
  const output = str(record.outputTail).replace(/\r\n?/g, '\n').trim();
  if (output === '') return head;
  const fence = fenceFor(output);
  const frame = head.length + 1 + (fence.length + 1) * 2; // head\n fence\n … \n fence
  const room = budget - frame;
  if (output.length <= room) return `${head}\n${fence}\n${output}\n${fence}`;
  if (room < 40) return head;
  // The tail is what matters: keep the end, cut at a line start where possible.
  let tail = output.slice(output.length - (room - 2));
  const newline = tail.indexOf('\n');
  if (newline >= 0 && newline < tail.length / 2) tail = tail.slice(newline + 1);
  const low = tail.charCodeAt(0);
  if (low >= 0xdc00 && low <= 0xdfff) tail = tail.slice(1);
  return `${head}\n${fence}\n…\n${tail}\n${fence}`;
}

function reasonText(input: Record<string, unknown>): string {
  const percent =
    typeof input.contextPercent === 'number' && Number.isFinite(input.contextPercent)
      ? `${Math.round(input.contextPercent * 10) / 10}%`
      : null;
  let why: string;
  switch (input.reason) {
    case 'context_exhaustion':
      why = percent
        ? `the context reached ${percent} of the auto-compact threshold, so the loop started a fresh session before compaction`
        : 'the context neared the auto-compact threshold, so the loop started a fresh session before compaction';
      break;
    case 'stuck':
      why = 'the previous session looked stuck, so the loop started a fresh one';
      break;
    case 'crash':
      why = 'the previous session exited unexpectedly';
      break;
    case 'timeout':
      why = 'the previous session ran past its time limit';
      break;
    case 'resume':
      why = 'the loop was resumed after it had stopped';
      break;
    default:
      why = 'unknown';
  }
  const detail = clip(oneLine(input.reasonDetail), DETAIL_CHARS);
  return detail ? `${why} (${detail})` : why;
}

function renderStatus(input: Record<string, unknown>): string {
  const lines = [
    `- Iteration ${count(input.iteration)} of ${count(input.maxIterations)}; restarts ${count(input.restarts)} of ${count(input.maxRestarts)}`,
    `- Why this restart: ${reasonText(input)}`,
  ];
  const session = safeId(input.sessionId);
  const checkpoint = safeId(input.checkpointId);
  lines.push(
    `- Previous session: ${session ? `\`${session}\`` : 'unknown'}; checkpoint: ${checkpoint ? `\`${checkpoint}\`` : NONE}`,
  );
  const hints = [
    checkpoint ? `\`shim show ${checkpoint}\`` : null,
    session ? `\`shim resume --print --session ${session}\`` : null,
  ].filter((hint): hint is string => hint !== null);
  if (hints.length > 0) lines.push(`- Full state: ${hints.join(' or ')}`);
  return lines.join('\n');
}

type Part = { heading: string; render: (budget: number) => string };

/**
 * Shares `available` characters among parts: the ones needing less than an equal share get
 * what they need, the rest split what remains.
 */
function allot(desires: readonly number[], available: number): number[] {
  const order = desires.map((desire, index) => ({ desire, index }));
  order.sort((a, b) => a.desire - b.desire);
  const result = desires.map(() => 0);
  let remaining = Math.max(0, available);
  order.forEach(({ desire, index }, position) => {
    const share = Math.floor(remaining / (order.length - position));
    const given = Math.min(desire, share);
    result[index] = given;
    remaining -= given;
  });
  return result;
}

export function renderLoopSummary(input: LoopSummaryInput): string {
  const record: Record<string, unknown> =
    input !== null && typeof input === 'object' ? (input as Record<string, unknown>) : {};
  const goal = str(record.goal).replace(/\r\n?/g, '\n').trim();
  const files = fileLines(record.filesChanged);
  const errors = errorLines(record.errorPatterns);
  const log = logLines(record.recentLog);
  const status = renderStatus(record);

  const parts: Part[] = [
    { heading: '## Goal', render: (budget) => renderGoal(goal, budget) },
    {
      heading: '## Files Modified',
      render: (budget) => renderList(files, budget, (n) => `- … ${n} more`),
    },
    {
      heading: '## Error Patterns',
      render: (budget) => renderList(errors, budget, (n) => `- … ${n} more`),
    },
    { heading: '## Test Status', render: (budget) => renderTests(record.testStatus, budget) },
    {
      heading: '## Recent Log',
      render: (budget) => renderList(log, budget, (n) => `- … ${n} more (older)`, true),
    },
  ];
  const statusBlock = `## Status\n${status}`;
  // Each part costs its heading, a newline, its body, and a blank line before the next part.
  const overhead =
    statusBlock.length + parts.reduce((sum, part) => sum + part.heading.length + 1, 0) + 2 * 5;
  const desires = parts.map((part) => part.render(Number.POSITIVE_INFINITY).length);
  const budgets = allot(desires, LOOP_SUMMARY_MAX_CHARS - overhead);
  const bodies = parts.map((part, index) => `${part.heading}\n${part.render(budgets[index] ?? 0)}`);
  const [goalBlock, ...rest] = bodies;
  const summary = [goalBlock, statusBlock, ...rest].join('\n\n');
  if (summary.length <= LOOP_SUMMARY_MAX_CHARS) return summary;
  const keep = LOOP_SUMMARY_MAX_CHARS - LOOP_SUMMARY_TRUNCATION_NOTICE.length;
  return `${cut(summary, keep)}${LOOP_SUMMARY_TRUNCATION_NOTICE}`;
}
