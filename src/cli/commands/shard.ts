import { formatThousands as k } from '../../core/format-tokens.ts';
import { dirname, join, resolve } from 'node:path';
import { estimatePlan } from '../../app/plan-estimate.ts';
import { readShardFiles, writeShards } from '../../app/write-shards.ts';
import { readFileSync } from 'node:fs';
import { parsePlan } from '../../core/plan.ts';
import { AppError } from '../../core/errors.ts';
import { shardPlan, shardProgress } from '../../core/shard-plan.ts';
import { getShimHome } from '../../store/home.ts';

/** SHD-004: how far each shard is, from the plan's ticked steps. */
function runShardStatus(planFile: string, options: { out?: string; json?: boolean }): void {
  const planPath = resolve(planFile);
  let text: string;
  try {
    text = readFileSync(planPath, 'utf8');
  } catch {
    throw new AppError(
      'USAGE',
      `plan not found: ${planPath}`,
      'pass the plan the shards came from',
    );
  }
  const outDir = resolve(options.out ?? join(dirname(planPath), 'shards'));
  const progress = shardProgress(parsePlan(text), readShardFiles(outDir));
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ plan: planPath, shards: progress })}\n`);
    return;
  }
  const lines = [`shim shard --status · ${planPath}`];
  if (progress.length === 0)
    lines.push(`  no shards in ${outDir} (shim shard ${planFile} writes them)`);
  progress.forEach((p, i) => {
    const range = p.first === p.last ? `step ${p.first}` : `steps ${p.first}–${p.last}`;
    lines.push(
      `  ${i + 1}. ${p.file.slice(outDir.length + 1)} · ${range} · ${p.done}/${p.steps} done${p.done === p.steps ? ' ✓' : ''}`,
    );
  });
  const next = progress.find((p) => p.done < p.steps);
  if (progress.length > 0) lines.push(next ? `  next: ${next.file}` : '  every shard is done');
  process.stdout.write(`${lines.join('\n')}\n`);
}

export async function runShard(
  planFile: string,
  options: {
    status?: boolean;
    out?: string;
    budget?: number;
    history?: string;
    force?: boolean;
    dryRun?: boolean;
    json?: boolean;
  },
): Promise<void> {
  if (options.status) return runShardStatus(planFile, options);
  const estimate = await estimatePlan({
    planPath: planFile,
    cwd: process.cwd(),
    env: process.env,
    home: getShimHome(),
    now: Date.now(),
    ...(options.history !== undefined ? { historyDir: options.history } : {}),
    ...(options.budget !== undefined ? { budget: options.budget } : {}),
    ...(options.json ? {} : { onProgress: (m: string) => process.stderr.write(`${m}\n`) }),
  });
  const shards =
    estimate.shards.length > 0
      ? estimate.shards
      : shardPlan({
          plan: estimate.plan,
          tokensOf: (step) => estimate.steps.find((s) => s.step === step)!.tokens,
          sharedTokens: estimate.sharedTokens,
          budget: estimate.budget,
        });
  const outDir = resolve(options.out ?? join(dirname(estimate.planPath), 'shards'));
  const split = shards.length > 1;
  const written =
    split && !options.dryRun
      ? writeShards({
          plan: estimate.plan,
          planPath: estimate.planPath,
          shards,
          outDir,
          force: options.force ?? false,
        })
      : [];
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify({
        plan: estimate.planPath,
        tokens: estimate.total.tokens,
        budget: estimate.budget,
        shards: shards.map((s) => ({
          number: s.number,
          steps: s.steps.map((x) => x.index),
          tokens: s.tokens,
          oversize: s.oversize,
        })),
        written,
      })}\n`,
    );
    return;
  }
  const lines = [
    `shim shard · ${estimate.planPath}`,
    `  ${estimate.openSteps} open steps: ~${k(estimate.total.tokens)} tokens; a shard may take ${k(estimate.budget)} (60% of a fresh session's ${k(estimate.freshContext)})`,
  ];
  if (!split) {
    lines.push('  → fits in one session: nothing to split.');
  } else {
    for (const s of shards) {
      const first = s.steps[0]!.index;
      const last = s.steps[s.steps.length - 1]!.index;
      lines.push(
        `  ${s.number}. steps ${first === last ? first : `${first}–${last}`}: ~${k(s.tokens)}${s.oversize ? ' (one step, more than a shard: checkpoint as you go)' : ''}`,
      );
    }
    lines.push(
      options.dryRun
        ? `  (dry run: nothing written; without --dry-run into ${outDir})`
        : `  written: ${written.length} files in ${outDir}`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
