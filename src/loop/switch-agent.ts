/**
 * Carrying a run over to its fallback agent (`shim loop --fallback-agent`) when the running one
 * hit its usage limit: a checkpoint of the session being left, its restore rendered for the agent
 * taking over (app/restore/render-restore.ts, the `shim resume --print --for <agent>` text), and that
 * restore at the head of the new agent's first prompt. The decision is core/loop/agent-fallback.ts.
 * @module
 */
import type { Store } from '../app/open-store.ts';
import { createCheckpoint } from '../app/checkpoint/create-checkpoint.ts';
import type { Agents } from '../agents/agent.ts';
import { renderRestoreFor } from '../app/restore/render-restore.ts';
import { agentName, type AgentId } from '../core/agent-id.ts';
import type { NextStep } from '../core/loop/next-step.ts';
import type { ResumeDetection } from '../core/resume/resume.ts';
import type { Env } from '../store/home/home.ts';
import type { LoopState } from './loop-state.ts';
import type { RunJournal } from './run-journal.ts';

type SwitchStep = Extract<NextStep, { kind: 'switch_agent' }>;

export type SwitchContext = {
  journal: RunJournal;
  agents: Agents;
  state: LoopState;
  store: Store;
  home: string;
  env: Env;
  now: number;
  from: AgentId;
  /** The session being left (null when its agent never named one). */
  sessionId: string | null;
};

/** Updates `context.state` so the next iteration starts `step.to` fresh, with the restore. */
export async function prepareAgentSwitch(step: SwitchStep, context: SwitchContext): Promise<void> {
  const { journal, state, from } = context;
  const to = step.to;
  const iteration = journal.run.iteration;
  let checkpointId: string | null = null;
  let restore: string | null = null;
  if (context.sessionId) {
    try {
      // Found through the agent that wrote it: a Codex thread id is no Claude Code session id.
      const agent = await context.agents.agent(from);
      const file = agent.sessions.byId(context.sessionId, journal.run.cwd, context.env);
      if (!file) throw new Error(`no ${agent.name} log of session ${context.sessionId}`);
      const saved = await createCheckpoint({
        log: { path: file.path, agent },
        cwd: journal.run.cwd,
        env: context.env,
        home: context.home,
        now: context.now,
        trigger: 'loop_restart',
        reason: `shim loop ${journal.runId}: ${agentName(from)} hit ${step.reason}; continuing in ${agentName(to)}`,
        store: context.store,
        interrupted: true,
      });
      checkpointId = saved.checkpoint.id;
      const detection: ResumeDetection = {
        shouldResume: true,
        lastCheckpointId: checkpointId,
        interruptionReason: 'usage_limit',
        timeSinceInterruption: 0,
        confidence: 1,
        explanation: `${agentName(from)} stopped at ${step.reason}; shim loop carries the work on in ${agentName(to)} from this checkpoint.`,
      };
      restore = renderRestoreFor(saved.checkpoint, detection, await context.agents.agent(to));
      journal.repo.updateIteration(journal.runId, iteration, { checkpointId });
      journal.emit(
        'loop.checkpoint',
        { checkpointId, sessionId: context.sessionId, bytes: saved.size.compressed },
        iteration,
      );
    } catch (error) {
      journal.emit('loop.monitor_error', { during: 'checkpoint', error: String(error) }, iteration);
    }
  }
  state.pendingSummary =
    restore ??
    `${agentName(from)} stopped at ${step.reason} and no checkpoint of its session could be taken. Check the files and \`git status\` for what it had done.`;
  state.nextMode = 'fresh';
  state.note = null;
  state.currentAgent = to;
  state.limitAttempts = 0;
  journal.saveRun({ sessionId: null, agent: to });
  journal.saveState(state);
  journal.emit(
    'loop.agent_switched',
    { from, to, reason: step.reason, checkpointId, restoreChars: restore?.length ?? 0 },
    iteration,
  );
}
