/**
 * `shim loop` and its views: run (or resume) a supervised loop, list runs, show one, follow its
 * log. Progress goes to stderr, results to stdout.
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { agentName, isAgentId } from '../../core/agent-id.ts';
import { AppError } from '../../core/errors.ts';
import { restartPercent, type WindowRestart } from '../../core/loop/context-monitor.ts';
import { parsePlan } from '../../core/plan/plan.ts';
import { shardProgress } from '../../core/plan/shard-plan.ts';
import { readShardFiles } from '../../app/tasks/write-shards.ts';
import { completeFinishedShards } from '../../app/sync/shard-issues.ts';
import { openStore } from '../../app/open-store.ts';
import { getShimHome } from '../../store/home/home.ts';
import { describeEvent } from '../../loop/describe-event.ts';
import { type LoopEvent } from '../../store/loop/loop-event-log.ts';
import { followRunEvents, readRunEvents } from '../../store/loop/loop-event-reader.ts';
import { parseLoopOptions, parseResumeOverrides, type RawLoopOptions } from '../../loop/options.ts';
import { resumeLoop, startLoop, type LoopResult } from '../../loop/start-loop.ts';
import { findLoopRun, listLoopRuns } from '../../app/loop-runs.ts';
import { ExitError } from '../error-boundary.ts';
import type { Agents } from '../../agents/agent.ts';
import { renderTable } from '../format/table.ts';
import { bold, dim, renderBar } from '../format/text.ts';
import { formatAge } from '../format/units.ts';

export type LoopCommandOptions = RawLoopOptions & {
  resume?: string | boolean;
  shards?: string;
  json?: boolean;
  quiet?: boolean;
};

const clock = (at: string): string => at.slice(11, 19);

/** An event after which a run writes no more (an interrupted one may be resumed). */
const endsRun = (event: LoopEvent): boolean =>
  event.name === 'loop.completed' ||
  (event.name === 'loop.stopped' && (event.data as { status?: string }).status !== 'interrupted');

/** Prints events as they happen; context updates overwrite one line on a terminal. */
function createProgressPrinter(quiet: boolean): (event: LoopEvent) => void {
  const tty = process.stderr.isTTY === true;
  let lastStep = -1;
  let overwriting = false;
  return (event) => {
    if (quiet) return;
    const line = `${dim(clock(event.at))} ${describeEvent(event)}`;
    if (event.name === 'loop.context_usage') {
      const percent = Number((event.data as { percent?: number }).percent ?? 0);
      if (tty) {
        process.stderr.write(`\r\u001b[2K${line}`);
        overwriting = true;
        return;
      }
      const step = Math.floor(percent / 10);
      if (step === lastStep) return;
      lastStep = step;
    } else if (event.name === 'loop.iteration_started') {
      lastStep = -1;
    }
    if (event.name === 'loop.tool_call' && !tty) return;
    process.stderr.write(`${overwriting ? '\r\u001b[2K' : ''}${line}\n`);
    overwriting = false;
  };
}

function finalLine(result: LoopResult): string {
  const { run } = result;
  const cost = `$${run.costUsd.toFixed(2)}`;
  const counts = `${run.iteration} iteration${run.iteration === 1 ? '' : 's'}, ${run.restarts} restart${run.restarts === 1 ? '' : 's'}, ${cost}`;
  if (run.status === 'completed') return `✔ loop ${run.runId} completed (${counts})`;
  if (run.status === 'interrupted') {
    return `■ loop ${run.runId} interrupted (${counts}); continue it with: shim loop --resume ${run.runId}`;
  }
  return `✖ loop ${run.runId} ${run.status}: ${run.stopReason ?? 'unknown'} (${counts})`;
}

