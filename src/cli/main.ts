/**
 * The `shim` binary. Defines the commands (cheap) and loads each one's code only when it runs,
 * so a call pays for the modules it uses and nothing else. One error boundary around the whole
 * run turns every failure into one line and a fix (error-boundary.ts).
 * @module
 */
import { Command } from '@commander-js/extra-typings';
import { runWithErrorBoundary } from './error-boundary.ts';
import { readCommandLine } from './logged-command.ts';
import { defineEstimateCommand } from './estimate-command.ts';
import { defineLoopCommand } from './loop-command.ts';
import { defineRedactCommand } from './redact-command.ts';
import { defineSessionCommands } from './session-commands.ts';
import { defineSetupCommands } from './setup-commands.ts';
import { defineStoreCommands } from './store-commands.ts';
import { defineSyncCommands } from './sync-command.ts';
import { defineTeamCommand } from './team-command.ts';
import { defineUiCommand } from './ui-command.ts';
import { getVersion } from './version.ts';
import { getShimHome } from '../store/home/home.ts';
import { hasPendingCheckpoints } from '../store/checkpoints/pending-checkpoints.ts';
import { useLogRedaction } from '../store/home/log.ts';
import { redactValueSync } from '../redact/redact.ts';
import type { Agents } from '../agents/agent.ts';

// The log's entries pass the redactor (store/log.ts).
useLogRedaction(redactValueSync);

/** The CLI, with every agent it serves (src/entries/cli.ts hands them in). */
export async function main(agents: Agents): Promise<void> {
  const program = new Command('shim')
    .description(
      'Keeps Claude Code, Codex CLI and Gemini CLI sessions from losing their work.\n' +
        'Predicts context exhaustion before it happens, checkpoints the working state, and restores it into the next session.',
    )
    .version(getVersion(), '-v, --version')
    .enablePositionalOptions()
    .showHelpAfterError('(run `shim --help` for usage)')
    .configureHelp({ sortSubcommands: false })
    .addHelpText(
      'after',
      `
The agents themselves run three more commands, wired by \`shim install\`:
  shim hook <Event>          one hook event; the payload on stdin (--agent codex for Codex CLI)
  shim gemini-hook <Event>   one Gemini CLI hook event
  shim statusline            Claude Code's statusline; its statusline JSON on stdin

Start with: shim install   (wires every agent found here; then work as usual; shim doctor checks it)
  One agent only: shim install --agent claude | codex | gemini`,
    );

  // A checkpoint a hook promised before a risky command and whose builder did not finish (killed,
  // or still starting) is built before any command reads the store (docs/hot-path.md).
  program.hook('preAction', async () => {
    const home = getShimHome();
    if (!hasPendingCheckpoints(home)) return;
    await (
      await import('../app/checkpoint/finish-pending-checkpoints.ts')
    ).finishPendingCheckpoints(home, process.env, agents, { wait: true });
  });

  defineSessionCommands(program, agents);
  defineEstimateCommand(program, agents);
  defineStoreCommands(program);
  defineRedactCommand(program);
  defineLoopCommand(program, agents);
  defineUiCommand(program, agents);
  defineSyncCommands(program, agents);
  defineTeamCommand(program);
  defineSetupCommands(program, agents);

  await runWithErrorBoundary(
    async () => {
      await program.parseAsync(process.argv);
    },
    (argv) => readCommandLine(argv, program),
  );
}
