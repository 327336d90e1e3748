/**
 * `shim link` and `shim sync`: the issue a session works on, and sending what shim has for it.
 * @module
 */
import { Option, type Command } from '@commander-js/extra-typings';
import type { Agents } from '../agents/agent.ts';

export function defineSyncCommands(program: Command, agents: Agents): void {
  program
    .command('link')
    .description("name the tracker issue this project's sessions work on (GitHub or Linear)")
    .argument(
      '[issue]',
      'ANV-123, 123, #123, owner/repo#123 or an issue URL; none: show the current one',
    )
    .option(
      '--clear',
      'no issue: nothing is synced for this project, whatever branches or requests say',
    )
    .option('--session <id>', 'the session (default: the latest of this directory)')
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      `
  Without shim link, a session's issue comes from its branch (feature/ANV-123-login,
  123-fix-login), else the session it was restored from. A request's text or a loop's goal
  names it only with config.json "sync": {"fromRequests": true} (off: a key quoted in a prompt
  is no wish to post there). A link applies to the latest session here and to the sessions
  started in this project after it.

  At the moments that matter — context at L2 and L3, a compaction, a loop restart, a session
  ending with open tasks — the issue gets a comment (done, open, next steps, the checkpoint and
  how to resume), the label "context-checkpointed", and a state move if configured
  (config.json "sync": {"label", "state", "enabled"}). Tokens come from GITHUB_TOKEN, GH_TOKEN
  or gh auth token, and LINEAR_API_KEY; without one nothing leaves the machine.

  Examples:
    shim link ANV-123
    shim link https://github.com/acme/api/issues/42
    shim link --clear`,
    )
    .action(async (issue, options) =>
      (await import('./commands/sync.ts')).runLink(agents, issue, options),
    );

  program
    .command('sync')
    .description('send the comments and labels waiting for their issues now, and show what waits')
    .option('--status', 'only show what was sent, what waits and why (no sending)')
    .option('--json', 'print the state as JSON')
    .addOption(new Option('--drain', 'the background worker shim starts itself').hideHelp())
    .addHelpText(
      'after',
      `
  shim queues tracker updates in its store and sends them from a background worker, so a hook
  never waits on the network; a failed send is retried with backoff, and a comment is never
  posted twice. shim sync sends what is due now and says what is left.`,
    )
    .action(async (options) => (await import('./commands/sync.ts')).runSync(options));
}
