import { agentName, type AgentId } from '../../core/agent-id.ts';
import { formatThousands as k } from '../../core/format-tokens.ts';
import { estimateOpenTasks, type TaskFitEstimate } from '../../app/tasks/estimate-tasks.ts';
import { estimatePlan, type PlanEstimate } from '../../app/tasks/plan-estimate.ts';
import { historyLogs, learnTaskHistory } from '../../app/tasks/task-history.ts';
import { measureAccuracy } from '../../app/evaluation/estimate-accuracy.ts';
import type { Agents } from '../../agents/agent.ts';
import { getShimHome } from '../../store/home/home.ts';
import {
  describeSessionPlan,
  planSession,
  type SessionPlan,
} from '../../core/plan/session-plan.ts';

/**
 * Which open steps to do in this directory's session and which to leave for fresh ones, so that
 * none starts where a compaction would cut it (core/plan/session-plan.ts).
 */
function sessionPlanOf(e: PlanEstimate): SessionPlan {
  return planSession({
    steps: e.steps
      .filter((s) => !s.step.done)
      .map((s) => ({ index: s.step.index, title: s.step.title, tokens: s.tokens })),
    left: e.remainingContext,
    sharedTokens: e.sharedTokens,
    startTokens: Math.max(0, e.compactThreshold - e.freshContext),
    restartTokens: e.compactThreshold,
  });
}

/** The contract's object (docs/estimates.md): these keys, in this order. */
function toJson(e: TaskFitEstimate) {
  return {
    openTasks: e.openTasks,
    tokens: e.tokens,
    low: e.low,
    high: e.high,
    remainingContext: e.remainingContext,
    fits: e.fits,
  };
}

function toText(e: TaskFitEstimate): string {
  const lines = [`shim estimate · ${e.transcriptPath} · line ${e.line}`];
  if (e.tokens === null) {
    lines.push('  No open tasks: nothing to estimate.');
  } else {
    const verdict = { fits: 'fits', tight: 'tight', 'wont-fit': "won't fit", 'no-open-tasks': '' }[
      e.verdict
    ];
    lines.push(
      `  ${e.openTasks} open task${e.openTasks === 1 ? '' : 's'}: ~${k(e.tokens)} tokens (80%: ${k(e.low!)}–${k(e.high!)})`,
      `  left before compaction: ${k(e.remainingContext)} · a fresh session: ${k(e.freshContext)}`,
      `  → ${verdict}: ${e.reason}`,
    );
    for (const title of e.open.slice(0, 8)) lines.push(`    - ${title}`);
    if (e.open.length > 8) lines.push(`    … and ${e.open.length - 8} more`);
  }
  lines.push(
    `  learned from ${e.learnedFrom.points} task points in ${e.learnedFrom.sessions} sessions${e.learnedFrom.points < 20 ? ' (too few: built-in estimates)' : ''}`,
  );
  return lines.join('\n');
}

export async function runEstimate(
  agents: Agents,
  options: {
    transcript?: string;
    session?: string;
    untilLine?: number;
    history?: string;
    json?: boolean;
  },
): Promise<void> {
  const estimate = await estimateOpenTasks({
    ...(options.transcript !== undefined ? { transcript: options.transcript } : {}),
    ...(options.session !== undefined ? { sessionId: options.session } : {}),
    ...(options.untilLine !== undefined ? { untilLine: options.untilLine } : {}),
    ...(options.history !== undefined ? { historyDir: options.history } : {}),
    agents,
    cwd: process.cwd(),
    env: process.env,
    home: getShimHome(),
    now: Date.now(),
    ...(options.json ? {} : { onProgress: (m: string) => process.stderr.write(`${m}\n`) }),
  });
  process.stdout.write(
    options.json ? `${JSON.stringify(toJson(estimate))}\n` : `${toText(estimate)}\n`,
  );
}

function sessionPlanJson(p: SessionPlan) {
  return {
    now: p.now.map((s) => s.index),
    cut: p.cut ? { step: p.cut.step.index, tokens: p.cut.step.tokens, left: p.cut.left } : null,
    reorder: p.reorder.map((r) => ({ take: r.take.index, before: r.before.index, left: r.left })),
    laterSessions: p.later?.sessions ?? 0,
  };
}

