/**
 * `shim slash <command> [args…]`: what shim's slash commands run (claude/settings/slash-commands.ts)
 * — `/checkpoint [--status | --estimate [task or plan.md]]`, `/defer [--off]` and
 * `/shard <plan.md> [--dry-run]`,
 * their arguments as the user typed them.
 * @module
 */
import { mentionedPlans } from '../../app/tasks/plan-mentions.ts';
import { findProjectRoot } from '../../capture/project.ts';
import { AppError } from '../../core/errors.ts';
import { runCheckpoint } from './checkpoint.ts';
import { runEstimate, runPlanEstimate } from './estimate.ts';
import { runDefer } from './defer.ts';
import { runShard } from './shard.ts';
import { runStatus } from './status.ts';

export async function runSlash(command: string, args: string[]): Promise<void> {
  if (command === 'checkpoint') {
    if (args.includes('--status')) return runStatus(undefined, { history: true });
    if (args[0] === '--estimate') {
      const text = args.slice(1).join(' ').trim();
      const [plan] = mentionedPlans(text, findProjectRoot(process.cwd()));
      if (plan !== undefined) return runPlanEstimate(plan, {});
      // Words, not a plan file: the task they describe is estimated (each step it names).
      if (text !== '') return runPlanEstimate('your request', { text });
      return runEstimate({});
    }
    if (args.length > 0)
      throw new AppError(
        'USAGE',
        `/checkpoint does not take "${args.join(' ')}"`,
        'use /checkpoint, /checkpoint --status or /checkpoint --estimate [task or plan.md]',
      );
    return runCheckpoint({ trigger: 'user_requested', reason: '/checkpoint', snapshot: true });
  }
  if (command === 'defer') {
    const unknown = args.filter((a) => a !== '--off');
    if (unknown.length > 0)
      throw new AppError(
        'USAGE',
        `/defer does not take "${unknown.join(' ')}"`,
        'use /defer, or /defer --off to have the notices back',
      );
    return runDefer(undefined, { off: args.includes('--off') });
  }
  if (command === 'shard') {
    const plan = args.find((a) => !a.startsWith('--'));
    if (plan === undefined)
      throw new AppError('USAGE', '/shard needs a plan', 'use /shard <plan.md> [--dry-run]');
    return runShard(plan, { dryRun: args.includes('--dry-run') });
  }
  throw new AppError(
    'USAGE',
    `no slash command "${command}"`,
    'shim has /checkpoint, /defer and /shard',
  );
}
