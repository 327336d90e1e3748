/**
 * SessionStart: records the session. After a compaction, injects the session's exact state as
 * the compaction began (framed as a compaction, with what the agent's summary left out); at
 * startup, injects the user's pending handoff, the team's newer unfinished work (pulled now,
 * within 1.5 s) or this project's interrupted session, rebuilt from its transcript.
 * @module
 */
import { finishPendingCheckpoints } from '../../app/checkpoint/finish-pending-checkpoints.ts';
import { withStore, type Store } from '../../app/open-store.ts';
import { restoreAtStartup } from '../../app/restore/startup-restore.ts';
import { isTeamConfigured } from '../../app/team/team-settings.ts';
import {
  pullAtStart,
  startTeamPullAtStart,
  type TeamPullStarted,
} from '../../app/team/pull-at-start.ts';
import { takeOwnLimitHandoff } from '../../app/restore/limit-handoff.ts';
import { relayAfterClear } from '../../app/restore/relay-restore.ts';
import { startSyncWorker } from '../../app/sync/enqueue-sync.ts';
import { watchSessionIssue } from '../../app/sync/watch-session-issue.ts';
import { formatIssue } from '../../core/sync/issue-ref.ts';
import { formatDuration } from '../../core/resume/resume.ts';
import { renderForHook } from '../restore-text.ts';
import { findAgentPid } from '../../capture/agent-process.ts';
import { loadHookMemory, saveHookMemory } from '../../store/cache/hook-memory.ts';
import { appendLog } from '../../store/home/log.ts';
import { loadHookContext } from '../context.ts';
import type { HookOutput } from '../../agents/agent.ts';
import type { HookRun } from '../hook-run.ts';
import { restoreAfterCompaction } from '../compaction-restore.ts';
import { recordRestore } from '../../app/restore/restore-session.ts';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * A new session: the user's handoff, else (at startup) the project's interrupted session. After
 * `/clear` only a handoff: the user cleared the context on purpose, from a session still running.
 */
async function restoreIntoNewSession(
  store: Store,
  run: HookRun,
  teamPull: TeamPullStarted | null,
): Promise<HookOutput> {
  const { payload, home, env, now } = run;
  if (!payload.cwd) return {};
  const afterClear = payload.source === 'clear';
  const teamResume = isTeamConfigured(run.config, env) && run.config.team.resume;
  const pulled = teamPull ? await pullAtStart(teamPull) : null;
  const restore = await restoreAtStartup(store, {
    sessionId: payload.sessionId!,
    agents: run.agents,
    cwd: payload.cwd,
    home,
    env,
    now,
    restoreInterrupted: afterClear ? false : run.config.restoreAtStartup,
    resumeWindowDays: run.config.resumeWindowDays,
    teamResume,
    render: (checkpoint, detection) =>
      renderForHook(run, store, checkpoint, detection, { afterClear }),
  });
  if (restore === null) return pulled?.tell ? { userMessage: pulled.tell } : {};
  const { checkpoint, detection } = restore;
  const prompt = restore.text ?? '';
  const what =
    restore.kind === 'team' && detection.from
      ? `from ${detection.from.osUser} on ${detection.from.machine}, ${formatDuration(detection.timeSinceInterruption)} ago (session ${checkpoint.sessionId.slice(0, 8)})`
      : restore.kind === 'handoff'
        ? `from your handoff of session ${checkpoint.sessionId.slice(0, 8)}`
        : `from the interrupted session ${checkpoint.sessionId.slice(0, 8)} (${detection.interruptionReason})`;
  return {
    context: prompt,
    userMessage: `shim: restored checkpoint #${checkpoint.checkpointNumber} ${what}: ${plural(checkpoint.taskState.items.length, 'task')}, ${plural(checkpoint.conversationState.userRequests.length, 'request')}.${pulled?.tell ? `\n${pulled.tell}` : ''}`,
  };
}

/** Relay (config `relay`): after /clear, the cleared session's full state in the new context. */
async function relayIntoClearedContext(store: Store, run: HookRun): Promise<HookOutput> {
  const { payload, home, env, now } = run;
  if (!payload.cwd) return {};
  const relayed = await relayAfterClear(store, {
    sessionId: payload.sessionId!,
    agents: run.agents,
    cwd: payload.cwd,
    home,
    env,
    now,
    render: (checkpoint, detection) => renderForHook(run, store, checkpoint, detection),
  });
  if (!relayed) return {};
  const { checkpoint } = relayed;
  return {
    context: relayed.text,
    userMessage: `shim relay: the fresh context starts with the full state of session ${checkpoint.sessionId.slice(0, 8)} (checkpoint #${checkpoint.checkpointNumber}): ${plural(checkpoint.taskState.items.length, 'task')}, ${plural(checkpoint.conversationState.userRequests.length, 'request')}.`,
  };
}

