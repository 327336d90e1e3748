/**
 * Preparing a restart: a checkpoint of the session being left, then either a summary for a fresh
 * session (written to the run directory, carried in the next prompt) or a note for resuming the
 * same session.
 * @module
 */
import { join } from 'node:path';
import type { Store } from '../app/open-store.ts';
import { createCheckpoint } from '../app/checkpoint/create-checkpoint.ts';
import type { Agents } from '../agents/agent.ts';
import { listChangedFilesSince } from '../capture/workspace.ts';
import {
  LOOP_SUMMARY_MAX_CHARS,
  renderLoopSummary,
  type LoopSummaryInput,
} from '../core/loop/loop-summary.ts';
import type { NextStep } from '../core/loop/next-step.ts';
import { truncate } from '../core/truncate.ts';
import { redactText } from '../redact/redact.ts';
import type { Env } from '../store/home/home.ts';
import { getRunDir, type LoopEventName } from '../store/loop/loop-event-log.ts';
import { parseEventData } from '../store/loop/loop-rows.ts';
import { writeFileSafely } from '../store/home/safe-file.ts';
import { describeEvent } from './describe-event.ts';
import type { LoopState } from './loop-state.ts';
import type { LoopOptions } from './options.ts';
import type { RunJournal } from './run-journal.ts';

type RestartStep = Extract<NextStep, { kind: 'restart' }>;

export type RestartContext = {
  journal: RunJournal;
  state: LoopState;
  options: LoopOptions;
  agents: Agents;
  store: Store;
  home: string;
  env: Env;
  now: number;
  /** The iteration being left, its session and its last context reading. */
  iteration: number;
  sessionId: string | null;
  lastPercent: number;
};

/** The events a summary's "recent log" is made of. */
const SUMMARY_EVENT_NAMES: LoopEventName[] = [
  'loop.iteration_started',
  'loop.tool_call',
  'loop.agent_error',
  'loop.compaction',
  'loop.context_exhaustion_warning',
  'loop.iteration_finished',
  'loop.test_run',
  'loop.stuck_detected',
  'loop.usage_limit_wait',
  'loop.crash_restart',
  'loop.context_exhaustion_restart',
];
const RECENT_LOG_LINES = 14;

/** Updates `context.state` for the restart and records it. */
export async function prepareRestart(step: RestartStep, context: RestartContext): Promise<void> {
  const { journal, state, iteration, sessionId } = context;
  const checkpointId =
    step.fresh && sessionId ? await checkpointSession(context, step.detail) : null;
  const restarts = journal.run.restarts + 1;
  if (step.fresh) {
    const summary = await summarize(
      context,
      step.reason,
      // The summary words the context reason itself, with the percent.
      step.reason === 'context_exhaustion' ? null : step.detail,
      checkpointId,
    );
    const path = join(getRunDir(context.home, journal.runId), `summary-${iteration}.md`);
    try {
      writeFileSafely(path, `${summary}\n`);
    } catch {
      // the summary is also in the prompt and the event
    }
    journal.emit('loop.summary_written', { path, chars: summary.length, summary }, iteration);
    state.pendingSummary = summary;
    state.nextMode = 'fresh';
  } else {
    state.nextMode = 'continue';
    state.note = `Your previous run was interrupted (${step.detail}). Check the state of your work and carry on.`;
  }
  if (step.reason === 'stuck') state.stuckRestarted = true;
  journal.saveRun({ restarts, sessionId: step.fresh ? null : sessionId });
  journal.saveState(state);
  const name: LoopEventName =
    step.reason === 'context_exhaustion'
      ? 'loop.context_exhaustion_restart'
      : step.reason === 'stuck'
        ? 'loop.stuck_restart'
        : 'loop.crash_restart';
  journal.emit(
    name,
    {
      reason: step.reason,
      detail: step.detail,
      fresh: step.fresh,
      restarts,
      maxRestarts: context.options.maxRestarts,
      checkpointId,
    },
    iteration,
  );
}

/** The checkpoint is a bonus, not a precondition: the summary still carries the work. */
async function checkpointSession(context: RestartContext, detail: string): Promise<string | null> {
  const { journal, iteration } = context;
  try {
    // Found through the agent that wrote it: a Codex thread id is no Claude Code session id.
    const agent = await context.agents.agent(context.state.currentAgent ?? context.options.agent);
    const file = agent.sessions.byId(context.sessionId!, journal.run.cwd, context.env);
    if (!file) throw new Error(`no ${agent.name} log of session ${context.sessionId}`);
    const result = await createCheckpoint({
      log: { path: file.path, agent },
      cwd: journal.run.cwd,
      env: context.env,
      home: context.home,
      now: context.now,
      trigger: 'loop_restart',
      reason: `shim loop ${journal.runId}: ${detail}`,
      store: context.store,
    });
    const checkpointId = result.checkpoint.id;
    journal.repo.updateIteration(journal.runId, iteration, { checkpointId });
    journal.emit(
      'loop.checkpoint',
      { checkpointId, sessionId: context.sessionId, bytes: result.size.compressed },
      iteration,
    );
    return checkpointId;
  } catch (error) {
    journal.emit('loop.monitor_error', { during: 'checkpoint', error: String(error) }, iteration);
    return null;
  }
}

async function summarize(
  context: RestartContext,
  reason: LoopSummaryInput['reason'],
  detail: string | null,
  checkpointId: string | null,
): Promise<string> {
  const { journal, options, state } = context;
  let recent: string[] = [];
  try {
    recent = journal.repo
      .listEvents(journal.runId, { names: SUMMARY_EVENT_NAMES })
      .slice(-RECENT_LOG_LINES)
      .map((e) => describeEvent({ ...e, data: parseEventData(e) ?? {} }));
  } catch {
    // a partial summary rather than none
  }
  let filesChanged: string[] = [];
  try {
    filesChanged = listChangedFilesSince(journal.run.cwd, journal.run.startCommit) ?? [];
  } catch {
    // outside git, or git failed: the summary goes without
  }
  const summary = renderLoopSummary({
    goal: options.goal,
    iteration: journal.run.iteration,
    maxIterations: options.maxIterations,
    restarts: journal.run.restarts + 1,
    maxRestarts: options.maxRestarts,
    reason,
    reasonDetail: detail,
    contextPercent: context.lastPercent,
    sessionId: context.sessionId,
    checkpointId,
    testStatus: state.testStatus,
    filesChanged,
    errorPatterns: state.errorPatterns,
    recentLog: recent,
  });
  return truncate((await redactText(summary)).text, LOOP_SUMMARY_MAX_CHARS);
}
