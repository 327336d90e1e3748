/**
 * What the user's finished sessions teach about tasks: the transcripts of a folder (Claude Code's
 * projects folder by default), their finished task points and the model learned from them.
 * @module
 */
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fitTaskModel, type TaskModel, type TaskPoint } from '../core/task-estimate.ts';
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

async function learnFrom(
  paths: readonly string[],
): Promise<{ points: TaskPoint[]; sessions: number }> {
  const points: TaskPoint[] = [];
  let sessions = 0;
  for (const path of paths) {
    try {
      const finished = (await readTaskTimeline(path)).points.filter((p) => (p.actual ?? 0) > 0);
      if (finished.length > 0) sessions++;
      points.push(...finished);
    } catch {
      // an unreadable transcript teaches nothing
    }
  }
  return { points, sessions };
}

/** Learns from the transcripts under `dir`, `exclude` (the session being estimated) left out. */
export async function learnTaskHistory(request: {
  dir: string;
  exclude?: string;
  onProgress?: (message: string) => void;
}): Promise<TaskHistory> {
  const paths = listTranscripts(request.dir).filter(
    (p) => request.exclude === undefined || resolve(p) !== resolve(request.exclude),
  );
  if (paths.length > 20)
    request.onProgress?.(`learning from ${paths.length} sessions in ${request.dir}…`);
  const { points, sessions } = await learnFrom(paths);
  const growth = points.map((p) => p.growthPerResponse).sort((a, b) => a - b);
  return {
    model: fitTaskModel(points),
    sessions,
    points,
    medianGrowth: growth.length > 0 ? growth[Math.floor((growth.length - 1) / 2)]! : null,
  };
}
