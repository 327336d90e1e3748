/**
 * Following one iteration's agent from its stdout file to its end: every line goes to the
 * monitor, its signals to the recorder; the iteration timeout and the context threshold stop the
 * agent (once, see termination.ts); an abort (SIGINT/SIGTERM) stops following.
 * @module
 */
import type { TerminationReason } from '../core/loop/iteration-end.ts';
import { followAgentOutput, type AgentExit, type FollowResult } from './agent-run.ts';
import type { IterationMonitor, MonitorSignal } from './iteration-monitor.ts';
import { Termination } from './termination.ts';

export type FollowIterationInput = {
  stdoutPath: string;
  /** Byte offset to read from (past what a killed supervisor had already consumed). */
  fromOffset: number;
  agent: {
    pid: number;
    startTime: string | null;
    /** Resolves when the agent exits, if this supervisor started it. */
    exited?: Promise<AgentExit>;
    /** Found already gone by a resumed supervisor: only its leftover output is read. */
    orphaned: boolean;
  };
  monitor: IterationMonitor;
  /** The iteration's deadline (epoch ms) and how long to wait for a safe point past the threshold. */
  deadline: number;
  safePointWaitMs: number;
  now: () => number;
  signal?: AbortSignal;
  /** A signal the monitor produced from the line ending at `endOffset`. */
  onSignal: (signal: MonitorSignal, endOffset: number) => void;
  /** The monitor or the recorder threw: logged by the caller, the iteration carries on. */
  onError: (error: unknown) => void;
  onTimeout: () => void;
  /** Every consumed line's end, so a resumed supervisor knows where to go on from. */
  onConsumed: (endOffset: number) => void;
};

export type FollowedIteration = {
  follow: FollowResult;
  termination: TerminationReason;
};

export async function followIteration(input: FollowIterationInput): Promise<FollowedIteration> {
  const { agent, monitor } = input;
  const termination = new Termination(agent.pid, agent.startTime);
  const timeout = setTimeout(
    () => {
      input.onTimeout();
      termination.request('timeout');
    },
    Math.max(0, input.deadline - input.now()),
  );
  let drainTimer: NodeJS.Timeout | null = null;
  const abort = new AbortController();
  const onAbort = (): void => abort.abort();
  input.signal?.addEventListener('abort', onAbort, { once: true });

  const onLine = (line: string, endOffset: number): void => {
    let signals: MonitorSignal[] = [];
    try {
      signals = monitor.accept(line);
    } catch (error) {
      input.onError(error); // fail safe: carry on
    }
    for (const signal of signals) {
      try {
        input.onSignal(signal, endOffset);
      } catch (error) {
        input.onError(error);
      }
      if (signal.kind === 'context' && signal.crossed)
        drainTimer = setTimeout(() => termination.request('threshold'), input.safePointWaitMs);
      if (signal.kind === 'safe_point') termination.request('threshold');
    }
    input.onConsumed(endOffset);
  };

  let follow: FollowResult;
  try {
    follow = await followAgentOutput({
      stdoutPath: input.stdoutPath,
      fromOffset: input.fromOffset,
      pid: agent.orphaned ? 0 : agent.pid,
      startTime: agent.startTime,
      ...(agent.exited ? { exited: agent.exited } : {}),
      onLine,
      signal: abort.signal,
    });
  } finally {
    clearTimeout(timeout);
    if (drainTimer) clearTimeout(drainTimer);
    input.signal?.removeEventListener('abort', onAbort);
  }
  await termination.settled();
  return { follow, termination: termination.reason };
}
