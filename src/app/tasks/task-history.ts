/**
 * What the user's finished sessions teach about tasks: the logs of the agents' sessions (or of a
 * folder the user names), their finished task points and the model learned from them.
 * @module
 */
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fitTaskModel, type TaskModel, type TaskPoint } from '../../core/plan/task-estimate.ts';
import { openStore } from '../open-store.ts';
import type { TranscriptStamp } from '../../store/ports/task-points.ts';
import { readTaskTimeline } from './task-points.ts';
import type { Agent, Agents } from '../../agents/agent.ts';
import type { Env } from '../../store/home/home.ts';
import { detectLogAgent, type SessionLog } from '../session/session-log.ts';

export type TaskHistory = {
  model: TaskModel;
  sessions: number;
  points: TaskPoint[];
  /** The median growth per response at the learned points (a plan's pace before it starts). */
  medianGrowth: number | null;
};

/** The logs under `dir` (one level of project folders, as Claude Code keeps them). */
function listLogFiles(dir: string): string[] {
  const found: string[] = [];
  const visit = (at: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(at);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(at, name);
      let isDir: boolean;
      try {
        isDir = statSync(path).isDirectory();
      } catch {
        continue;
      }
      if (isDir && depth < 1) visit(path, depth + 1);
      else if (!isDir && /\.jsonl(?:\.gz)?$/.test(name)) found.push(path);
    }
  };
  visit(dir, 0);
  return found.sort();
}

/**
 * The logs a history is learned from: every session of `agents`, or, where the user names a
 * folder (`--history <dir>`), the logs under it, each read by the agent it is told to be.
 */
export async function historyLogs(request: {
  agents: Agents;
  only?: readonly Agent[];
  dir?: string;
  env: Env;
}): Promise<{ logs: SessionLog[]; where: string }> {
  if (request.dir !== undefined) {
    const dir = resolve(request.dir);
    const logs: SessionLog[] = [];
    for (const path of listLogFiles(dir)) {
      try {
        logs.push({ path, agent: await detectLogAgent(path, null, request.agents) });
      } catch {
        // not a session log: it teaches nothing
      }
    }
    return { logs, where: dir };
  }
  const agents =
    request.only ?? (await Promise.all(request.agents.ids.map((id) => request.agents.agent(id))));
  return {
    logs: agents.flatMap((agent) =>
      agent.sessions.all(request.env).map((f) => ({ path: resolve(f.path), agent })),
    ),
    where: agents.map((a) => a.sessions.root(request.env)).join(', '),
  };
}

/**
 * Learns from the transcripts under `dir`, `exclude` (the session being estimated) left out.
 * What a transcript teaches is kept in shim's store: it is read again only when it changed.
 */
export async function learnTaskHistory(request: {
  /** The logs that teach, with their agents (historyLogs). */
  logs: readonly SessionLog[];
  /** Where they are, for what the user is told. */
  where: string;
  home: string;
  now: number;
  exclude?: string;
  onProgress?: (message: string) => void;
}): Promise<TaskHistory> {
  const opened = openStore(request.home);
  try {
    const store = opened.taskPoints;
    const known = store.stamps();
    const agentOf = new Map(request.logs.map((l) => [l.path, l.agent]));
    const changed: Array<{ path: string; stamp: TranscriptStamp }> = [];
    for (const { path } of request.logs) {
      try {
        const s = statSync(path);
        const stamp = { size: s.size, mtimeMs: s.mtimeMs };
        const seen = known.get(path);
        if (!seen || seen.size !== stamp.size || seen.mtimeMs !== stamp.mtimeMs)
          changed.push({ path, stamp });
      } catch {
        // gone since it was listed
      }
    }
    if (changed.length > 20)
      request.onProgress?.(
        `reading ${changed.length} sessions in ${request.where} (once: shim keeps what they teach)…`,
      );
    for (const { path, stamp } of changed) {
      let points: TaskPoint[] = [];
      try {
        points = (await readTaskTimeline(path, agentOf.get(path)!)).points.map(
          ({ openTasks, growthPerResponse, actual, project }) => ({
            openTasks,
            growthPerResponse,
            ...(actual === undefined ? {} : { actual }),
            ...(project === undefined ? {} : { project }),
          }),
        );
      } catch {
        // an unreadable transcript teaches nothing (and is not read again until it changes)
      }
      store.replace(path, stamp, points, request.now);
    }
    const exclude = request.exclude === undefined ? undefined : resolve(request.exclude);
    return summarize(store.finished(null, exclude).filter((p) => agentOf.has(p.path)));
  } finally {
    opened.close();
  }
}

/** The model from what shim's store holds, no transcript read (for hooks). */
export function storedTaskHistory(home: string): TaskHistory {
  const store = openStore(home);
  try {
    return summarize(store.taskPoints.finished(null));
  } finally {
    store.close();
  }
}

function summarize(points: Array<TaskPoint & { path: string }>): TaskHistory {
  const growth = points.map((p) => p.growthPerResponse).sort((a, b) => a - b);
  return {
    model: fitTaskModel(points),
    sessions: new Set(points.map((p) => p.path)).size,
    points,
    medianGrowth: growth.length > 0 ? growth[Math.floor((growth.length - 1) / 2)]! : null,
  };
}