export async function runLoopCommand(
  agents: Agents,
  options: LoopCommandOptions,
  agentArgs: string[],
): Promise<void> {
  const home = getShimHome();
  const cwd = process.cwd();
  const env = process.env;
  const resuming = options.resume !== undefined && options.resume !== false;
  const store = openStore(home);
  const controller = new AbortController();
  const onSignal = (): void => {
    if (!options.quiet)
      process.stderr.write('\nshim loop: stopping the agent (the run stays resumable)…\n');
    controller.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const deps = {
      agents,
      store,
      home,
      cwd,
      env,
      onEvent: createProgressPrinter(options.quiet === true),
      signal: controller.signal,
    };
    if (options.shards !== undefined) {
      await runShards(options, agentArgs, deps);
      return;
    }
    let result: LoopResult;
    if (resuming) {
      if (options.goal !== undefined || options.promptFile !== undefined) {
        throw new AppError(
          'USAGE',
          '--resume continues a run with its own goal; drop --goal / --prompt-file',
        );
      }
      result = await resumeLoop(
        typeof options.resume === 'string' ? options.resume : null,
        await parseResumeOverrides(options, env, cwd, agents),
        deps,
      );
    } else {
      result = await startLoop(await parseLoopOptions(options, agentArgs, env, cwd, agents), deps);
    }
    if (options.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else if (!options.quiet) process.stderr.write(`${finalLine(result)}\n`);
    if (result.exitCode !== 0) throw new ExitError(result.exitCode);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    store.close();
  }
}

export async function runLoopList(options: {
  json?: boolean;
  limit?: number;
  all?: boolean;
}): Promise<void> {
  const runs = await listLoopRuns(getShimHome(), {
    cwd: options.all ? null : process.cwd(),
    limit: options.limit ?? 20,
  });
  if (options.json) {
    process.stdout.write(`${JSON.stringify(runs, null, 2)}\n`);
    return;
  }
  if (runs.length === 0) {
    process.stdout.write(
      dim(
        options.all
          ? 'no loop runs yet\n'
          : 'no loop runs in this directory (--all shows every directory)\n',
      ),
    );
    return;
  }
  const now = Date.now();
  const rows = runs.map((r) => [
    r.runId,
    r.liveStatus,
    r.agent,
    String(r.iteration),
    String(r.restarts),
    `$${r.costUsd.toFixed(2)}`,
    r.contextPercent === null ? '—' : `${Math.round(r.contextPercent)}%`,
    formatAge(now - Date.parse(r.createdAt)),
    r.goal.replace(/\s+/g, ' ').slice(0, 50),
  ]);
  process.stdout.write(
    `${renderTable(['run', 'status', 'agent', 'iter', 'restarts', 'cost', 'context', 'started', 'goal'], rows, ['left', 'left', 'left', 'right', 'right', 'right', 'right', 'left', 'left'])}\n`,
  );
}

/** "70%", or with the seed's window rule "84% (70% of a 200000-token window)". */
function restartText(
  options: Record<string, unknown>,
  state: Record<string, unknown> | null,
): string {
  const own = Number(options.thresholdPercent ?? 70);
  const window = options.contextWindow as WindowRestart | null | undefined;
  if (!window) return `${own}%`;
  const known = state?.threshold as { compactThreshold: number; windowTokens: number } | undefined;
  const of = window.windowTokens !== null ? `a ${window.windowTokens}-token` : "the model's";
  const percent = known
    ? `${Math.round(restartPercent({ thresholdPercent: own, window }, known))}% `
    : '';
  return `${percent}(${window.percent}% of ${of} window)`;
}

export async function runLoopStatus(
  id: string | undefined,
  options: { json?: boolean },
): Promise<void> {
  // Inside a loop's iteration (the agent running it, /loop), the run it belongs to.
  const runId = id ?? (process.env.SHIM_LOOP_RUN_ID || undefined);
  const { run, iterations } = await findLoopRun(getShimHome(), runId, process.cwd());
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ run, iterations }, null, 2)}\n`);
    return;
  }
  const percent = run.contextPercent ?? 0;
  const threshold = restartText(run.options, run.state);
  const maxIterations = Number((run.options as { maxIterations?: number }).maxIterations ?? 0);
  const agents = run.options as { agent?: unknown; fallbackAgent?: unknown };
  // The run's other agent: the fallback while the first runs, the first once it fell back.
  const other = run.agent === agents.agent ? agents.fallbackAgent : agents.agent;
  const fallback = isAgentId(other) && other !== run.agent ? other : null;
  const lines = [
    `${bold(`loop ${run.runId}`)}  ${run.liveStatus}${run.stopReason ? ` — ${run.stopReason}` : ''}`,
    `goal       ${run.goal.replace(/\s+/g, ' ').slice(0, 100)}`,
    `directory  ${run.cwd}`,
    `iteration  ${run.iteration} of ${maxIterations} · restarts ${run.restarts} · cost $${run.costUsd.toFixed(2)}`,
    `context    ${renderBar(percent, 20)} ${Math.round(percent)}% of the auto-compact threshold (restart at ${threshold})`,
    `agent      ${agentName(run.agent)}${fallback ? ` (fallback at a usage limit: ${agentName(fallback)})` : ''}`,
    `session    ${run.sessionId ?? '—'}`,
    `last event ${run.lastEvent ?? '—'}`,
  ];
  if (run.waitUntil) lines.push(`waiting    until ${run.waitUntil}`);
  if (run.liveStatus === 'orphaned' || run.status === 'interrupted') {
    lines.push(dim(`continue it with: shim loop --resume ${run.runId}`));
  }
  if (iterations.length > 0) {
    lines.push('');
    lines.push(
      renderTable(
        ['#', 'mode', 'session', 'outcome', 'peak', 'tools', 'cost'],
        iterations.map((i) => [
          String(i.number),
          i.mode,
          (i.sessionId ?? '—').slice(0, 8),
          i.outcome ?? (i.endedAt ? '?' : 'running'),
          i.peakPercent === null ? '—' : `${Math.round(i.peakPercent)}%`,
          String(i.toolCalls),
          i.costUsd === null ? '—' : `$${i.costUsd.toFixed(2)}`,
        ]),
        ['right', 'left', 'left', 'left', 'right', 'right', 'right'],
      ),
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

export async function runLoopLogs(
  id: string | undefined,
  options: { json?: boolean; follow?: boolean; context?: boolean },
): Promise<void> {
  const home = getShimHome();
  const { run } = await findLoopRun(home, id, process.cwd());
  const print = (event: LoopEvent): void => {
    if (!options.context && !options.json && event.name === 'loop.context_usage') return;
    process.stdout.write(
      options.json
        ? `${JSON.stringify(event)}\n`
        : `${dim(`${event.at.slice(0, 10)} ${clock(event.at)}`)} ${describeEvent(event)}\n`,
    );
  };
  const events = readRunEvents(home, run.runId);
  for (const event of events) print(event);
  if (!options.follow) return;
  // The run may have ended between reading its row and reading its log: its end is then among
  // the events read, and no later one would come to end the follow.
  const lastEnd = events.findLastIndex(endsRun);
  if (lastEnd >= 0 && lastEnd > events.findLastIndex((e) => e.name === 'loop.resumed')) return;
  if (run.liveStatus !== 'running' && run.liveStatus !== 'waiting') {
    process.stderr.write(dim(`loop ${run.runId} is ${run.liveStatus}; nothing more to follow\n`));
    return;
  }
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.once('SIGINT', stop);
  try {
    await followRunEvents(home, run.runId, {
      afterSeq: events.at(-1)?.seq ?? 0,
      signal: controller.signal,
      onEvent: (event) => {
        print(event);
        if (endsRun(event)) controller.abort();
      },
    });
  } finally {
    process.off('SIGINT', stop);
  }
}

/**
 * `shim loop --shards <dir>`: each shard `shim shard` wrote, as the goal of a run of its own (fresh
 * sessions), in order; a shard whose steps are all ticked in the plan is skipped; the first run
 * that does not complete stops the rest.
 */
async function runShards(
  options: LoopCommandOptions,
  agentArgs: string[],
  deps: Parameters<typeof startLoop>[1],
): Promise<void> {
  if (options.goal !== undefined || options.promptFile !== undefined || options.resume)
    throw new AppError(
      'USAGE',
      '--shards gives each run its goal; drop --goal / --prompt-file / --resume',
    );
  const dir = resolve(deps.cwd, options.shards!);
  const shards = readShardFiles(dir);
  if (shards.length === 0)
    throw new AppError('USAGE', `no shards in ${dir}`, 'write them first: shim shard <plan.md>');
  const say = (line: string) => {
    if (!options.quiet) process.stderr.write(`${line}\n`);
  };
  const results: LoopResult[] = [];
  for (const [i, shard] of shards.entries()) {
    const planPath = resolve(dir, shard.mark.source);
    const [progress] = existsSync(planPath)
      ? shardProgress(parsePlan(readFileSync(planPath, 'utf8')), [shard])
      : [];
    const name = relative(deps.cwd, shard.file);
    if (progress && progress.steps > 0 && progress.done === progress.steps) {
      say(`shard ${i + 1}/${shards.length} ${name}: its steps are done, skipped`);
      continue;
    }
    say(`shard ${i + 1}/${shards.length} ${name}`);
    const result = await startLoop(
      await parseLoopOptions(
        { ...options, promptFile: shard.file },
        agentArgs,
        deps.env,
        deps.cwd,
        deps.agents,
      ),
      deps,
    );
    results.push(result);
    say(finalLine(result));
    if (existsSync(planPath)) {
      const done = shardProgress(parsePlan(readFileSync(planPath, 'utf8')), [shard]);
      const { ticked } = await completeFinishedShards({
        home: getShimHome(),
        env: deps.env,
        progress: done,
        now: new Date().toISOString(),
      });
      for (const issue of ticked) say(`  ticked off ${issue}`);
    }
    if (result.exitCode !== 0) {
      if (options.json) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
      throw new ExitError(result.exitCode);
    }
  }
  if (options.json) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  say(`✔ every shard of ${relative(deps.cwd, dir) || dir} ran to completion`);
}
