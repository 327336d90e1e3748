/**
 * `shim estimate`: will the session's open tasks fit in the context it has left?
 * @module
 */
import type { Command } from '@commander-js/extra-typings';
import { numberOption } from './number-option.ts';

export function defineEstimateCommand(program: Command): void {
  program
    .command('estimate')
    .description(
      "estimate the context tokens the session's open tasks need, and whether they fit before the next compaction",
    )
    .option(
      '-t, --transcript <file>',
      'a transcript .jsonl (or .jsonl.gz); default: the latest session of this directory',
    )
    .option('-s, --session <id>', 'a session id to look up under ~/.claude/projects')
    .option(
      '--until-line <n>',
      'the session as it was at this line of its transcript',
      numberOption({ min: 1, integer: true }),
    )
    .option(
      '--history <dir>',
      'learn from the transcripts in this folder (default: your own, ~/.claude/projects)',
    )
    .option('--json', 'print one JSON object (see docs/estimates.md)')
    .addHelpText(
      'after',
      `
  Examples:
    shim estimate                                   the latest session of this directory
    shim estimate --transcript s.jsonl --until-line 400 --json

  The estimate is learned from your finished sessions: at every change of a task list, what
  finishing its open tasks then cost. --json prints
  {"openTasks","tokens","low","high","remainingContext","fits"} (tokens null without open tasks;
  low–high is the 80% range).`,
    )
    .action(async (options) => (await import('./commands/estimate.ts')).runEstimate(options));
}
