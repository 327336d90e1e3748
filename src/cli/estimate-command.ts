/**
 * `shim estimate`: will the session's open tasks — or a plan's open steps — fit in the context
 * left? `shim shard`: a plan too big for a session, split into pieces that each fit.
 * @module
 */
import { Option, type Command } from '@commander-js/extra-typings';
import { AGENT_IDS } from '../core/agent-id.ts';
import { numberOption } from './number-option.ts';
import type { Agents } from '../agents/agent.ts';

/** `--agent` of a plan's estimate: what a fresh session has is the agent's. */
function planAgentOption() {
  return new Option(
    '--agent <agent>',
    "with a plan: the agent that will run it (claude, codex or gemini; default: the agent of this directory's newest session)",
  ).choices(AGENT_IDS);
}

export function defineEstimateCommand(program: Command, agents: Agents): void {
  program
    .command('estimate')
    .description(
      "estimate the context tokens the session's open tasks need, and whether they fit before the next compaction",
    )
    .argument(
      '[plan]',
      "a plan or spec (markdown): estimate its open steps instead of the session's tasks",
    )
    .option(
      '-t, --transcript <file>',
      "a session log (Claude Code's .jsonl, a Codex rollout, a Gemini chat; gzipped too); default: the newest session of this directory, of any agent",
    )
    .option('-s, --session <id>', "a session id, looked up in every agent's sessions")
    .option(
      '--until-line <n>',
      'the session as it was at this line of its transcript',
      numberOption({ min: 1, integer: true }),
    )
    .option(
      '--history <dir>',
      "learn from the session logs in this folder (default: your own, where the session's agent keeps them)",
    )
    .option(
      '--refresh',
      'learn from the sessions in --history that changed since last time (shim does this when a session ends)',
    )
    .option(
      '--accuracy',
      'how good the estimates shim gave you have been, once their tasks were done',
    )
    .addOption(planAgentOption())
    .option('--json', 'print one JSON object (see docs/estimates.md)')
    .addHelpText(
      'after',
      `
  Examples:
    shim estimate                                   the latest session of this directory
    shim estimate docs/plan.md                      a plan: its steps, the room left, shards?
    shim estimate --transcript s.jsonl --until-line 400 --json

  The estimate is learned from your finished sessions: at every change of a task list, what
  finishing its open tasks then cost. --json prints
  {"openTasks","tokens","low","high","remainingContext","fits"} (tokens null without open tasks;
  low–high is the 80% range).`,
    )
    .action(async (plan, options) => {
      const commands = await import('./commands/estimate.ts');
      if (options.refresh) return commands.runRefresh(agents, options);
      if (options.accuracy) return commands.runAccuracy(agents, options);
      return plan === undefined
        ? commands.runEstimate(agents, options)
        : commands.runPlanEstimate(agents, plan, options);
    });

  program
    .command('shard')
    .description('split a plan too big for one session into shards that each fit, as files')
    .argument('<plan>', 'a plan or spec (markdown: headings, checklists or numbered steps)')
    .option('-o, --out <dir>', 'where the shards go (default: shards/ beside the plan)')
    .option(
      '--budget <tokens>',
      "what one shard may take (default: 60% of a fresh session's context)",
      numberOption({ min: 1_000, integer: true, unit: 'tokens' }),
    )
    .option('--history <dir>', 'learn from the transcripts in this folder (default: your own)')
    .addOption(planAgentOption())
    .option('--force', 'replace the shards an earlier run wrote (their ticked steps are lost)')
    .option('--dry-run', 'say how it would split, write nothing')
    .option('--status', 'how far each shard is: its steps ticked in the plan')
    .option(
      '--issues',
      "also make each shard a sub-issue of the plan's issue (ticked off when done)",
    )
    .option('--parent <issue>', 'with --issues: the issue (default: shim link, else the branch)')
    .option('--json', 'print the split as JSON')
    .addHelpText(
      'after',
      `
  Examples:
    shim shard docs/plan.md --dry-run     how it would split
    shim shard docs/plan.md               docs/shards/01-….md, 02-….md, …
    shim shard docs/plan.md --status      each shard's steps done, and the next one

  A shard holds whole steps (never half of one), the plan's shared context (title, goal,
  constraints) and what came before and after it. A step too big for a shard on its own is a
  shard of its own, marked so.`,
    )
    .action(async (plan, options) =>
      (await import('./commands/shard.ts')).runShard(agents, plan, options),
    );

  // What shim's slash commands run; not for typing.
  program
    .command('slash', { hidden: true })
    .argument('<command>', 'checkpoint or shard')
    .argument('[args...]', "the slash command's arguments")
    // The agent whose command it is (Gemini CLI's say so): its newest session here is the one.
    .addOption(new Option('--agent <agent>').choices(AGENT_IDS).hideHelp())
    .allowUnknownOption()
    .helpOption(false)
    .action(async (command, args, options) =>
      (await import('./commands/slash.ts')).runSlash(agents, command, args, options.agent),
    );
}
