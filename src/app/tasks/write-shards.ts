/**
 * Writes a plan's shards as files (`shards/01-….md`), never over anything that is not an earlier
 * shard of shim's, and over earlier shards only when asked (they may hold ticked boxes).
 * @module
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { AppError } from '../../core/errors.ts';
import type { Plan } from '../../core/plan/plan.ts';
import {
  readShardMark,
  renderShard,
  shardFileName,
  type Shard,
  type ShardMark,
} from '../../core/plan/shard-plan.ts';

const MARK = '<!-- shim shard: ';

export function writeShards(request: {
  plan: Plan;
  planPath: string;
  shards: readonly Shard[];
  outDir: string;
  force: boolean;
}): string[] {
  const { plan, shards, outDir } = request;
  if (existsSync(outDir)) {
    const present = readdirSync(outDir).filter((name) => !name.startsWith('.'));
    const foreign = present.filter(
      (name) => !name.endsWith('.md') || !readFileSync(join(outDir, name), 'utf8').includes(MARK),
    );
    if (foreign.length > 0)
      throw new AppError(
        'USAGE',
        `${outDir} holds files that are not shim's shards (${foreign.slice(0, 3).join(', ')})`,
        'pass an empty or new folder with --out',
      );
    if (present.length > 0 && !request.force)
      throw new AppError(
        'USAGE',
        `${outDir} already holds ${present.length} shards (they may have ticked steps)`,
        'pass --force to replace them, or another folder with --out',
      );
    for (const name of present) rmSync(join(outDir, name));
  }
  mkdirSync(outDir, { recursive: true });
  const source = relative(outDir, request.planPath) || request.planPath;
  return shards.map((shard) => {
    const path = join(outDir, shardFileName(shard, shards.length));
    writeFileSync(path, renderShard(plan, shards, shard, source), { flag: 'wx' });
    return path;
  });
}

/** The shard files shim wrote in `outDir`, in order, with what each says it covers. */
export function readShardFiles(outDir: string): Array<{ file: string; mark: ShardMark }> {
  if (!existsSync(outDir)) return [];
  return readdirSync(outDir)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .flatMap((name) => {
      const mark = readShardMark(readFileSync(join(outDir, name), 'utf8'));
      return mark ? [{ file: join(outDir, name), mark }] : [];
    });
}
