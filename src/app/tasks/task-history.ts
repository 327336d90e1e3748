/**
 * What the user's finished sessions teach about tasks: the transcripts of a folder (Claude Code's
 * projects folder by default), their finished task points and the model learned from them.
 * @module
 */
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fitTaskModel, type TaskModel, type TaskPoint } from '../../core/plan/task-estimate.ts';
import { openStore } from '../open-store.ts';
import type { TranscriptStamp } from '../../store/estimates/task-point-repository.ts';
import { readTaskTimeline } from './task-points.ts';

export type TaskHistory = {
  model: TaskModel;
  sessions: number;
  points: TaskPoint[];
  /** The median growth per response at the learned points (a plan's pace before it starts). */
  medianGrowth: number | null;
};

/** The transcripts under `dir` (one level of project folders, as Claude Code keeps them). */
function listTranscripts(dir: string): string[] {
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
 * Learns from the transcripts under `dir`, `exclude` (the session being estimated) left out.
 * What a transcript teaches is kept in shim's store: it is read again only when it changed.
 */
export async function learnTaskHistory(request: {
  dir: string;
  home: string;
  now: number;
  exclude?: string;
  onProgress?: (message: string) => void;
}): Promise<TaskHistory> {
  const dir = resolve(request.dir);
  const opened = openStore(request.home);
  try {
    const store = opened.taskPoints;
    const known = store.stamps();
    const changed: Array<{ path: string; stamp: TranscriptStamp }> = [];
    for (const path of listTranscripts(dir)) {
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
        `reading ${changed.length} sessions in ${dir} (once: shim keeps what they teach)…`,
      );
    for (const { path, stamp } of changed) {
      let points: TaskPoint[] = [];
      try {
        points = (await readTaskTimeline(path)).points.map(
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
    return summarize(store.finished(dir, exclude));
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
