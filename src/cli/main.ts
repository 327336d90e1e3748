/**
 * The `shim` binary. Defines the commands (cheap) and loads each one's code only when it runs,
 * so a call pays for the modules it uses and nothing else.
 * @module
 */
import { Command, Option } from 'commander';
import { runWithErrorBoundary } from './error-boundary.ts';
import type { CheckpointOptions } from './commands/checkpoint.ts';
import type { GcOptions } from './commands/gc.ts';
import { numberOption } from './number-option.ts';
import type { LoopCommandOptions } from './commands/loop.ts';
import { getVersion } from './version.ts';

const program = new Command('shim')
  .description(
    'Keeps Claude Code from losing its work.\n' +
      'Predicts context exhaustion before it happens, checkpoints the working state, and restores it into the next session.',
  )
  .version(getVersion(), '-v, --version')
  .enablePositionalOptions()
  .showHelpAfterError('(run `shim --help` for usage)')
  .configureHelp({ sortSubcommands: false })
  .addHelpText(
    'after',
    `
Claude Code itself runs two more commands, wired by \`shim install\`:
  shim hook <Event>     one hook event; the payload comes on stdin (SessionStart, PostToolUse, …)
  shim statusline       the statusline; Claude Code's statusline JSON on stdin

Start with: shim install   (then use Claude Code as usual; shim doctor checks it)`,
  );

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

program
  .command('checkpoint')
  .description('save the state of a session now: tasks, requests, files, git snapshot, signals')
  .option(
    '-t, --transcript <file>',
    'the session transcript (default: the latest session of this directory)',
  )
  .option('-s, --session <id>', 'a session id to look up under ~/.claude/projects')
  .option('--until-line <n>', "use only the transcript's first N lines (the state as it was then)")
  .option('-r, --reason <text>', 'why this checkpoint was taken (kept with it)')
  .option('--trigger <name>', 'what triggered it', 'user_requested')
  .option('--no-snapshot', 'do not snapshot uncommitted work under refs/shim/snapshots/')
  .option(
    '--wip-commit',
    'also commit all changes to the current branch as a WIP commit (opt-in: moves your branch)',
  )
  .option('--json', 'print {"checkpointId","sessionId","size":{…}} for scripts')
  .addHelpText(
    'after',
    `
Secrets (API keys, tokens, private keys, passwords in URLs, .env values) are redacted before
anything is stored. The git snapshot never touches your branch, index or working tree.

Examples:
  shim checkpoint --reason "before the big refactor"
  shim checkpoint --transcript session.jsonl --until-line 400 --json`,
  )
  .action((options: CheckpointOptions) =>
    runWithErrorBoundary(async () =>
      (await import('./commands/checkpoint.ts')).runCheckpoint(options),
    ),
  );

const SCOPE_HELP = `
Scope: the current project by default — the git work tree the working directory is in, with
every directory below its top (outside git: the directory itself). --all looks at every
project; --cwd <dir> at the project of another directory (relative paths work).`;

program
  .command('list')
  .description("list this project's checkpoints, newest first (--all: every project)")
  .option('-s, --session <id>', 'only this session (wherever it ran)')
  .option('--cwd <dir>', 'the project of this directory instead of the current one')
  .option('--all', 'every project')
  .option('-n, --limit <n>', 'how many', numberOption({ min: 1, max: 100_000, integer: true }), 20)
  .option('--json', 'print them as JSON')
  .addHelpText('after', SCOPE_HELP)
  .action(
    (options: { session?: string; cwd?: string; all?: boolean; limit: number; json?: boolean }) =>
      runWithErrorBoundary(async () => (await import('./commands/list.ts')).runList(options)),
  );

program
  .command('show')
  .description('show one checkpoint of this project (an id or a unique prefix of one)')
  .argument('<id>', 'checkpoint id or prefix (see `shim list`)')
  .option('--json', 'the whole checkpoint as JSON')
  .option('--cwd <dir>', 'the project of this directory instead of the current one')
  .option('--all', 'any project')
  .addHelpText('after', SCOPE_HELP)
  .action((id: string, options: { json?: boolean; all?: boolean; cwd?: string }) =>
    runWithErrorBoundary(async () => (await import('./commands/show.ts')).runShow(id, options)),
  );

