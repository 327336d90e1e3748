/**
 * A session's command watch (`shim background command-watch`, started by a shell command's
 * before-call hook when a team store is configured, hook/command-watch.ts): a command still
 * running a second after it started gets a background checkpoint, which the team worker sends as
 * any other (replicateSoon). So when the session is killed mid-command — the agent, or the
 * machine after that second — the team store holds the command, the ones before it and the newest
 * failure, and another machine's restore shows them (docs/team.md). Commands that end within the
 * second cost nothing but their notes. The watch reads the session's started calls
 * (store/cache/calls-started.ts) a few times a second; a call the agent's log does not show yet is
 * tried a few times, and once more when the agent is found gone (its log final then). It leaves
 * once the agent is gone and what it saw running is shared, or when the started calls have not
 * changed for a while. One watch
 * per session (store/cache/command-watch-lock.ts).
 * @module
 */
import type { Agent } from '../../agents/agent.ts';
import type { StartedCall } from '../../core/session.ts';
import { readCallsStarted } from '../../store/cache/calls-started.ts';
import { takeCommandWatch } from '../../store/cache/command-watch-lock.ts';
import { loadHookMemory } from '../../store/cache/hook-memory.ts';
import type { Env } from '../../store/home/home.ts';
import { appendLog } from '../../store/home/log.ts';
import { isOwnerAlive } from '../../store/home/process-alive.ts';
import { createCheckpoint } from './create-checkpoint.ts';

export type CommandWatchRequest = {
  agent: Agent;
  transcriptPath: string;
  sessionId: string;
  cwd: string;
  env: Env;
  home: string;
  /** How long a command runs before it is shared (ms). */
  afterMs?: number;
  /** How often the started calls are read (ms). */
  pollMs?: number;
  /** The watch leaves when the started calls have not changed for this long (ms). */
  idleMs?: number;
};

export type CommandWatchResult = {
  /** false: another process watches this session. */
  watched: boolean;
  /** The checkpoints taken for commands still running. */
  shared: number;
};

const AFTER_MS = 1000;
const POLL_MS = 250;
const IDLE_MS = 30_000;
/** Tries for one command whose start the agent's log does not show yet (it lags its hooks). */
const TRIES = 4;
/** A note older than the watch by more than this was left by a session killed before it. */
const LEFT_OVER_MS = 10_000;

const callKey = (c: StartedCall) => `${c.tool}\u0000${c.key}\u0000${c.at}`;

function agentGone(home: string, sessionId: string): boolean {
  const pid = loadHookMemory(home, sessionId).agentPid;
  return pid !== null && !isOwnerAlive(pid);
}

export async function watchRunningCommandsOf(
  request: CommandWatchRequest,
): Promise<CommandWatchResult> {
  const { home, sessionId } = request;
  const release = takeCommandWatch(home, sessionId);
  if (!release) return { watched: false, shared: 0 };
  const afterMs = request.afterMs ?? AFTER_MS;
  const pollMs = request.pollMs ?? POLL_MS;
  const idleMs = request.idleMs ?? IDLE_MS;
  const startedAt = Date.now();
  const done = new Set<string>();
  const tries = new Map<string, number>();
  // Calls the log never showed in the tries (it lags its hooks, more so on a loaded machine).
  let missed = false;
  let seen = '';
  let changedAt = startedAt;
  let shared = 0;
  try {
    for (;;) {
      const now = Date.now();
      const calls = readCallsStarted(home, sessionId).filter(
        (c) => c.at >= startedAt - LEFT_OVER_MS,
      );
      const open = calls.map(callKey).join('\n');
      if (open !== seen) [seen, changedAt] = [open, now];
      const due = calls.filter((c) => now - c.at >= afterMs && !done.has(callKey(c)));
      if (due.length > 0) {
        const held = await shareRunning(request, now);
        for (const call of due) {
          const key = callKey(call);
          const tried = (tries.get(key) ?? 0) + 1;
          tries.set(key, tried);
          if (held || tried >= TRIES) done.add(key);
          if (!held && tried >= TRIES) missed = true;
        }
        if (held) [shared, missed] = [shared + 1, false];
      }
      const waiting = calls.some((c) => !done.has(callKey(c)));
      const gone = !waiting && agentGone(home, sessionId);
      if (gone && missed) {
        // The agent is gone (killed mid-command): its log is final now, so one last look finds
        // the call the tries did not.
        if (await shareRunning(request, Date.now())) shared++;
        missed = false;
      }
      if (!waiting && (gone || now - changedAt >= idleMs)) break;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  } finally {
    release();
  }
  return { watched: true, shared };
}

/**
 * A checkpoint of the session as it is now; true when it holds a command in flight (the agent's
 * log may not show the call yet: then it is tried again).
 */
async function shareRunning(request: CommandWatchRequest, now: number): Promise<boolean> {
  try {
    const { checkpoint } = await createCheckpoint({
      log: { path: request.transcriptPath, agent: request.agent },
      cwd: request.cwd,
      env: request.env,
      home: request.home,
      now,
      trigger: 'milestone',
      reason: 'a command is running (shared with the team store)',
    });
    return checkpoint.toolState.pendingOperations.some((op) => op.command !== undefined);
  } catch (error) {
    appendLog(request.home, 'warn', 'command watch: the running command was not checkpointed', {
      sessionId: request.sessionId,
      error: String(error),
    });
    return false;
  }
}
