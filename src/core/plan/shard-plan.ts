/**
 * A plan too big for one session, split into shards that each fit (SHD-001/002): its open steps
 * in order, packed into as few shards as fit a budget (by default 60% of a fresh session's usable
 * context), the plan's shared context counted — and carried — in every shard. A step is never
 * split: one bigger than a shard on its own is a shard of its own, marked oversize. Pure.
 * @module
 */
import type { Plan, PlanStep } from './plan.ts';

/** The share of a fresh session's usable context a shard may plan to use (seed 004, SHD-002). */
export const SHARD_SHARE = 0.6;

export type Shard = {
  /** 1-based. */
  number: number;
  steps: PlanStep[];
  /** Estimated tokens: the steps' and the shared context's. */
  tokens: number;
  /** One step that alone needs more than the budget. */
  oversize: boolean;
};

export type ShardRequest = {
  plan: Plan;
  tokensOf: (step: PlanStep) => number;
  sharedTokens: number;
  budget: number;
};

export function shardPlan(request: ShardRequest): Shard[] {
  const { plan, tokensOf, sharedTokens, budget } = request;
  const shards: Shard[] = [];
  let current: Shard | null = null;
  for (const step of plan.steps) {
    if (step.done === true) continue;
    const tokens = tokensOf(step);
    if (current && current.tokens + tokens <= budget) {
      current.steps.push(step);
      current.tokens += tokens;
      continue;
    }
    current = {
      number: shards.length + 1,
      steps: [step],
      tokens: sharedTokens + tokens,
      oversize: sharedTokens + tokens > budget,
    };
    shards.push(current);
  }
  return shards;
}

const stepLine = (s: PlanStep) => `- ${s.index}. ${s.title}`;

/** A shard as a document a fresh session can work from on its own. */
export function renderShard(
  plan: Plan,
  shards: readonly Shard[],
  shard: Shard,
  source: string,
): string {
  const title = plan.title ?? 'Plan';
  const first = shard.steps[0]!.index;
  const last = shard.steps[shard.steps.length - 1]!.index;
  const earlier = plan.steps.filter((s) => s.index < first);
  const later = plan.steps.filter((s) => s.index > last);
  const out: string[] = [
    `# ${title} — shard ${shard.number} of ${shards.length}`,
    '',
    `<!-- shim shard: ${source}, steps ${first}–${last} -->`,
    '',
    `Part ${shard.number} of ${shards.length} of the plan in \`${source}\`: do the steps of this ` +
      `shard only (${first === last ? `step ${first}` : `steps ${first}–${last}`}), and tick each ` +
      'one in the plan when it is done.' +
      (shard.oversize
        ? ' This step alone was estimated above what a fresh session can do: checkpoint as you go.'
        : ''),
  ];
  if (plan.shared !== '') out.push('', '## Shared context', '', plan.shared);
  out.push('', '## Steps in this shard');
  let sections = '';
  for (const step of shard.steps) {
    const path = step.sections.join(' › ');
    if (path !== '' && path !== sections) out.push('', `### ${path}`);
    sections = path;
    out.push('', step.body);
  }
  if (earlier.length > 0) out.push('', '## Before this shard', '', ...earlier.map(stepLine));
  if (later.length > 0) out.push('', '## After this shard', '', ...later.map(stepLine));
  return `${out.join('\n')}\n`;
}

/** Whole words up to `max` characters: a name cut mid-word reads as a typo. */
function wholeWords(words: readonly string[], max: number): string {
  let name = '';
  for (const word of words) {
    const next = name === '' ? word : `${name}-${word}`;
    if (next.length > max) return name === '' ? word.slice(0, max) : name;
    name = next;
  }
  return name;
}

/** `01-stream-the-parser.md`: the shard's number and its first step's title. */
export function shardFileName(shard: Shard, count: number): string {
  const width = Math.max(2, String(count).length);
  const words = shard.steps[0]!.title.toLowerCase()
    .replace(/`[^`]*`/g, '')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const slug = wholeWords(words, 40) || 'steps';
  return `${String(shard.number).padStart(width, '0')}-${slug}.md`;
}

export type ShardMark = { source: string; first: number; last: number };

/** The `<!-- shim shard: … -->` line renderShard writes: which steps of which plan. */
export function readShardMark(text: string): ShardMark | null {
  const m = /<!-- shim shard: (.+), steps (\d+)(?:–(\d+))? -->/.exec(text);
  if (!m) return null;
  return { source: m[1]!, first: Number(m[2]), last: Number(m[3] ?? m[2]) };
}

export type ShardProgress = {
  file: string;
  first: number;
  last: number;
  done: number;
  steps: number;
};

/** How far each shard is (SHD-004): its steps ticked in the plan as it is now. */
export function shardProgress(
  plan: Plan,
  shards: ReadonlyArray<{ file: string; mark: ShardMark }>,
): ShardProgress[] {
  return shards.map(({ file, mark }) => {
    const steps = plan.steps.filter((s) => s.index >= mark.first && s.index <= mark.last);
    return {
      file,
      first: mark.first,
      last: mark.last,
      done: steps.filter((s) => s.done === true).length,
      steps: steps.length,
    };
  });
}