program
  .command('search')
  .description("search past sessions' checkpoints: requests, decisions, tasks, files, errors")
  .argument('<query...>', 'words (all must match); "quoted phrases"; word* for a prefix')
  .option('--all', 'every project, not only this one')
  .option('--cwd <dir>', 'the project of this directory instead of the current one')
  .option(
    '-n, --limit <n>',
    'how many sessions (1–50)',
    numberOption({ min: 1, max: 50, integer: true }),
    10,
  )
  .option('--json', 'print the result as JSON')
  .addHelpText(
    'after',
    `
One line per session (its best-matching checkpoint), best first. The same search as the MCP
tool shim_search.
${SCOPE_HELP}

Examples:
  shim search sqlite migration
  shim search '"prompt is too long"' --all
  shim search database.ts --json`,
  )
  .action(
    (query: string[], options: { all?: boolean; cwd?: string; json?: boolean; limit: number }) =>
      runWithErrorBoundary(async () =>
        (await import('./commands/search.ts')).runSearch(query, options),
      ),
  );

program
  .command('resume')
  .description(
    "decide whether to resume this project's newest checkpoint, and print the prompt that carries the work into a new session",
  )
  .option('-s, --session <id>', 'resume this session (wherever it ran)')
  .option('--print', 'print only the resume prompt (markdown) to stdout')
  .option('--json', 'the detection and the prompt as JSON')
  .option('--record', 'record that the checkpoint was restored (it will not be offered again)')
  .option('--cwd <dir>', 'the project of this directory instead of the current one')
  .option('--all', 'the newest checkpoint of any project')
  .addHelpText('after', SCOPE_HELP)
  .action(
    (options: {
      session?: string;
      print?: boolean;
      json?: boolean;
      record?: boolean;
      all?: boolean;
      cwd?: string;
    }) =>
      runWithErrorBoundary(async () => (await import('./commands/resume.ts')).runResume(options)),
  );

program
  .command('handoff')
  .description(
    "write a handoff document for this project's newest checkpoint; the next session started here picks it up",
  )
  .option('-s, --session <id>', 'this session (wherever it ran)')
  .option('-o, --out <file>', 'also write it here')
  .option('--print', 'print the document to stdout')
  .option('--cwd <dir>', 'the project of this directory instead of the current one')
  .option('--all', 'the newest checkpoint of any project')
  .addHelpText(
    'after',
    `
The document (markdown with YAML front-matter) is kept under $SHIM_HOME/handoffs/. The next
Claude Code session started in the checkpoint's project gets it injected once, even after a
clean /exit — start it with \`claude\` as usual.
${SCOPE_HELP}`,
  )
  .action(
    (options: { session?: string; out?: string; print?: boolean; all?: boolean; cwd?: string }) =>
      runWithErrorBoundary(async () => (await import('./commands/handoff.ts')).runHandoff(options)),
  );

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
  .action((options: GcOptions) =>
    runWithErrorBoundary(async () => (await import('./commands/gc.ts')).runGc(options)),
  );

program
  .command('restore-files')
  .description(
    "bring a checkpoint's git snapshot back into a new branch or worktree (never over your work)",
  )
  .argument('<checkpoint>', 'checkpoint id or prefix')
  .option('-b, --branch <name>', 'the new branch (default: shim/restore-<id>)')
  .option('-w, --worktree <path>', 'check it out in a new worktree at this path instead')
  .option('--json', 'print the result as JSON')
  .action((id: string, options: { branch?: string; worktree?: string; json?: boolean }) =>
    runWithErrorBoundary(async () =>
      (await import('./commands/restore-files.ts')).runRestoreFiles(id, options),
    ),
  );

