/**
 * A response seen by shim's Claude Code mod, the moment Claude Code has its usage: the session
 * re-levelled with it, the same checkpoint and alert decisions the PostToolUse hook makes (same
 * memory, same once-only claims, so the two never double up), checkpoints handed to a detached
 * `shim checkpoint`, and a status line for the mod to pin. Nothing here waits for git or SQLite.
 * @module
 */
import { basename } from 'node:path';
import { getModelGuidance, getUserAlert, isCompactionDue } from '../../core/context/alerts.ts';
import { decideAfterToolUse, isClaimedUntilDone } from '../../core/policy/hook-policy.ts';
import { checkpointPolicyOf } from '../../core/policy/checkpoint-policy.ts';
import type { Level } from '../../core/context/level.ts';
import {
  withObservedResponses,
  type ObservedResponse,
} from '../../core/context/observed-response.ts';
import type { SessionState } from '../../core/session.ts';
import { renderStatusline } from '../../core/context/status-line.ts';
import type { ShimConfig } from '../../store/config/config.ts';
import type { Env } from '../../store/home/home.ts';
import {
  claimCheckpointSlot,
  claimOnce,
  claimUntilDone,
  loadHookMemory,
  saveHookMemory,
  settleClaim,
} from '../../store/cache/hook-memory.ts';
import { loadModWatch, saveModWatch } from '../../store/cache/mod-watch.ts';
import { loadDeferral, storeDeferral } from '../../store/cache/deferral-file.ts';
import { assessInsideAgent } from './assess-live-session.ts';
import type { Agent } from '../../agents/agent.ts';
import { checkpointInBackground } from '../run-in-background.ts';

/** The width the mod's status line is fitted to (Claude Code wraps a longer one). */
const STATUS_COLUMNS = 80;

export type ObserveStepRequest = {
  /** The agent whose session the mod watches. */
  agent: Agent;
  home: string;
  env: Env;
  now: number;
  config: ShimConfig;
  transcriptPath: string;
  cwd: string | null;
  /** The session as its transcript shows it (it may lag behind the observation). */
  state: SessionState;
  observation: ObservedResponse;
  /** The mod hands a note to the model itself (`$.session.append`): the hooks need not. */
  modNotes?: boolean;
};

export type ObserveStepResult = {
  sessionId: string;
  contextTokens: number;
  level: Level;
  percent: number;
  /** shim's line for `$.ui.status`. */
  status: string;
  /** A level was reached: the one-time notice for the user (`$.ui.toast`). */
  notice: string | null;
  /** A checkpoint was started in the background, and why. */
  checkpoint: string | null;
  /** The note for the model at a level reached, for the mod to deliver (once). */
  note: string | null;
};

export async function observeStep(request: ObserveStepRequest): Promise<ObserveStepResult> {
  const { home, env, now, config, state } = request;
  const sessionId = state.sessionId ?? basename(request.transcriptPath, '.jsonl');
  const watch = loadModWatch(home, sessionId);
  const observed = [...(watch?.observed ?? []), request.observation];
  const live = withObservedResponses(state, observed);
  const memory = loadHookMemory(home, sessionId);
  const assessment = assessInsideAgent(request.agent, live, {
    home,
    env,
    now,
    config,
    sessionId,
    memory,
  });
  // A response's tool calls count from the moment it asks for them: the mod reports before
  // they run, the hook after (the same count once they have). The finished calls stay the
  // hook's to count.
  const toolCalls = Math.max(live.toolCalls + live.pendingTools.length, memory.hookToolCalls);
  const deferral = loadDeferral(home, sessionId);
  const decision = decideAfterToolUse(
    { ...live, toolCalls },
    assessment,
    memory,
    now,
    checkpointPolicyOf(config.checkpoints),
    deferral,
  );
  if (decision.deferral !== deferral) storeDeferral(home, sessionId, decision.deferral);
  saveHookMemory(home, sessionId, {
    ...decision.memory,
    hookToolCalls: Math.max(live.toolCalls, memory.hookToolCalls),
  });

  let checkpoint: string | null = null;
  const planned = decision.checkpoint;
  // The same claim keys as the PostToolUse hook: whichever sees a slot first takes it. A level's
  // checkpoint is claimed until it has started, as the hook claims it: a server that dies in
  // between leaves it to the next look.
  const untilDone = planned !== null && isClaimedUntilDone(planned);
  const slot =
    planned &&
    claimCheckpointSlot(
      home,
      sessionId,
      { compactions: live.compactionCount, toolCalls, trigger: planned.trigger },
      untilDone,
    );
  if (planned && slot) {
    await checkpointInBackground(
      {
        transcriptPath: request.transcriptPath,
        cwd: request.cwd ?? live.cwd,
        agent: request.agent.id,
      },
      planned.trigger,
      planned.reason,
      env,
      home,
      { now: untilDone },
    );
    if (untilDone) settleClaim(home, sessionId, slot);
    checkpoint = planned.reason;
  }
  const level = decision.alert;
  // The level's notice too, as the hook holds it: told once this answer is on its way.
  const alertKey = `alert-${live.compactionCount}-${level}`;
  const alerted = level !== null && claimUntilDone(home, sessionId, alertKey);
  const guidance =
    alerted && !isCompactionDue(assessment) ? getModelGuidance(level, assessment) : null;
  const guidanceKey = `${live.compactionCount}-${level}`;
  // Claimed here when the mod delivers it, so the PostToolUse hook does not hand it over again.
  const note =
    guidance && request.modNotes && claimOnce(home, sessionId, `guidance-${guidanceKey}`)
      ? guidance
      : null;
  saveModWatch(home, {
    sessionId,
    seenAt: now,
    observed,
    level: assessment.level,
    percent: assessment.percent,
    guidance: guidance ? { key: guidanceKey, text: guidance } : (watch?.guidance ?? null),
  });
  if (alerted) settleClaim(home, sessionId, alertKey);
  return {
    sessionId,
    contextTokens: assessment.contextTokens,
    level: assessment.level,
    percent: assessment.percent,
    status: `shim ${renderStatusline(
      {
        percent: assessment.percent,
        windowPercent: assessment.windowPercent,
        level: assessment.level,
        risk: assessment.risk,
        turnsToCompact: assessment.forecast.turnsToCompact,
        turnsToCompactLow: assessment.forecast.turnsToCompactLow,
        turnsToCompactHigh: assessment.forecast.turnsToCompactHigh,
        checkpointAgeMs:
          decision.memory.lastCheckpointAt !== null ? now - decision.memory.lastCheckpointAt : null,
        autoCompact: assessment.autoCompact,
      },
      STATUS_COLUMNS - 5,
      false,
    )}`,
    notice: alerted
      ? [
          decision.released,
          getUserAlert(level, assessment, checkpoint ? 'A checkpoint is being saved.' : ''),
        ]
          .filter(Boolean)
          .join('\n')
      : decision.released,
    checkpoint,
    note,
  };
}
