/**
 * What happened between two checkpoints of a chain, in words (seed 003, "event chains"): the
 * requests, tasks, files, decisions and checks that appeared or changed, the tool calls and the
 * context spent. `shim show`, the dashboard and the MCP timeline tell what led to a checkpoint
 * with it.
 * @module
 */
import { formatThousands } from '../format-tokens.ts';
import { truncate } from '../truncate.ts';
import { isOpenTaskStatus, type Checkpoint } from './checkpoint.ts';

type Part = Pick<
  Checkpoint,
  'conversationState' | 'taskState' | 'fileState' | 'toolState' | 'signals' | 'source'
>;

const added = (before: readonly string[], after: readonly string[]): string[] => {
  const had = new Set(before);
  return after.filter((x) => !had.has(x));
};

const quote = (text: string) => `“${truncate(text.replace(/\s+/g, ' ').trim(), 60)}”`;

const list = (items: readonly string[], max = 3): string =>
  items.length <= max
    ? items.join(', ')
    : `${items.slice(0, max).join(', ')} and ${items.length - max} more`;

/** The tools of the calls since `before`, most used first: "Bash ×3, Edit ×2". */
function toolsUsed(before: Part | null, after: Part, calls: number): string | null {
  if (calls <= 0) return null;
  const seen = new Set(
    (before?.toolState.recentToolCalls ?? []).map((c) => `${c.timestamp}|${c.tool}|${c.args}`),
  );
  const counts = new Map<string, number>();
  for (const c of after.toolState.recentToolCalls.slice(-calls))
    if (!seen.has(`${c.timestamp}|${c.tool}|${c.args}`))
      counts.set(c.tool, (counts.get(c.tool) ?? 0) + 1);
  const named = [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([tool, n]) => (n > 1 ? `${tool} ×${n}` : tool));
  return `${calls} tool call${calls === 1 ? '' : 's'}${named.length > 0 ? ` (${list(named, 4)})` : ''}`;
}

/**
 * What changed from `before` to `after`, one short phrase each, most telling first; `before`
 * null: `after` is where the chain starts (what it holds is what happened).
 */
export function changesBetween(before: Part | null, after: Part): string[] {
  const out: string[] = [];
  const requests = added(
    before?.conversationState.userRequests ?? [],
    after.conversationState.userRequests,
  );
  if (requests.length > 0)
    out.push(
      requests.length === 1
        ? `request ${quote(requests[0]!)}`
        : `${requests.length} requests, the newest ${quote(requests.at(-1)!)}`,
    );
  const statusBefore = new Map(
    (before?.taskState.items ?? []).map((t) => [t.id ?? t.content, t.status]),
  );
  const done: string[] = [];
  const opened: string[] = [];
  for (const task of after.taskState.items) {
    const key = task.id ?? task.content;
    const was = statusBefore.get(key);
    if (!isOpenTaskStatus(task.status) && (was === undefined || isOpenTaskStatus(was)))
      done.push(quote(task.content));
    else if (was === undefined && isOpenTaskStatus(task.status)) opened.push(quote(task.content));
  }
  if (done.length > 0) out.push(`done: ${list(done)}`);
  if (opened.length > 0) out.push(`new task${opened.length === 1 ? '' : 's'}: ${list(opened)}`);
  const root = after.fileState.repoRoot ?? after.source.cwd;
  const files = added(before?.fileState.modifiedFiles ?? [], after.fileState.modifiedFiles).map(
    (f) => (root && f.startsWith(`${root}/`) ? f.slice(root.length + 1) : f),
  );
  if (files.length > 0) out.push(`files changed: ${list(files)}`);
  const decisions = added(
    before?.conversationState.keyDecisions ?? [],
    after.conversationState.keyDecisions,
  );
  if (decisions.length > 0)
    out.push(
      `decided: ${list(
        decisions.map((d) => quote(d)),
        2,
      )}`,
    );
  const checksBefore = new Map(
    (before?.toolState.checks ?? []).map((c) => [c.kind, `${c.status}|${c.at}`]),
  );
  for (const check of after.toolState.checks ?? [])
    if (checksBefore.get(check.kind) !== `${check.status}|${check.at}`)
      out.push(`${check.kind} ${check.status}`);
  const blockers = added(before?.taskState.blockers ?? [], after.taskState.blockers);
  if (blockers.length > 0)
    out.push(
      `blocked: ${list(
        blockers.map((b) => quote(b)),
        2,
      )}`,
    );
  if (before && before.fileState.branch !== after.fileState.branch && after.fileState.branch)
    out.push(`on branch ${after.fileState.branch}`);
  const calls = after.signals.toolCallCount - (before?.signals.toolCallCount ?? 0);
  const tools = toolsUsed(before, after, calls);
  if (tools) out.push(tools);
  const spent = after.source.contextTokens - (before?.source.contextTokens ?? 0);
  if (before && spent !== 0 && after.source.contextTokens > 0)
    out.push(
      spent > 0
        ? `context +${formatThousands(spent)} tokens`
        : `context down to ${formatThousands(after.source.contextTokens)} tokens (compacted or fresh)`,
    );
  return out;
}