const loop = program
  .command('loop')
  // `shim loop status --json`: the subcommand's --json, not the loop's own.
  .enablePositionalOptions()
  .description(
    'run Claude Code until a goal is met, restarting it with a fresh session before its context runs out',
  )
  .usage(
    '--goal "<text>" [options] [-- <claude flags>]\n       shim loop --resume [run-id]\n       shim loop list | status [run] | logs [run] [--follow]',
  )
  .option('-g, --goal <text>', 'what the agent should achieve')
  .option('-f, --prompt-file <file>', 'read the goal from a file (e.g. PROMPT.md)')
  .option('--max-iterations <n>', 'agent invocations at most (default 20)')
  .option('--max-restarts <n>', 'fresh-session restarts at most (default 3, at most 5)')
  .option('--threshold <percent>', 'restart at this % of the auto-compact threshold (default 70)')
  .option('--test-cmd <command>', 'must pass before a reported completion counts (run with sh -c)')
  .option('--test-timeout <duration>', 'time limit of the test command (default 10m)')
  .option(
    '--iteration-timeout <duration>',
    'stop and restart an agent running longer (default 30m)',
  )
  .option('--budget-usd <amount>', 'stop once the reported cost reaches this')
  .option(
    '--claude-bin <path>',
    'the Claude Code CLI (default: SHIM_CLAUDE_BIN, else claude on PATH)',
  )
  .option(
    '--completion-marker <word>',
    'what the agent prints when done (default SHIM_LOOP_COMPLETE)',
  )
  .option(
    '--stuck-iterations <n>',
    'iterations without change / with one error before "stuck" (default 3)',
  )
  .option(
    '--resume [run-id]',
    'continue a run whose supervisor was stopped or killed (default: the latest here)',
  )
  .option('--json', 'print the finished run (and its iterations) as JSON on stdout')
  .option('-q, --quiet', 'no progress output on stderr')
  .argument(
    '[claude-flags...]',
    'after --: flags for every claude invocation, e.g. -- --model sonnet',
  )
  .addHelpText(
    'after',
    `
Each iteration runs: claude -p <prompt> --output-format stream-json --verbose [--resume <session>] <your flags>
shim follows the stream live. Below the threshold the next iteration continues the same session;
once a response crosses it, the iteration ends at the next safe point (no tool running), shim
checkpoints the session, writes a summary of the loop (goal, status, files changed, errors, tests,
recent log; at most 2,000 characters) and starts a fresh session with the summary ahead of the goal.

The run ends when the agent prints the completion marker on a line of its own and --test-cmd
passes; when it is stuck (no file changes, the same error, identical answers for --stuck-iterations
iterations, even after one fresh restart); or at --max-iterations, --max-restarts or --budget-usd.
Usage limits are waited out until the reset the agent reports; hung agents are stopped after
--iteration-timeout and crashed ones restarted. Everything is recorded as it happens, so a killed
supervisor loses nothing: shim loop --resume picks the run up, re-attaching to a still-running agent.

Examples:
  shim loop --goal "make npm test pass" --test-cmd "npm test" -- --dangerously-skip-permissions
  shim loop --prompt-file PROMPT.md --max-iterations 50 --budget-usd 20
  shim loop status          progress of the latest run here
  shim loop logs --follow   its events as they happen`,
  )
  .action((claudeFlags: string[], options: LoopCommandOptions) =>
    runWithErrorBoundary(async () =>
      (await import('./commands/loop.ts')).runLoopCommand(options, claudeFlags),
    ),
  );

loop
  .command('list')
  .description('loop runs of this directory, newest first')
  .option('--all', 'every directory')
  .option('-n, --limit <n>', 'how many', numberOption({ min: 1, integer: true }), 20)
  .option('--json', 'print them as JSON')
  .action((options: { all?: boolean; limit: number; json?: boolean }) =>
    runWithErrorBoundary(async () => (await import('./commands/loop.ts')).runLoopList(options)),
  );

loop
  .command('status')
  .description('one run: iteration, context bar, cost, last event, iterations')
  .argument('[run]', 'run id or a unique prefix (default: the latest run here)')
  .option('--json', 'print it as JSON')
  .action((run: string | undefined, options: { json?: boolean }) =>
    runWithErrorBoundary(async () =>
      (await import('./commands/loop.ts')).runLoopStatus(run, options),
    ),
  );

