import type { AgentId } from '../../core/agent-id.ts';
import { formatThousands as k } from '../../core/format-tokens.ts';
import { dirname, join, resolve } from 'node:path';
import { estimatePlan } from '../../app/tasks/plan-estimate.ts';
import { readShardFiles, writeShards } from '../../app/tasks/write-shards.ts';
import { readFileSync } from 'node:fs';
import { parsePlan } from '../../core/plan/plan.ts';
import { AppError } from '../../core/errors.ts';
import { shardPlan, shardProgress } from '../../core/plan/shard-plan.ts';
import { getShimHome } from '../../store/home/home.ts';
import { currentBranch } from '../../capture/git-run.ts';
import { findProjectRoot } from '../../capture/project.ts';
import { findIssueInBranch, parseIssueArgument, type IssueRef } from '../../core/sync/issue-ref.ts';
import type { ShardProgress } from '../../core/plan/shard-plan.ts';
import { currentIssue } from '../../app/sync/link-issue.ts';
import { originRepo } from '../../app/origin-repo.ts';
import { completeFinishedShards, createShardIssues } from '../../app/sync/shard-issues.ts';
import type { Agents } from '../../agents/agent.ts';

/** The issue the shards become sub-issues of: --parent, else the project's (link or branch). */
async function parentIssue(parent: string | undefined, home: string): Promise<IssueRef> {
  if (parent !== undefined) {
    const ref = parseIssueArgument(parent);
    if (!ref)
      throw new AppError(
        'USAGE',
        `not an issue: ${parent}`,
        'give ANV-123, #123, owner/repo#123 or an issue URL',
      );
    return ref.tracker === 'github' && !ref.repo ? { ...ref, ...repoOf(process.cwd()) } : ref;
  }
  const root = findProjectRoot(process.cwd());
  const linked = await currentIssue({ home, sessionId: null, projectRoot: root });
  const found = linked?.ref ?? findIssueInBranch(currentBranch(root));
  if (!found)
    throw new AppError(
      'USAGE',
      'no issue to put the shards under',
      'pass --parent <issue>, or shim link <issue> first (a branch named for the issue works too)',
    );
  return found.tracker === 'github' && !found.repo ? { ...found, ...repoOf(root) } : found;
}

function repoOf(cwd: string): { repo?: string } {
  const repo = originRepo(cwd);
  return repo ? { repo } : {};
}

/** SHD-004 on the tracker: the sub-issues of finished shards are ticked off. */
async function tickShardIssues(progress: ShardProgress[], quiet: boolean): Promise<void> {
  const { ticked, failed } = await completeFinishedShards({
    home: getShimHome(),
    env: process.env,
    progress,
    now: new Date().toISOString(),
  });
  if (quiet) return;
  for (const issue of ticked) process.stderr.write(`  ticked off ${issue}\n`);
  for (const problem of failed) process.stderr.write(`  could not tick off ${problem}\n`);
}

/** SHD-004: how far each shard is, from the plan's ticked steps. */
async function runShardStatus(
  planFile: string,
  options: { out?: string; json?: boolean },
): Promise<void> {
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
  await tickShardIssues(progress, options.json === true);
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
  agents: Agents,
  planFile: string,
  options: {
    status?: boolean;
    out?: string;
    budget?: number;
    history?: string;
    force?: boolean;
    dryRun?: boolean;
    json?: boolean;
    issues?: boolean;
    parent?: string;
    agent?: AgentId;
  },
): Promise<void> {
  if (options.status) return runShardStatus(planFile, options);
  if (options.parent !== undefined && !options.issues)
    throw new AppError(
      'USAGE',
      '--parent goes with --issues',
      'shim shard plan.md --issues --parent ANV-123',
    );
  const estimate = await estimatePlan({
    planPath: planFile,
    ...(options.agent !== undefined ? { agent: options.agent } : {}),
    agents,
    cwd: process.cwd(),
    env: process.env,
    home: getShimHome(),
    now: Date.now(),
    ...(options.history !== undefined ? { historyDir: options.history } : {}),
    ...(options.budget !== undefined ? { budget: options.budget } : {}),
    ...(options.json ? {} : { onProgress: (m: string) => process.stderr.write(`${m}\n`) }),
  });
  if (estimate.verdict === 'empty')
    throw new AppError('USAGE', `${estimate.planPath} has no steps to shard`, estimate.reason);
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
  const subIssues =
    options.issues && written.length > 0
      ? await createShardIssues({
          home: getShimHome(),
          env: process.env,
          parent: await parentIssue(options.parent, getShimHome()),
          shards: shards.map((s, i) => ({
            file: written[i]!,
            title:
              `${estimate.plan.title ?? 'Plan'}: shard ${s.number} of ${shards.length}, ${s.steps[0]!.title}`.slice(
                0,
                240,
              ),
            body: [
              `Steps ${s.steps.map((x) => x.index).join(', ')} of \`${estimate.planPath}\`:`,
              '',
              ...s.steps.map((x) => `- [ ] ${x.title}`),
              '',
              `Shard file: \`${written[i]}\` (\`shim loop --shards ${outDir}\` works through them). shim ticks this off when the plan's steps for it are ticked.`,
            ].join('\n'),
          })),
          now: new Date().toISOString(),
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
        issues: subIssues,
      })}\n`,
    );
    return;
  }
  const lines = [
    `shim shard · ${estimate.planPath}`,
    `  ${estimate.openSteps} open steps: ~${k(estimate.total.tokens)} tokens; a shard may take ${k(estimate.budget)} (${estimate.budgetFrom === 'given' ? '--budget' : `60% of a fresh session's ${k(estimate.freshContext)}`})`,
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
    for (const r of subIssues)
      lines.push(
        `  ${r.created ? 'sub-issue' : 'already'} ${r.issue} for ${r.file.slice(outDir.length + 1)}`,
      );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
