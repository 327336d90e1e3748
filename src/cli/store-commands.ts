/**
 * The commands that tidy or restore what shim stored: gc, restore-files.
 * @module
 */
import { Option, type Command } from '@commander-js/extra-typings';
import { numberOption } from './number-option.ts';

export function defineStoreCommands(program: Command): void {
  program
    .command('gc')
    .description(
      'delete old checkpoints (each session keeps its newest), their snapshot refs, stale caches and old loop runs',
    )
    .option(
      '--retention-days <n>',
      'keep checkpoints and loop runs newer than this (default: config retention.days, 30)',
      numberOption({ min: 0, unit: 'days' }),
    )
    .option(
      '--max-store-mb <n>',
      'also delete the oldest checkpoints until the store is under this size',
      numberOption({ min: 1, unit: 'megabytes' }),
    )
    .option(
      '--loop-hot-days <n>',
      'finished loop runs older than this are compacted (events gzipped, agent output dropped)',
      numberOption({ min: 0, unit: 'days' }),
    )
    .option('--dry-run', 'say what would be deleted, delete nothing')
    .option('-y, --yes', 'do not ask before deleting more than 5 checkpoints')
    .addOption(new Option('--auto', 'the daily clean-up the SessionEnd hook starts').hideHelp())
    .option('--json', 'print what was deleted as JSON')
    .addHelpText(
      'after',
      `
  On a terminal, shim asks before deleting more than 5 checkpoints (--yes skips the question).
  shim also cleans up by itself once a day at the end of a session (config.json "retention":
  {"auto": true, "days": 30, "maxStoreMB": 500}; "auto": false turns it off).

  Examples:
    shim gc --dry-run                  what would go
    shim gc --retention-days 14 --yes
    shim gc --max-store-mb 200`,
    )
    .action(async (options) => (await import('./commands/gc.ts')).runGc(options));

  program
    .command('restore-files')
    .description(
      "bring a checkpoint's git snapshot back into a new branch or worktree (never over your work)",
    )
    .argument('<checkpoint>', 'checkpoint id or prefix')
    .option('-b, --branch <name>', 'the new branch (default: shim/restore-<id>)')
    .option('-w, --worktree <path>', 'check it out in a new worktree at this path instead')
    .option('--json', 'print the result as JSON')
    .action(async (id, options) =>
      (await import('./commands/restore-files.ts')).runRestoreFiles(id, options),
    );

  program
    .command('forget')
    .description(
      'remove a bad checkpoint, or a whole session, from the store: rows, search index, handoffs, snapshot refs',
    )
    .argument('<checkpoint|session>', 'a checkpoint id (or its first 8 characters) or a session id')
    .option('--dry-run', 'say what would be removed, remove nothing')
    .option('--json', 'print what was removed as JSON')
    .addHelpText(
      'after',
      `
  A session id removes every checkpoint of that session, its restores, handoff documents,
  compaction summaries, events and the caches shim keeps for it. A checkpoint id removes that
  checkpoint only; a later checkpoint that named it as its parent is linked to its parent
  instead. Nothing else in the store changes. It cannot be undone.

  Examples:
    shim forget 3f2a9c1d --dry-run
    shim forget 4f8c1176-7025-4530-a860-c6fc4c63a150`,
    )
    .action(async (what, options) =>
      (await import('./commands/forget.ts')).runForget(what, options),
    );
}
