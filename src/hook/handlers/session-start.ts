/**
 * SessionStart: records the session. After a compaction, injects the session's exact state as
 * the compaction began (framed as a compaction, with what Claude Code's summary left out); at
 * startup, injects the user's pending handoff, the team's newer unfinished work (pulled now,
 * within 1.5 s) or this project's interrupted session, rebuilt from its transcript.
 * @module
 */
import { finishPendingCheckpoints } from '../../app/checkpoint/finish-pending-checkpoints.ts';
import { withStore, type Store } from '../../app/open-store.ts';
import { checkpointFromLiveTranscript, recordRestore } from '../../app/restore/restore-session.ts';
import { restoreAtStartup } from '../../app/restore/startup-restore.ts';
import { isTeamConfigured } from '../../app/team/team-settings.ts';
import { pullAtStart } from '../../app/team/pull-at-start.ts';
import { takeOwnLimitHandoff } from '../../app/restore/limit-handoff.ts';
import { relayAfterClear } from '../../app/restore/relay-restore.ts';
import { startSyncWorker } from '../../app/sync/enqueue-sync.ts';
import { watchSessionIssue } from '../../app/sync/watch-session-issue.ts';
import { formatIssue } from '../../core/sync/issue-ref.ts';
import { compactionDetection, formatDuration } from '../../core/resume/resume.ts';
import { renderRestoreFor } from '../../app/restore/render-restore.ts';
import { renderRestore } from '../../core/resume/resume-prompt.ts';
import { loadRestoreTarget } from '../../app/restore/restore-target.ts';
import { DEFAULT_AGENT } from '../../core/agent-id.ts';
import { findAgentPid } from '../../capture/agent-process.ts';
import { loadHookMemory, saveHookMemory } from '../../store/cache/hook-memory.ts';
import { readLastCompactSummary } from '../../agents/claude/compact-summary.ts';
import { appendLog } from '../../store/home/log.ts';
import { loadHookContext } from '../context.ts';
import type { HookOutput } from '../../agents/agent.ts';
import type { HookRun } from '../hook-run.ts';

/** A PostCompact summary older than this belongs to an earlier compaction. */
const SUMMARY_MAX_AGE_MS = 10 * 60_000;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

async function restoreAfterCompaction(store: Store, run: HookRun): Promise<HookOutput> {
  const { payload, home, env, now } = run;
  const sessionId = payload.sessionId!;
  const live = await checkpointFromLiveTranscript({
    store,
    home,
    env,
    now,
    transcriptPath: payload.transcriptPath,
    latest: store.checkpoints.getMostRecent(sessionId),
    trigger: 'pre_compact',
    cwd: payload.cwd ?? process.cwd(),
  });
  const { checkpoint } = live;
  const target = await loadRestoreTarget(run.agent ?? DEFAULT_AGENT);
  const detection = compactionDetection(
    checkpoint.id,
    `${target.name} compacted this session; its exact state is restored on top of the summary.`,
  );
  // PostCompact handed over Claude Code's summary (2.1.330); older versions leave it in the
  // transcript.
  const recent = new Date(now - SUMMARY_MAX_AGE_MS).toISOString();
  const summary =
    store.compactionSummaries.getLatest(sessionId, recent)?.summary ??
    (payload.transcriptPath ? readLastCompactSummary(payload.transcriptPath) : null);
  const prompt = await renderRestoreFor(checkpoint, detection, target, { compactSummary: summary });
  recordRestore(store, {
    checkpoint,
    intoSession: sessionId,
    detection,
    now,
    notes: 'SessionStart compact',
    restoreText: prompt,
    compactSummary: summary,
    messagesAtRestore: checkpoint.signals.messageCount,
  });
  return {
    context: prompt,
    userMessage: `shim: restored checkpoint #${checkpoint.checkpointNumber} after the compaction: ${plural(checkpoint.taskState.items.length, 'task')}, ${plural(checkpoint.conversationState.userRequests.length, 'request')}.`,
  };
}

/**
 * A new session: the user's handoff, else (at startup) the project's interrupted session. After
 * `/clear` only a handoff: the user cleared the context on purpose, from a session still running.
 */
async function restoreIntoNewSession(store: Store, run: HookRun): Promise<HookOutput> {
  const { payload, home, env, now } = run;
  if (!payload.cwd) return {};
  const afterClear = payload.source === 'clear';
  const target = await loadRestoreTarget(run.agent ?? DEFAULT_AGENT);
  const teamResume = isTeamConfigured(run.config, env) && run.config.team.resume;
  // A new session asks the team store itself, within a budget (a child process: no pg here).
  const pulled =
    teamResume && !afterClear ? await pullAtStart({ cwd: payload.cwd, env, home }) : null;
  const restore = await restoreAtStartup(store, {
    sessionId: payload.sessionId!,
    cwd: payload.cwd,
    home,
    env,
    now,
    restoreInterrupted: afterClear ? false : run.config.restoreAtStartup,
    resumeWindowDays: run.config.resumeWindowDays,
    teamResume,
    render: (checkpoint, detection) => renderRestore({ checkpoint, detection, target, afterClear }),
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
  const target = await loadRestoreTarget(run.agent ?? DEFAULT_AGENT);
  const relayed = await relayAfterClear(store, {
    sessionId: payload.sessionId!,
    cwd: payload.cwd,
    home,
    env,
    now,
    render: (checkpoint, detection) => renderRestore({ checkpoint, detection, target }),
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
  const prompt = await renderRestoreFor(checkpoint, detection, run.agent ?? DEFAULT_AGENT);
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
  const claudeCode = run.payload.contextTokens;
  if (claudeCode === null) return;
  const context = await loadHookContext(run);
  if (!context || context.assessment.contextSource !== 'usage') return;
  const shim = context.assessment.contextTokens;
  if (Math.abs(shim - claudeCode) > Math.max(COUNT_TOLERANCE, claudeCode * 0.05)) {
    appendLog(run.home, 'warn', "shim's context count differs from Claude Code's", {
      sessionId: run.payload.sessionId,
      shim,
      claudeCode,
      model: context.state.model,
      cliVersion: context.state.cliVersion,
    });
  }
}

export async function handleSessionStart(run: HookRun): Promise<HookOutput> {
  const { payload, home, now } = run;
  const { sessionId, source } = payload;
  if (!sessionId) return {};
  // A risky command's checkpoint whose builder died with the session is one to restore.
  await finishPendingCheckpoints(home, run.env, { wait: true });
  saveHookMemory(home, sessionId, { ...loadHookMemory(home, sessionId), agentPid: findAgentPid() });
  if (source === 'resume' || source === 'fork') await compareContextCount(run);
  return withStore(home, async (store) => {
    store.sessions.touch(
      {
        sessionId,
        transcriptPath: payload.transcriptPath,
        cwd: payload.cwd,
        ...(run.agent ? { agent: run.agent } : {}),
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
      const restored = await restoreIntoNewSession(store, run);
      if (startWorker && team) await startSyncWorker(payload.cwd ?? null, run.env, home);
      return restored;
    }
    return {};
  });
}
