/**
 * The commands that tidy, restore or move what shim stored: gc, restore-files, forget, export,
 * import.
 * @module
 */
import { Option, type Command } from '@commander-js/extra-typings';
import { numberOption } from './number-option.ts';
import { SCOPE_HELP } from './scope-help.ts';

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
    .argument(
      '<checkpoint|session>',
      'a checkpoint id or a session id, or the first 8 characters of either (as `shim list` prints them)',
    )
    .option('--dry-run', 'say what would be removed, remove nothing')
    .option('--json', 'print what was removed as JSON')
    .option(
      '--with-restored',
      'also forget the sessions restored from it (and those restored from them)',
    )
    .addHelpText(
      'after',
      `
  A session id removes every checkpoint of that session, its restores, handoff documents,
  compaction summaries, events, what waits to be sent for it and the caches shim keeps for it;
  with a team store connected, every row of the session there too (no other machine restores or
  finds it any more). Sessions that were restored from it keep their own rows and are named
  (--json: restoredInto); --with-restored forgets them too, and the sessions restored from them
  (--json: alsoForgotten). Nothing is asked: without the option nothing else goes. A checkpoint id removes that checkpoint only; a later
  checkpoint that named it as its parent is linked to its parent instead. It cannot be undone:
  characters that start both a checkpoint and a session are refused (give more of the one you
  mean).

  Examples:
    shim forget 3f2a9c1d --dry-run
    shim forget 3f2a9c1d --with-restored --dry-run
    shim forget 4f8c1176-7025-4530-a860-c6fc4c63a150`,
    )
    .action(async (what, options) =>
      (await import('./commands/forget.ts')).runForget(what, options),
    );

  program
    .command('export')
    .description(
      "write a session's checkpoints, handoffs and compaction summaries to a file another store can import",
    )
    .argument(
      '[session]',
      'a session id or its first characters (default: the newest of this project)',
    )
    .option('-s, --session <id>', 'the same, as an option')
    .option('-o, --out <file>', 'write the file here (default, or -: standard output)')
    .option('--cwd <dir>', 'the newest session of the project of this directory instead')
    .option('--all', 'the newest session of any project')
    .option('--json', 'print what was exported as JSON (on stderr when the file goes to stdout)')
    .addHelpText(
      'after',
      `
  The file is JSON: a format version, the store's schema version, the project's identity on
  every machine (its normalised git remote), the session row, every checkpoint, the handoff
  rows with their documents, the compaction summaries, and a SHA-256 of all of it. Everything
  in it is redacted (again: checkpoints already were when they were taken). Loop runs,
  restores into other sessions and the event log stay here.
  ${SCOPE_HELP}

  Examples:
    shim export > session.json                   the newest session of this project
    shim export 4f8c1176 -o ~/moving/4f8c.json
    shim export --session 4f8c1176-7025-4530-a860-c6fc4c63a150 | ssh laptop shim import -`,
    )
    .action(async (session, options) =>
      (await import('./commands/export.ts')).runExport(session, options),
    );

  program
    .command('import')
    .description(
      'add a session that `shim export` wrote to this store; what is already here is skipped',
    )
    .argument('<file>', 'the file `shim export` wrote, or - for standard input')
    .option('--cwd <dir>', 'the checkout to move the paths onto (default: the current directory)')
    .option('--dry-run', 'say what would be added and skipped, add nothing')
    .option('--json', 'print what was imported as JSON')
    .addHelpText(
      'after',
      `
  Rows already in the store (same ids) are skipped and said so: importing twice adds nothing.
  Checkpoints go through the same redaction and checks as fresh ones; nothing raw lands.
  Paths: run it inside a checkout of the same repository (same git remote, any directory) and
  the session's paths move onto that checkout, so \`shim resume\` there finds it; elsewhere
  they are kept as they were on the other machine, and it says so.
  A file from a newer shim (newer file format or store schema) is refused: upgrade shim first.
  A file changed or cut short after export is refused: export it again.

  Examples:
    shim import session.json --dry-run
    cd ~/src/app && shim import ~/moving/4f8c.json && shim resume --print
    ssh desktop shim export 4f8c1176 | shim import -`,
    )
    .action(async (file, options) =>
      (await import('./commands/import.ts')).runImport(file, options),
    );
}
