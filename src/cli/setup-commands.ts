/**
 * The commands that set shim up and check it: config, install, uninstall, doctor, mcp.
 * @module
 */
import { Option, type Command } from '@commander-js/extra-typings';
import type { Agents } from '../agents/agent.ts';
import { AGENT_IDS } from '../core/agent-id.ts';

export function defineSetupCommands(program: Command, agents: Agents): void {
  program
    .command('config')
    .description('show the configuration in effect, and where each value comes from')
    .option('--cwd <dir>', 'for the project of this directory instead of the current one')
    .option('--json', 'settings, their sources and any problems as JSON')
    .addHelpText(
      'after',
      `
  Settings come from $SHIM_HOME/config.json, then the project's .claude/shim.json and .shim.json
  (later files win). Keys:
    enabled                      false turns shim off (e.g. in one project's .shim.json)
    checkpoints.timing           "changes": where the work changes (a task done, tests passing, a
                                 commit), only once a file changed since the last; "count": every N
    checkpoints.fallbackCalls    "changes": … or after N calls without a work change (3)
    checkpoints.everyToolCalls   "count": background checkpoint every N tool calls (5)
    checkpoints.everyMinutes     … and every N minutes of activity (10)
    checkpoints.continuous       store each as what changed since the previous one (true)
    checkpoints.fullEvery        … with a whole one after at most N changes (10)
    restoreContextHours          how far back show / the dashboard / MCP read earlier checkpoints (24)
    restoreMaxContexts           … and at most how many (50)
    restoreAtStartup             inject an interrupted session into the next one (true)
    resumeWindowDays             older checkpoints are not resumed (7)
    warmLook                     hooks hand their look to a warm process (true; false: each looks itself)
    retention.auto / .days / .maxStoreMB   daily clean-up at session end (true / 30 / 500)
    sync.enabled                 tracker sync: comments on the session's issue (true; needs a token)
    sync.label                   label added to the issue ("context-checkpointed"; null: none)
    sync.state                   Linear state to move the issue to (none; never a closing one)
    sync.fromRequests            also take the issue from a request's text (false: link or branch)
    sync.staleAfterHours         an update not sent by then is dropped, not posted late (24)
    sync.claudeMem               checkpoints as claude-mem observations when installed (true)
    projectFiles.enabled         also write <dir>/checkpoint-state.json and <dir>/handoffs/ in the
                                 project, redacted (false: shim writes nothing outside SHIM_HOME)
    projectFiles.dir / .track    where in the project (".claude", for every agent) / let git see
                                 them (false: listed in the clone's .git/info/exclude)
    relay                        at L3 offer a fresh context; after /clear restore the cleared
                                 session's whole state into it (false; Claude Code)
    mcp.forget                   the agent may remove checkpoints with shim_forget (false;
                                 only in $SHIM_HOME/config.json, never a project's file)
    levels.L1/L2/L3, risk, learnFromHistory, blockAutoCompact, loopRetention

  Exits 1 when a file has a problem (the hooks then run on the defaults for that file).`,
    )
    .action(async (options) => (await import('./commands/config.ts')).runConfig(options));

  program
    .command('install')
    .description(
      "wire shim's hooks (and Claude Code's statusline) into each agent's settings (keeps all of yours)",
    )
    .addOption(
      new Option(
        '--user',
        "into the agent's user settings (default; ~/.claude/settings.json, honours CLAUDE_CONFIG_DIR)",
      ).conflicts('project'),
    )
    .addOption(
      new Option('--project', "into the agent's settings of the current directory (.claude/, …)"),
    )
    .option('--dry-run', 'print what would change, as a diff, and write nothing')
    .option('--json', 'print the result as JSON')
    .option('--mod', "also set up shim's mod without asking `claude --version`")
    .option('--no-mod', 'hooks only, even where Claude Code loads mods')
    .addOption(
      new Option(
        '--agent <agent>',
        'the agent to wire shim into (default: every agent found on this machine; docs/agents.md)',
      ).choices(AGENT_IDS),
    )
    .addHelpText(
      'after',
      `
  Without --agent, shim wires every agent it finds here (its CLI on PATH, or its settings
  directory: ~/.claude, ~/.codex, ~/.gemini) and says which; with none found it asks for --agent.

  Hooks call node and shim by absolute path (no npx). An existing statusline keeps working: shim
  shows its line next to yours. Running it again changes nothing; a backup of the file goes to
  $SHIM_HOME/backups/ first, and \`shim uninstall\` undoes it exactly.

  Where \`claude --version\` says 2.1.287 or later, shim's mod is set up too: a plugin under
  $SHIM_HOME/mod that Claude Code loads in-process, which sees each response's usage as it
  happens and reports it to shim's MCP server, so the per-tool-call hook has nothing left to do.`,
    )
    .action(async (options) =>
      (await import('./commands/install.ts')).runInstall(agents, options.agent, options),
    );

  program
    .command('uninstall')
    .description("remove shim's hooks (and statusline) from each agent's settings, restoring yours")
    .addOption(new Option('--user', 'from ~/.claude/settings.json (default)').conflicts('project'))
    .addOption(new Option('--project', 'from .claude/settings.json of the current directory'))
    .option(
      '--purge',
      "also delete $SHIM_HOME (checkpoints, handoffs, logs) and shim's git snapshot refs",
    )
    .option('-y, --yes', 'with --purge: do not ask first')
    .option('--json', 'print the result as JSON')
    .addOption(
      new Option(
        '--agent <agent>',
        'the agent to take shim out of (default: every agent found on this machine)',
      ).choices(AGENT_IDS),
    )
    .action(async (options) =>
      (await import('./commands/install.ts')).runUninstall(agents, options.agent, options),
    );

  program
    .command('doctor')
    .description(
      'check that shim is wired into your agents (Claude Code, Codex CLI, Gemini CLI) and working; prints a fix for each problem',
    )
    .option('--json', 'print the checks as JSON')
    .option(
      '--clear-failures',
      "forget the checkpoint failures recorded so far and the set-aside notes of risky commands' checkpoints (their git snapshots stay), then check",
    )
    .addHelpText(
      'after',
      "\nExits 1 when an essential check fails. A checkpoint that failed in the last day is one, and a\nrisky command's checkpoint set aside in the last day (pending/failed/); a session clears its own\nrecord when its next checkpoint is stored. Older ones are listed until --clear-failures.",
    )
    .action(async (options) =>
      (await import('./commands/doctor.ts')).runDoctorCommand(agents, options),
    );

  program
    .command('mcp')
    .description("serve shim's tools to an MCP client over stdio (crash risk, checkpoints, search)")
    .addHelpText(
      'after',
      `
  Tools: shim_get_crash_risk, shim_checkpoint, shim_check_resume, shim_list_checkpoints,
  shim_get_checkpoint, shim_search. The calling session is the most recently written session log
  (of any agent shim serves) of the directory the server runs in. stdout carries only the protocol.

  \`shim install\` registers it with each agent it wires. By hand, e.g. in Claude Code:
  claude mcp add shim -- shim mcp`,
    )
    .action(async () => (await import('./commands/mcp.ts')).runMcp(agents));
}
