/** One event of a loop run as one line a person reads (progress output, logs, the summary). */
import { agentName, isAgentId } from '../core/agent-id.ts';
import { renderContextBar } from '../core/loop/context-monitor.ts';
import { describeLoopPlan, type LoopPlan } from '../core/loop/loop-plan.ts';
import { describeReordering, type Reordering } from '../core/plan/session-plan.ts';
import { truncate } from '../core/truncate.ts';
import type { LoopEvent } from '../store/loop/loop-event-log.ts';

type Data = Record<string, unknown>;

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
const short = (id: unknown): string => str(id).slice(0, 8);
const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
const money = (value: unknown): string => `$${(num(value) ?? 0).toFixed(2)}`;

/** "threshold 70%", or the seed's "restart at 70% of a 200000-token window". */
function restartText(d: Data): string {
  const window = d.contextWindow as { percent?: unknown; windowTokens?: unknown } | null;
  if (window && typeof window === 'object') {
    const tokens = num(window.windowTokens);
    return `restart at ${num(window.percent)}% of ${tokens !== null ? `a ${tokens}-token` : "the model's"} window`;
  }
  return `threshold ${num(d.thresholdPercent)}%`;
}

/** The plan, the reordering the first session calls for, and what the estimates rest on. */
function describePlanEvent(d: Data): string {
  const parts = [describeLoopPlan(d as unknown as LoopPlan)];
  const reorder = Array.isArray(d.reorder) ? (d.reorder as Reordering[]) : [];
  for (const r of reorder) parts.push(describeReordering(r, 'before the first restart'));
  // No finished task of this agent to learn from: the task model's prior sizes every step.
  if (d.basis === 'prior')
    parts.push(
      `estimates from shim's prior: no finished tasks${isAgentId(d.agent) ? ` of ${agentName(d.agent)}` : ''} to learn from yet`,
    );
  const name = isAgentId(d.agent) ? agentName(d.agent) : 'the agent';
  const window = num(d.windowTokens);
  if (d.windowFrom === 'agent-default')
    parts.push(
      `approximate: no ${name} session in this directory that names its model, so sized against its default window for an unknown model${window !== null ? ` (${Math.round(window / 1000)}k)` : ''}`,
    );
  return parts.join('; ');
}

