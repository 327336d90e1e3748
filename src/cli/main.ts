/**
 * The `shim` binary. Defines the commands (cheap) and loads each one's code only when it runs,
 * so a call pays for the modules it uses and nothing else.
 * @module
 */
import { Command, Option } from 'commander';
import { runWithErrorBoundary } from './error-boundary.ts';
import { getVersion } from './version.ts';

const program = new Command('shim')
  .description(
    'Keeps Claude Code from losing its work: predicts context exhaustion before it happens,\n' +
      'checkpoints the working state and restores it into the next session.',
  )
  .version(getVersion(), '-v, --version')
  .showHelpAfterError('(run `shim --help` for usage)')
  .configureHelp({ sortSubcommands: false });

program
  .command('status')
  .description(
    "show how full a session's context is, its level, crash risk and compaction forecast",
  )
  .argument(
    '[transcript]',
    'a transcript .jsonl (or .jsonl.gz); default: the latest session of this directory',
  )
  .option('-s, --session <id>', 'a session id to look up under ~/.claude/projects')
  .option('--json', 'print the full status as JSON')
  .option('--no-history', 'do not learn the compaction threshold from your other transcripts')
  .addHelpText(
    'after',
    `
Examples:
  shim status                          latest session of the current directory
  shim status --session 4d5611e5-…     a session by id
  shim status ~/.claude/projects/-home-me-app/4d5611e5-….jsonl --json

Percentages are of the auto-compact threshold (where Claude Code will compact), with the share
of the raw context window shown beside it. Levels: L1 ≥ 70%, L2 ≥ 85%, L3 ≥ 95%.`,
  )
  .action(
    (
      transcript: string | undefined,
      options: { session?: string; json?: boolean; history: boolean },
    ) =>
      runWithErrorBoundary(async () =>
        (await import('./commands/status.ts')).runStatus(transcript, options),
      ),
  );

program
  .command('replay')
  .description('replay a transcript as the live hooks would have seen it, response by response')
  .argument('<transcript>', 'a transcript .jsonl (or .jsonl.gz)')
  .option(
    '--json',
    'one JSON object per line: {"kind":"turn",…} per response, {"kind":"compact",…} per compaction',
  )
  .option('--no-history', 'do not learn the compaction threshold from your other transcripts')
  .addOption(
    new Option('--evaluate', 'also score the risk and forecast against what happened').hideHelp(
      false,
    ),
  )
  .addHelpText(
    'after',
    `
Each response is judged with only the lines written up to it (no look-ahead), so the output
shows when shim would have warned. --evaluate adds a score: how often "danger" came within 10
responses of an auto compaction, and how far off the turns-to-compact forecast was.`,
  )
  .action((transcript: string, options: { json?: boolean; history: boolean; evaluate?: boolean }) =>
    runWithErrorBoundary(async () =>
      (await import('./commands/replay.ts')).runReplay(transcript, options),
    ),
  );

await program.parseAsync(process.argv);
