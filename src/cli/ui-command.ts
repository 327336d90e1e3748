/**
 * `shim ui`: the local dashboard, or one session or loop run exported as a single HTML file.
 * @module
 */
import type { Command } from '@commander-js/extra-typings';
import { numberOption } from './number-option.ts';
import type { Agents } from '../agents/agent.ts';

export function defineUiCommand(program: Command, agents: Agents): void {
  program
    .command('ui')
    .description('open a local dashboard: sessions, context timelines, checkpoints, loop runs')
    .option(
      '-p, --port <n>',
      'port on 127.0.0.1 (0: any free one)',
      numberOption({ min: 0, max: 65_535, integer: true }),
      7337,
    )
    .option('--open', 'open it in the default browser')
    .option(
      '--team',
      "add the Team view: every machine's sessions and loop runs from the team store (shim team connect)",
    )
    .option(
      '--export <file.html>',
      'write one session (or --loop run) as a self-contained HTML file instead',
    )
    .option('--session <id>', 'with --export: the session (default: the latest of this directory)')
    .option('--loop <run>', 'with --export: a loop run instead of a session')
    .option('--force', 'with --export: replace the file if it exists')
    .option('--json', 'print {"url","port"} (or the export) as JSON')
    .addHelpText(
      'after',
      `
  The dashboard listens on 127.0.0.1 only and prints a link with a token made for this launch;
  requests without it are refused. It only reads: nothing in it changes shim's store. Ctrl-C
  stops it.

  Views:
    Sessions     every project and session, newest first; filter by project, search checkpoints
    Timeline     context per response against the compaction threshold, L1–L3 bands,
                 compactions, checkpoints (click one), restores, the forecast, tool calls
    Checkpoint   tasks, files and diff, the handoff, the resume prompt as injected; beside
                 Claude Code's own summary for a compaction
    Loop runs    iterations on a time axis, restarts, costs, events live while it runs
    Team         with --team: every machine's sessions and loop runs in your projects, from
                 the team store, marked with machine and user, updated as they replicate

  Examples:
    shim ui --open
    shim ui --team --open                         your teammates' and other machines' work too
    shim ui --port 0 --json                       for scripts: the link as JSON
    shim ui --export session.html                 the latest session here, to attach to an issue
    shim ui --export run.html --loop 3f2a`,
    )
    .action(async (options) => (await import('./commands/ui.ts')).runUi(agents, options));
}
