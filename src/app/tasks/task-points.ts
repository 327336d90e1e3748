/**
 * A session log's task points (core/plan/task-estimate.ts): every change of its task list (the
 * agent's task tools, as its fold reads them) that leaves tasks open, with the session's recent growth per
 * response, and — when all of those tasks were later done — the context it spent until then:
 * the sum of its context's growth from response to response, compactions included (a drop is
 * not growth); and each completed task's own span, from in progress to completed. Also the
 * session as it stands at the last line read.
 * @module
 */
import { DEFAULT_GROWTH, type TaskPoint } from '../../core/plan/task-estimate.ts';
import type { SessionState } from '../../core/session.ts';
import type { Agent } from '../../agents/agent.ts';
import type { ReadOptions } from '../../transcript/reader.ts';

/** Growth per response is measured over this many newest responses. */
const RATE_WINDOW = 20;

export type SessionTaskPoint = TaskPoint & {
  line: number;
  open: string[];
  /** The open tasks' keys, in the list's order (the plan order). */
  keys: string[];
  /** The context at that line; null before the first response. */
  context: number | null;
};

export type TaskTimeline = {
  points: SessionTaskPoint[];
  /** The task list and growth at the last line read, and the context spent up to it. */
  now: { line: number; open: string[]; keys: string[]; spent: number; growthPerResponse: number };
  /**
   * What finishing `keys` (tasks open at an earlier estimate, when `spent` tokens had been spent)
   * took; null while any of them is open.
   */
  spentToFinish: (keys: readonly string[], spent: number) => number | null;
  /**
   * Each completed task's own cost (key → tokens): the context spent from when it was marked in
   * progress to when it was completed — or, never marked, from the completion before it (or its
   * first sight). A task deleted or still open has none.
   */
  taskTokens: Map<string, number>;
  /** The folded state at that line. */
  state: SessionState;
};

type Item = { key: string; title: string; status: string; open: boolean };

function listOf(state: SessionState): Item[] {
  const item = (key: string, title: string, status: string): Item => ({
    key,
    title,
    status,
    open: status !== 'completed' && status !== 'deleted',
  });
  return state.tasks.length > 0
    ? state.tasks.map((t) => item(`task:${t.id}`, t.subject, t.status))
    : state.todos.map((t) => item(`todo:${t.content}`, t.content, t.status));
}

export async function readTaskTimeline(
  path: string,
  agent: Agent,
  options: { untilLine?: number } = {},
): Promise<TaskTimeline> {
  let spent = 0;
  let last: number | null = null;
  let compactions = 0;
  let stale: number | null = null;
  let signature = '';
  const history: number[] = [];
  const doneAt = new Map<string, number>();
  const startedAt = new Map<string, number>();
  const firstSeen = new Map<string, number>();
  const completed = new Set<string>();
  // Each change with open tasks: what is known then, and which tasks must finish.
  const pending: Array<{
    line: number;
    open: string[];
    growth: number;
    spentAt: number;
    keys: string[];
    project: string | null;
    context: number | null;
  }> = [];
  const growth = () => {
    const span = Math.min(RATE_WINDOW, history.length);
    if (span === 0) return DEFAULT_GROWTH;
    const before = history.length > span ? history[history.length - 1 - span]! : 0;
    return (spent - before) / span;
  };
  let open: Item[] = [];
  let lastLine = 0;
  const onEntry: ReadOptions['onEntry'] = (_entry, line, state) => {
    lastLine = line;
    const context = state.current?.contextTokens ?? state.lastResponse?.contextTokens ?? null;
    if (state.compactionCount !== compactions) {
      // A new window: its first response is no growth, and the old window's newest response
      // (still the state's newest here) is not the new window's start.
      compactions = state.compactionCount;
      last = null;
      stale = context;
    }
    if (context !== null && context !== last && context !== stale) {
      stale = null;
      if (last !== null) {
        spent += Math.max(0, context - last);
        history.push(spent);
      }
      last = context;
    }
    const items = listOf(state);
    for (const item of items) {
      if (!firstSeen.has(item.key)) firstSeen.set(item.key, spent);
      if (item.status === 'in_progress' && !startedAt.has(item.key)) startedAt.set(item.key, spent);
      if (item.open || doneAt.has(item.key)) continue;
      doneAt.set(item.key, spent);
      if (item.status === 'completed') completed.add(item.key);
    }
    const next = items.map((i) => `${i.key}=${i.status}`).join('|');
    if (next === signature) return;
    signature = next;
    open = items.filter((i) => i.open);
    if (open.length === 0) return;
    pending.push({
      line,
      open: open.map((i) => i.title),
      growth: growth(),
      spentAt: spent,
      keys: open.map((i) => i.key),
      project: state.cwd,
      context,
    });
  };
  const read: ReadOptions = { onEntry, finalize: true, ...options };
  const state = agent.log.isCompressed(path)
    ? await agent.log.readCompressed(path, read)
    : agent.log.read(path, null, read).cursor.state;
  return {
    points: pending.map((p) => {
      const ends = p.keys.map((k) => doneAt.get(k));
      const point: SessionTaskPoint = {
        line: p.line,
        open: p.open,
        keys: p.keys,
        context: p.context,
        openTasks: p.open.length,
        growthPerResponse: p.growth,
      };
      if (p.project !== null) point.project = p.project;
      if (ends.every((e) => e !== undefined)) {
        const actual = Math.max(...(ends as number[])) - p.spentAt;
        if (actual > 0) point.actual = actual;
      }
      return point;
    }),
    now: {
      line: lastLine,
      open: open.map((i) => i.title),
      keys: open.map((i) => i.key),
      spent,
      growthPerResponse: growth(),
    },
    state,
    taskTokens: taskTokensOf(completed, doneAt, startedAt, firstSeen),
    spentToFinish: (keys, from) => {
      const ends = keys.map((k) => doneAt.get(k));
      if (keys.length === 0 || ends.some((e) => e === undefined)) return null;
      return Math.max(...(ends as number[])) - from;
    },
  };
}

/** Each completed task's span (TaskTimeline.taskTokens). */
function taskTokensOf(
  completed: ReadonlySet<string>,
  doneAt: ReadonlyMap<string, number>,
  startedAt: ReadonlyMap<string, number>,
  firstSeen: ReadonlyMap<string, number>,
): Map<string, number> {
  const spans = new Map<string, number>();
  for (const key of completed) {
    const end = doneAt.get(key)!;
    let start = startedAt.get(key);
    if (start === undefined) {
      // Never marked in progress: it was worked on after whatever was done before it.
      start = firstSeen.get(key) ?? 0;
      for (const [other, at] of doneAt) if (other !== key && at <= end && at > start) start = at;
    }
    spans.set(key, Math.max(0, end - start));
  }
  return spans;
}