function planText(e: PlanEstimate): string {
  const verdict = {
    fits: 'fits',
    tight: 'tight',
    'fresh-session': 'fresh session',
    shard: 'shard it',
    done: 'done',
    empty: 'nothing to estimate',
  }[e.verdict];
  if (e.verdict === 'empty') return `shim estimate · ${e.planPath}\n  → ${verdict}: ${e.reason}`;
  // Without finished tasks to learn from, every step gets the same built-in share: say so.
  const prior = e.basis === 'prior';
  const lines = [
    `shim estimate · ${e.planPath}`,
    `  ${e.openSteps} open step${e.openSteps === 1 ? '' : 's'} of ${e.plan.steps.length}: ~${k(e.total.tokens)} tokens (80%: ${k(e.total.low)}–${k(e.total.high)}), shared context ${k(e.sharedTokens)}`,
    `  left in this directory's session: ${e.remainingContext === null ? 'no session' : k(e.remainingContext)} · a fresh session: ${k(e.freshContext)}${e.windowFrom === 'agent-default' ? ` (approximate: no ${agentName(e.agent)} session here that names its model, so its default window for an unknown model, ${k(e.windowTokens)})` : ''}`,
    `  → ${verdict}: ${e.reason}`,
  ];
  for (const s of e.steps.slice(0, 12)) {
    lines.push(
      `    ${s.step.done ? '✓' : ' '} ${s.step.index}. ${s.step.title}${s.step.done ? '' : ` ~${k(s.tokens)}${prior ? ' (prior)' : ''}`}`,
    );
  }
  if (e.steps.length > 12) lines.push(`    … and ${e.steps.length - 12} more`);
  if (e.verdict !== 'done')
    for (const line of describeSessionPlan(sessionPlanOf(e))) lines.push(`  ${line}`);
  if (prior)
    lines.push(
      `  (prior): the built-in ${k(7_200)} per step (the median of real sessions) plus reading each step and its files — too few finished tasks of yours to learn from yet (${e.learnedFrom.points} of 20)`,
    );
  if (e.verdict === 'shard') lines.push(`  split it: shim shard ${e.planPath}`);
  return lines.join('\n');
}

export async function runPlanEstimate(
  agents: Agents,
  plan: string,
  options: { history?: string; json?: boolean; text?: string; agent?: AgentId },
): Promise<void> {
  const e = await estimatePlan({
    planPath: plan,
    ...(options.agent !== undefined ? { agent: options.agent } : {}),
    ...(options.text !== undefined ? { text: options.text } : {}),
    agents,
    cwd: process.cwd(),
    env: process.env,
    home: getShimHome(),
    now: Date.now(),
    ...(options.history !== undefined ? { historyDir: options.history } : {}),
    ...(options.json ? {} : { onProgress: (m: string) => process.stderr.write(`${m}\n`) }),
  });
  // A plan with no readable step is an error for scripts too, not "every step is ticked".
  if (e.verdict === 'empty') process.exitCode = 1;
  if (!options.json) {
    process.stdout.write(`${planText(e)}\n`);
    return;
  }
  process.stdout.write(
    `${JSON.stringify({
      plan: e.planPath,
      openSteps: e.openSteps,
      tokens: e.total.tokens,
      low: e.total.low,
      high: e.total.high,
      sharedTokens: e.sharedTokens,
      remainingContext: e.remainingContext,
      freshContext: e.freshContext,
      compactThreshold: e.compactThreshold,
      windowTokens: e.windowTokens,
      windowFrom: e.windowFrom,
      agent: e.agent,
      budget: e.budget,
      basis: e.basis,
      verdict: e.verdict,
      reason: e.reason,
      steps: e.steps.map((s) => ({
        index: s.step.index,
        title: s.step.title,
        done: s.step.done,
        tokens: s.tokens,
      })),
      sessionPlan: sessionPlanJson(sessionPlanOf(e)),
      shards: e.shards.map((s) => ({
        number: s.number,
        steps: s.steps.map((x) => x.index),
        tokens: s.tokens,
      })),
    })}\n`,
  );
}

/** Reads what changed in the history into shim's store; says what the store now holds. */
export async function runRefresh(
  agents: Agents,
  options: { history?: string; json?: boolean },
): Promise<void> {
  const { logs, where } = await historyLogs({
    agents,
    env: process.env,
    ...(options.history !== undefined ? { dir: options.history } : {}),
  });
  const history = await learnTaskHistory({
    logs,
    where,
    home: getShimHome(),
    now: Date.now(),
    ...(options.json ? {} : { onProgress: (m: string) => process.stderr.write(`${m}\n`) }),
  });
  const learned = { sessions: history.sessions, points: history.points.length };
  process.stdout.write(
    options.json
      ? `${JSON.stringify(learned)}\n`
      : `shim estimate: ${learned.points} finished task points from ${learned.sessions} sessions in ${where}\n`,
  );
}

/** Records the actuals that became known, then says how the estimates did. */
export async function runAccuracy(agents: Agents, options: { json?: boolean }): Promise<void> {
  const a = await measureAccuracy(getShimHome(), Date.now(), agents);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(a)}\n`);
    return;
  }
  const lines = [
    `shim estimate --accuracy: ${a.estimates} estimates, ${a.resolved} with their tasks done`,
  ];
  if (a.resolved === 0) {
    lines.push(
      '  No estimate has its actual yet: its tasks are still open (or it was never made).',
    );
  } else {
    const pct = (x: number) => `${Math.round(x * 100)}%`;
    lines.push(
      `  typical miss: ×${Math.exp(a.medianError!).toFixed(2)} (median |log(estimate/actual)| ${a.medianError!.toFixed(3)})`,
      `  inside the 80% range: ${pct(a.coverage!)} · median actual/estimate: ${a.medianRatio!.toFixed(2)}`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