loop
  .command('logs')
  .description("a run's events, oldest first")
  .argument('[run]', 'run id or a unique prefix (default: the latest run here)')
  .option('--follow', 'keep printing new events until the run ends')
  .option('--context', 'include the per-response context readings')
  .option('--json', 'one JSON event per line')
  .action(
    (run: string | undefined, options: { follow?: boolean; json?: boolean; context?: boolean }) =>
      runWithErrorBoundary(async () =>
        (await import('./commands/loop.ts')).runLoopLogs(run, options),
      ),
  );

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
  checkpoints.everyToolCalls   background checkpoint every N tool calls (5)
  checkpoints.everyMinutes     … and every N minutes of activity (10)
  restoreAtStartup             inject an interrupted session into the next one (true)
  resumeWindowDays             older checkpoints are not resumed (7)
  retention.auto / .days / .maxStoreMB   daily clean-up at session end (true / 30 / 500)
  levels.L1/L2/L3, risk, learnFromHistory, blockAutoCompact, loopRetention

Exits 1 when a file has a problem (the hooks then run on the defaults for that file).`,
  )
  .action((options: { json?: boolean; cwd?: string }) =>
    runWithErrorBoundary(async () => (await import('./commands/config.ts')).runConfig(options)),
  );

program
  .command('install')
  .description("wire shim's hooks and statusline into Claude Code's settings (keeps all of yours)")
  .addOption(
    new Option(
      '--user',
      'into ~/.claude/settings.json (default; honours CLAUDE_CONFIG_DIR)',
    ).conflicts('project'),
  )
  .addOption(new Option('--project', 'into .claude/settings.json of the current directory'))
  .option('--dry-run', 'print what would change, as a diff, and write nothing')
  .option('--json', 'print the result as JSON')
  .addHelpText(
    'after',
    `
Hooks call node and shim by absolute path (no npx). An existing statusline keeps working: shim
shows its line next to yours. Running it again changes nothing; a backup of the file goes to
$SHIM_HOME/backups/ first, and \`shim uninstall\` undoes it exactly.`,
  )
  .action((options: { user?: boolean; project?: boolean; dryRun?: boolean; json?: boolean }) =>
    runWithErrorBoundary(async () => (await import('./commands/install.ts')).runInstall(options)),
  );

program
  .command('uninstall')
  .description("remove shim's hooks and statusline from Claude Code's settings, restoring yours")
  .addOption(new Option('--user', 'from ~/.claude/settings.json (default)').conflicts('project'))
  .addOption(new Option('--project', 'from .claude/settings.json of the current directory'))
  .option(
    '--purge',
    "also delete $SHIM_HOME (checkpoints, handoffs, logs) and shim's git snapshot refs",
  )
  .option('-y, --yes', 'with --purge: do not ask first')
  .option('--json', 'print the result as JSON')
  .action(
    (options: {
      user?: boolean;
      project?: boolean;
      json?: boolean;
      purge?: boolean;
      yes?: boolean;
    }) =>
      runWithErrorBoundary(async () =>
        (await import('./commands/uninstall.ts')).runUninstall(options),
      ),
  );

program
  .command('doctor')
  .description(
    'check that shim is wired into Claude Code and working; prints a fix for each problem',
  )
  .option('--json', 'print the checks as JSON')
  .addHelpText('after', '\nExits 1 when an essential check fails.')
  .action((options: { json?: boolean }) =>
    runWithErrorBoundary(async () =>
      (await import('./commands/doctor.ts')).runDoctorCommand(options),
    ),
  );

program
  .command('mcp')
  .description("serve shim's tools to an MCP client over stdio (crash risk, checkpoints, search)")
  .addHelpText(
    'after',
    `
Tools: shim_get_crash_risk, shim_checkpoint, shim_check_resume, shim_list_checkpoints,
shim_get_checkpoint, shim_search. The calling session is the most recently written Claude Code
transcript of the directory the server runs in. stdout carries only the protocol.

Add it to Claude Code by hand: claude mcp add shim -- shim mcp`,
  )
  .action(() => runWithErrorBoundary(async () => (await import('./commands/mcp.ts')).runMcp()));

await program.parseAsync(process.argv);
