/**
 * The loop's rescue of a Claude Code session that went over its context window ("Prompt is too
 * long"): `shim rescue`'s plan (app/restore/rescue.ts) — a checkpoint, the last message that still fits,
 * shim's restore — kept in the loop state, so the next iteration forks the session there
 * (`--resume <id> --resume-session-at <uuid> --fork-session`) instead of starting over. Without a
 * point to fork at, a fresh restart with the loop's summary, as before.
 * @module
 */
import { planRescue } from '../app/restore/rescue.ts';
import type { NextStep } from '../core/loop/next-step.ts';
import { prepareRestart, type RestartContext } from './restart.ts';

type RescueStep = Extract<NextStep, { kind: 'rescue' }>;

/** Updates `context.state` for the rescue (or the fallback restart) and records it. */
export async function prepareRescue(step: RescueStep, context: RestartContext): Promise<void> {
  const { journal, state, iteration } = context;
  try {
    if (!context.sessionId) throw new Error('the session is not known');
    const plan = await planRescue({
      home: context.home,
      env: context.env,
      cwd: journal.run.cwd,
      sessionId: context.sessionId,
      now: context.now,
      agents: context.agents,
    });
    state.rescue = { sessionId: plan.sessionId, forkAt: plan.point.uuid, prompt: plan.prompt };
    state.note = null;
    const restarts = journal.run.restarts + 1;
    journal.repo.updateIteration(journal.runId, iteration, { checkpointId: plan.checkpointId });
    journal.saveRun({ restarts });
    journal.saveState(state);
    journal.emit(
      'loop.rescue',
      {
        sessionId: plan.sessionId,
        forkAt: plan.point.uuid,
        contextTokens: plan.point.contextTokens,
        entriesDropped: plan.point.entriesDropped,
        limit: plan.limit,
        checkpointId: plan.checkpointId,
        restoreChars: plan.prompt.length,
        restarts,
        maxRestarts: context.options.maxRestarts,
      },
      iteration,
    );
  } catch (error) {
    journal.emit('loop.monitor_error', { during: 'rescue', error: String(error) }, iteration);
    await prepareRestart(
      { kind: 'restart', reason: 'context_exhaustion', fresh: true, detail: step.detail },
      context,
    );
  }
}