function describeData(name: string, d: Data): string {
  switch (name) {
    case 'loop.started':
      return `started: ${truncate(str(d.goal), 80)} (${restartText(d)}, at most ${plural(num(d.maxIterations) ?? 0, 'iteration')}, ${plural(num(d.maxRestarts) ?? 0, 'restart')})`;
    case 'loop.plan':
      return Array.isArray(d.steps) ? describePlanEvent(d) : 'plan';
    case 'loop.resumed':
      return d.agentAlive === true
        ? 're-attached to the running agent'
        : `resumed the run${d.fromStatus ? ` (was ${str(d.fromStatus)})` : ''}`;
    case 'loop.iteration_started': {
      // Every agent named alike (none is the default one).
      const agent = isAgentId(d.agent) ? `${agentName(d.agent)} ` : '';
      if (d.mode === 'rescue')
        return `rescuing session ${short(d.sessionId)}: a fork at the last point that fits`;
      return d.mode === 'continue'
        ? `continuing ${agent}session ${short(d.sessionId)}`
        : `fresh ${agent}session${d.summaryInjected === true ? ' with the loop summary' : ''}`;
    }
    case 'loop.agent_session':
      return `agent session ${short(d.sessionId)} (${str(d.model) || 'model ?'})`;
    case 'loop.context_usage':
      return `context ${renderContextBar(num(d.percent) ?? 0, 10)} · ${Math.round((num(d.tokens) ?? 0) / 1000)}k tokens`;
    case 'loop.context_exhaustion_warning':
      return `context at ${num(d.percent)}% ≥ ${num(d.thresholdPercent)}%: ending the iteration at the next safe point`;
    case 'loop.tool_call':
      return `${str(d.name)} ${truncate(str(d.input), 70)}`;
    case 'loop.agent_error':
      return `agent error: ${truncate(str(d.text) || str(d.reason), 120)}`;
    case 'loop.compaction':
      return `Claude Code compacted the session itself (${str(d.trigger)}, ${num(d.preTokens) ?? '?'} tokens)`;
    case 'loop.checkpoint':
      return `checkpoint ${short(d.checkpointId)} saved (shim show ${short(d.checkpointId)})`;
    case 'loop.summary_written':
      return `loop summary written (${num(d.chars)} chars)`;
    case 'loop.context_exhaustion_restart':
    case 'loop.stuck_restart':
    case 'loop.crash_restart':
      return `restart ${num(d.restarts)}/${num(d.maxRestarts)}${d.fresh === true ? ' with a fresh session' : ''}: ${truncate(str(d.detail), 100)}`;
    case 'loop.iteration_finished':
      return `iteration ended: ${str(d.outcome)} · ${money(d.costUsd)} · ${plural(num(d.toolCalls) ?? 0, 'tool call')} · peak ${Math.round(num(d.peakPercent) ?? 0)}%`;
    case 'loop.test_run':
      return `test \`${truncate(str(d.command), 60)}\` ${d.passed === true ? 'passed' : d.timedOut === true ? 'timed out' : `failed (exit ${num(d.exitCode) ?? '?'})`}`;
    case 'loop.completion_claimed':
      return `the agent reported completion (${str(d.marker)})`;
    case 'loop.mid_work':
      return `the turn ended with background work still running${Array.isArray(d.pending) && d.pending.length > 0 ? ` (${truncate(d.pending.map(String).join('; '), 100)})` : ''}: not a completion`;
    case 'loop.completed':
      return `completed: ${str(d.reason)} (${num(d.iterations)} iterations, ${money(d.costUsd)})`;
    case 'loop.stuck_detected':
      return `stuck: ${str(d.detail)}`;
    case 'loop.usage_limit_wait':
      return `waiting until ${str(d.until)}: ${truncate(str(d.reason), 100)}`;
    case 'loop.usage_limit_resumed':
      return 'the limit has reset; going on';
    case 'loop.agent_switched':
      return `${isAgentId(d.from) ? agentName(d.from) : '?'} hit ${truncate(str(d.reason), 80)}: carrying on in ${isAgentId(d.to) ? agentName(d.to) : '?'}${d.checkpointId ? ` from checkpoint ${short(d.checkpointId)}` : ''}`;
    case 'loop.rescue':
      return `the session went over the context limit: forking it at ${short(d.forkAt)} (${num(d.contextTokens) ?? '?'} tokens) with shim's restore`;
    case 'loop.agent_timeout':
      return `the agent did not finish within ${Math.round((num(d.timeoutMs) ?? 0) / 1000)} s; stopping it`;
    case 'loop.agent_crashed':
      return `the agent exited without a result (exit ${num(d.exitCode) ?? str(d.signal) ?? '?'})`;
    case 'loop.budget_exceeded':
      return `budget reached: ${money(d.costUsd)} of ${money(d.budgetUsd)}`;
    case 'loop.stopped':
      return `stopped (${str(d.status)}): ${truncate(str(d.detail) || str(d.reason), 140)}`;
    case 'loop.monitor_error':
      return `monitor error (ignored): ${truncate(str(d.error), 120)}`;
    default:
      return truncate(JSON.stringify(d), 120);
  }
}

/** "[3] Bash npm test" — the iteration in brackets, then what happened. */
export function describeEvent(event: Pick<LoopEvent, 'name' | 'iteration' | 'data'>): string {
  let text: string;
  try {
    const data = event.data && typeof event.data === 'object' ? (event.data as Data) : {};
    text = describeData(event.name, data);
  } catch {
    text = event.name;
  }
  return event.iteration ? `[${event.iteration}] ${text}` : text;
}