/** A session resumed after it stopped at a usage limit gets its handoff once (with the reset). */
async function restoreOwnLimitHandoff(store: Store, run: HookRun): Promise<HookOutput> {
  const { payload, now } = run;
  const taken = takeOwnLimitHandoff(store, payload.sessionId!, now);
  if (!taken) return {};
  const { checkpoint, detection } = taken;
  const prompt = renderForHook(run, store, checkpoint, detection);
  recordRestore(store, {
    checkpoint,
    intoSession: payload.sessionId!,
    detection,
    now,
    notes: 'SessionStart resume (usage limit handoff)',
    restoreText: prompt,
  });
  return {
    context: prompt,
    userMessage: `shim: restored checkpoint #${checkpoint.checkpointNumber} from the handoff written when this session hit its usage limit.`,
  };
}

/** Counts further apart than this (and 5%) mean shim's reading of the transcript is off. */
const COUNT_TOLERANCE = 2_000;

/**
 * On resume and fork 2.1.330 says how much context it counts: a check of shim's own count, logged
 * when they disagree (a new kind of entry, clearing shim does not see), never shown to the agent.
 */
async function compareContextCount(run: HookRun): Promise<void> {
  const theirs = run.payload.contextTokens;
  if (theirs === null) return;
  const context = await loadHookContext(run);
  if (!context || context.assessment.contextSource !== 'usage') return;
  const shim = context.assessment.contextTokens;
  if (Math.abs(shim - theirs) > Math.max(COUNT_TOLERANCE, theirs * 0.05)) {
    appendLog(run.home, 'warn', `shim's context count differs from ${run.agent.name}'s`, {
      sessionId: run.payload.sessionId,
      shim,
      [run.agent.id]: theirs,
      model: context.state.model,
      cliVersion: context.state.cliVersion,
    });
  }
}

export async function handleSessionStart(run: HookRun): Promise<HookOutput> {
  const { payload, home, now } = run;
  const { sessionId, source } = payload;
  if (!sessionId) return {};
  // A new session asks the team store itself, within a budget: a child process (no pg here),
  // started first (by the runner, before it loaded this handler) so that it loads and connects
  // while this one does its own work below.
  const teamPull =
    run.teamPull !== undefined
      ? run.teamPull
      : await startTeamPullAtStart({ ...payload, config: run.config, env: run.env, home });
  // A risky command's checkpoint whose builder died with the session is one to restore.
  await finishPendingCheckpoints(home, run.env, run.agents, { wait: true });
  saveHookMemory(home, sessionId, { ...loadHookMemory(home, sessionId), agentPid: findAgentPid() });
  if (source === 'resume' || source === 'fork') await compareContextCount(run);
  return withStore(home, async (store) => {
    store.sessions.touch(
      {
        sessionId,
        transcriptPath: payload.transcriptPath,
        cwd: payload.cwd,
        agent: run.agent.id,
      },
      new Date(now).toISOString(),
    );
    if (source === 'resume') store.sessions.reopen(sessionId);
    const issue =
      source === 'startup' || source === 'resume'
        ? await watchSessionIssue({
            store,
            sessionId,
            cwd: payload.cwd,
            config: run.config.sync,
            home,
            env: run.env,
            now: new Date(now).toISOString(),
          })
        : null;
    // Tracker updates a worker left waiting (a retry, a token added since) go out now.
    const due = store.outbox.nextDue();
    // With a team store, the worker sends what waits — started once this session's own pull
    // (below) is over, so that it does not compete with it for the budget.
    const team = source === 'startup' && isTeamConfigured(run.config, run.env);
    const startWorker = issue === null && ((due !== null && Date.parse(due) <= now) || team);
    if (startWorker && !team) await startSyncWorker(payload.cwd ?? null, run.env, home);
    // The statusline names it (it reads the hooks' memory, never the store).
    if (issue)
      saveHookMemory(home, sessionId, {
        ...loadHookMemory(home, sessionId),
        issue: formatIssue(issue),
      });
    if (source === 'compact') return restoreAfterCompaction(store, run);
    if (source === 'resume') return restoreOwnLimitHandoff(store, run);
    if (source === 'clear' && run.config.relay) return relayIntoClearedContext(store, run);
    if (source === 'startup' || source === 'clear') {
      const restored = await restoreIntoNewSession(store, run, teamPull);
      if (startWorker && team) await startSyncWorker(payload.cwd ?? null, run.env, home);
      return restored;
    }
    return {};
  });
}
