/**
 * Runs one agent process for the loop and follows its output live.
 *
 * The agent's stdout goes to a file, not a pipe, and the agent leads its own process group: if
 * the supervisor is killed, the agent carries on writing, and a resumed supervisor re-attaches
 * by reading the same file from the byte it had consumed. Nothing the agent said is lost.
 * @module
 */
import { spawn } from 'node:child_process';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { getProcessStartTime, isProcessAlive, signalTree } from '../capture/process-tree.ts';
import { agentName, type AgentId } from '../core/agent-id.ts';
import { AppError } from '../core/errors.ts';

/** The executable the run starts `agent` with; a run that knows none is told how to name one. */
export function agentBin(
  bins: Partial<Record<AgentId, string>>,
  agent: AgentId,
  runId: string,
): string {
  const bin = bins[agent];
  if (!bin)
    throw new AppError(
      'USAGE',
      `loop run ${runId} knows no ${agentName(agent)} executable`,
      `continue it with shim loop --resume ${runId} --${agent}-bin <path>`,
    );
  return bin;
}

export type AgentLaunch = {
  bin: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdoutPath: string;
  stderrPath: string;
};

export type AgentExit = { code: number | null; signal: string | null };

export type AgentProcess = {
  pid: number;
  startTime: string | null;
  /** Resolves when the process exits (only for processes this supervisor spawned). */
  exited: Promise<AgentExit>;
};

/** Starts the agent detached (own process group), stdout/stderr appended to files. */
export function launchAgent(launch: AgentLaunch): Promise<AgentProcess> {
  // Never through a link planted in the run directory.
  const appendOnly =
    constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW;
  const out = openSync(launch.stdoutPath, appendOnly, 0o600);
  const err = openSync(launch.stderrPath, appendOnly, 0o600);
  return new Promise((resolve, reject) => {
    let child;
    try {
      child = spawn(launch.bin, launch.args, {
        cwd: launch.cwd,
        env: launch.env,
        stdio: ['ignore', out, err],
        detached: true,
      });
    } catch (error) {
      closeSync(out);
      closeSync(err);
      reject(error as Error);
      return;
    }
    const exited = new Promise<AgentExit>((resolveExit) => {
      child.once('exit', (code, signal) => resolveExit({ code, signal }));
    });
    child.once('error', (error) => {
      closeSync(out);
      closeSync(err);
      reject(error);
    });
    child.once('spawn', () => {
      closeSync(out);
      closeSync(err);
      const pid = child.pid!;
      // Not referenced: a supervisor that must exit (signal, error) does not wait for the agent.
      child.unref();
      resolve({ pid, startTime: getProcessStartTime(pid), exited });
    });
  });
}

export type FollowOptions = {
  stdoutPath: string;
  /** Byte offset to start reading from (what an earlier supervisor had consumed). */
  fromOffset: number;
  pid: number;
  startTime: string | null;
  /** Known for processes this supervisor spawned; re-attached ones are polled instead. */
  exited?: Promise<AgentExit>;
  /** One complete line (without '\n') and the byte offset just after it. */
  onLine(line: string, endOffset: number): void;
  pollMs?: number;
  /** Stops following (the process is left alone); resolves with exit null. */
  signal?: AbortSignal;
};

export type FollowResult = AgentExit & { endOffset: number; aborted: boolean };

const CHUNK = 64 * 1024;

/**
 * Reads complete lines from the agent's stdout file as they are written, until the agent has
 * exited and everything it wrote has been read. A partial last line is handed over once the
 * process is gone (its writer can no longer finish it).
 */
export async function followAgentOutput(options: FollowOptions): Promise<FollowResult> {
  const pollMs = options.pollMs ?? 40;
  const fd = openSync(options.stdoutPath, 'r');
  let offset = options.fromOffset;
  let pending = Buffer.alloc(0);
  let pendingStart = offset;
  let exit: AgentExit | null = null;
  void options.exited?.then((value) => {
    exit = value;
  });
  const buffer = Buffer.alloc(CHUNK);

  const drain = (): void => {
    for (;;) {
      const size = fstatSync(fd).size;
      if (size <= offset) return;
      const read = readSync(fd, buffer, 0, Math.min(CHUNK, size - offset), offset);
      if (read <= 0) return;
      offset += read;
      pending = pending.length
        ? Buffer.concat([pending, buffer.subarray(0, read)])
        : Buffer.from(buffer.subarray(0, read));
      let start = 0;
      for (let nl = pending.indexOf(10, start); nl !== -1; nl = pending.indexOf(10, start)) {
        const line = pending.toString('utf8', start, nl);
        options.onLine(line, pendingStart + nl + 1);
        start = nl + 1;
      }
      pendingStart += start;
      pending = pending.subarray(start);
    }
  };

  try {
    for (;;) {
      drain();
      if (options.signal?.aborted)
        return { code: null, signal: null, endOffset: pendingStart, aborted: true };
      const gone =
        exit !== null || (!options.exited && !isProcessAlive(options.pid, options.startTime));
      if (gone) {
        drain();
        if (pending.length > 0) {
          const end = pendingStart + pending.length;
          options.onLine(pending.toString('utf8'), end);
          pendingStart = end;
          pending = Buffer.alloc(0);
        }
        const final: AgentExit = exit ?? { code: null, signal: null };
        return { ...final, endOffset: pendingStart, aborted: false };
      }
      // Wake on the exit itself rather than the next tick: it ends every iteration.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        void options.exited?.then(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Stops the agent: SIGTERM to its group and descendants (Claude Code exits 143 and runs its
 * SessionEnd hooks), SIGKILL to whatever is left after `graceMs`.
 */
export async function stopAgent(
  pid: number,
  startTime: string | null,
  graceMs = 5_000,
): Promise<void> {
  if (!isProcessAlive(pid, startTime)) {
    signalTree(pid, 'SIGKILL'); // strays left in the group
    return;
  }
  signalTree(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && isProcessAlive(pid, startTime)) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  signalTree(pid, 'SIGKILL');
}
