/**
 * `shim slash <command> [args…]`: what shim's slash commands run (claude/settings/slash-commands.ts)
 * — `/checkpoint [--status | --estimate [task or plan.md]]`, `/defer [--off]`, `/handoff`,
 * `/loop [checkpoint]` and `/shard <plan.md> [--dry-run]`,
 * their arguments as the user typed them (Claude Code: shell words; Gemini CLI: one word).
 * @module
 */
import { mentionedPlans } from '../../app/tasks/plan-mentions.ts';
import { findProjectRoot } from '../../capture/project.ts';
import { AppError } from '../../core/errors.ts';
import { IN_SESSION_COMMANDS } from '../../core/in-session-commands.ts';
import { runCheckpoint } from './checkpoint.ts';
import { runEstimate, runPlanEstimate } from './estimate.ts';
import { createCheckpoint } from '../../app/checkpoint/create-checkpoint.ts';
import { findSessionLog } from '../../app/session/session-log.ts';
import { getShimHome } from '../../store/home/home.ts';
import { runDefer } from './defer.ts';
import { runHandoff } from './handoff.ts';
import { runLoopStatus } from './loop.ts';
import { runShard } from './shard.ts';
import { runStatus } from './status.ts';
import type { Agents } from '../../agents/agent.ts';
import type { AgentId } from '../../core/agent-id.ts';

export async function runSlash(
  agents: Agents,
  command: string,
  given: string[],
  /** The agent the command was typed in (`--agent`): its newest session here is the one meant. */
  agent?: AgentId,
): Promise<void> {
  const scoped = agent !== undefined ? { agent } : {};
  // Gemini CLI hands the arguments over as one shell word ('' for none): the words are the same.
  const args = given.flatMap((a) => a.split(/\s+/)).filter((a) => a !== '');
  if (command === 'checkpoint') {
    if (args.includes('--status'))
      return runStatus(agents, undefined, { history: true, ...scoped });
    if (args[0] === '--estimate') {
      const text = args.slice(1).join(' ').trim();
      const [plan] = mentionedPlans(text, findProjectRoot(process.cwd()));
      if (plan !== undefined) return runPlanEstimate(agents, plan, scoped);
      // Words, not a plan file: the task they describe is estimated (each step it names).
      if (text !== '') return runPlanEstimate(agents, 'your request', { text, ...scoped });
      return runEstimate(agents, {});
    }
    if (args.length > 0)
      throw new AppError(
        'USAGE',
        `/checkpoint does not take "${args.join(' ')}"`,
        'use /checkpoint, /checkpoint --status or /checkpoint --estimate [task or plan.md]',
      );
    return runCheckpoint(agents, {
      trigger: 'user_requested',
      reason: '/checkpoint',
      snapshot: true,
      ...scoped,
    });
  }
  if (command === 'defer') {
    const unknown = args.filter((a) => a !== '--off');
    if (unknown.length > 0)
      throw new AppError(
        'USAGE',
        `/defer does not take "${unknown.join(' ')}"`,
        'use /defer, or /defer --off to have the notices back',
      );
    return runDefer(agents, undefined, { off: args.includes('--off'), ...scoped });
  }
  if (command === 'handoff') {
    refuseArguments('handoff', args, [], 'use /handoff');
    return runHandoffNow(agents, agent ?? null);
  }
  if (command === 'loop') {
    refuseArguments('loop', args, ['checkpoint'], 'use /loop, or /loop checkpoint');
    return runLoopSlash(agents, args.includes('checkpoint'), scoped);
  }
  if (command === 'shard') {
    const plan = args.find((a) => !a.startsWith('--'));
    if (plan === undefined)
      throw new AppError('USAGE', '/shard needs a plan', 'use /shard <plan.md> [--dry-run]');
    return runShard(agents, plan, { dryRun: args.includes('--dry-run') });
  }
  throw new AppError(
    'USAGE',
    `no slash command "${command}"`,
    `shim has ${IN_SESSION_COMMANDS.map((c) => `/${c.name}`).join(', ')}`,
  );
}

function refuseArguments(command: string, args: string[], allowed: string[], usage: string) {
  const unknown = args.filter((a) => !allowed.includes(a));
  if (unknown.length > 0)
    throw new AppError('USAGE', `/${command} does not take "${unknown.join(' ')}"`, usage);
}

/** `/handoff`: the session's state now, then the handoff of that very checkpoint. */
async function runHandoffNow(agents: Agents, agent: AgentId | null): Promise<void> {
  const { checkpoint } = await createCheckpoint({
    log: await findSessionLog({ cwd: process.cwd(), env: process.env, agent }, agents),
    cwd: process.cwd(),
    env: process.env,
    home: getShimHome(),
    now: Date.now(),
    trigger: 'user_requested',
    reason: '/handoff',
    snapshot: true,
    wipCommit: false,
  });
  process.stdout.write(`checkpoint #${checkpoint.checkpointNumber} saved\n`);
  return runHandoff(agents, { session: checkpoint.sessionId });
}

/**
 * `/loop`: the run this session is an iteration of (`SHIM_LOOP_RUN_ID`, which the loop gives its
 * agent), else this directory's newest; `/loop checkpoint`: this iteration's state saved now.
 */
async function runLoopSlash(
  agents: Agents,
  checkpoint: boolean,
  scoped: { agent?: AgentId },
): Promise<void> {
  const runId = process.env.SHIM_LOOP_RUN_ID || undefined;
  if (checkpoint) {
    if (!runId)
      throw new AppError(
        'USAGE',
        'this session is not an iteration of a shim loop (SHIM_LOOP_RUN_ID is not set)',
        'use /checkpoint to save this session, or /loop for the newest run of this directory',
      );
    const iteration = process.env.SHIM_LOOP_ITERATION ?? '?';
    await runCheckpoint(agents, {
      trigger: 'user_requested',
      reason: `/loop checkpoint (loop ${runId}, iteration ${iteration})`,
      snapshot: true,
      ...scoped,
    });
  }
  return runLoopStatus(runId, {});
}
