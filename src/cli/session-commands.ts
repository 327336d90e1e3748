/**
 * The commands about sessions and their checkpoints: status, replay, checkpoint, list, show,
 * search, resume, handoff, defer. Each loads its code only when it runs.
 * @module
 */
import { Option, type Command } from '@commander-js/extra-typings';
import { AGENT_IDS } from '../core/agent-id.ts';
import { numberOption } from './number-option.ts';
import { SCOPE_HELP } from './scope-help.ts';
import type { Agents } from '../agents/agent.ts';

/** `--agent` of the commands that read any session log: checked against the file. */
function agentOption() {
  return new Option(
    '--agent <agent>',
    "whose log it is: claude, codex or gemini (default: told from the file's name, else its first lines)",
  ).choices(AGENT_IDS);
}

export function defineSessionCommands(program: Command, agents: Agents): void {
  program
    .command('status')
    .description(
      "show how full a session's context is, its level, crash risk and compaction forecast",
    )
    .argument(
      '[transcript]',
      "a session log (Claude Code's .jsonl, a Codex rollout, a Gemini chat; gzipped too); default: the newest session of this directory, of any agent",
    )
    .option('-s, --session <id>', "a session id, looked up in every agent's sessions")
    .addOption(agentOption())
    .option('--json', 'print the full status as JSON')
    .option(
      '--no-history',
      'do not learn from your other sessions (where the agent compacts, how context grows)',
    )
    .addHelpText(
      'after',
      `
  Examples:
    shim status                          newest session of the current directory, any agent
    shim status --session 4d5611e5-…     a session by id
    shim status ~/.claude/projects/-home-me-app/4d5611e5-….jsonl --json

  Percentages are of the auto-compact threshold (where the session's agent will compact), with the share
  of the raw context window shown beside it. Levels: L1 ≥ 70%, L2 ≥ 85%, L3 ≥ 95%.`,
    )
    .action(async (transcript, options) =>
      (await import('./commands/status.ts')).runStatus(agents, transcript, options),
    );

  program
    .command('replay')
    .description('replay a transcript as the live hooks would have seen it, response by response')
    .argument('<transcript>', 'a transcript .jsonl (or .jsonl.gz)')
    .option(
      '--json',
      'one JSON object per line: {"kind":"turn",…} per response, {"kind":"compact",…} per compaction',
    )
    .option(
      '--no-history',
      'do not learn from your other sessions (where your agent compacts, how context grows)',
    )
    .addOption(agentOption())
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
    .action(async (transcript, options) =>
      (await import('./commands/replay.ts')).runReplay(agents, transcript, options),
    );

  program
    .command('checkpoint')
    .description('save the state of a session now: tasks, requests, files, git snapshot, signals')
    .option(
      '-t, --transcript <file>',
      'the session log (default: the newest session of this directory, of any agent)',
    )
    .option('-s, --session <id>', "a session id, looked up in every agent's sessions")
    .option(
      '--until-line <n>',
      "use only the transcript's first N lines (the state as it was then)",
    )
    .option('-r, --reason <text>', 'why this checkpoint was taken (kept with it)')
    .option('--trigger <name>', 'what triggered it', 'user_requested')
    .option('--no-snapshot', 'do not snapshot uncommitted work under refs/shim/snapshots/')
    .option(
      '--wip-commit',
      'also commit all changes to the current branch as a WIP commit (opt-in: moves your branch)',
    )
    .addOption(agentOption())
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
    .action(async (options) =>
      (await import('./commands/checkpoint.ts')).runCheckpoint(agents, options),
    );

  program
    .command('list')
    .description(
      "list this project's checkpoints, newest first (--all: every project); with a team store connected, the other machines' and teammates' too, each saying whose",
    )
    .option('-s, --session <id>', 'only this session (wherever it ran)')
    .option('--cwd <dir>', 'the project of this directory instead of the current one')
    .option('--all', 'every project')
    .option(
      '-n, --limit <n>',
      'how many',
      numberOption({ min: 1, max: 100_000, integer: true }),
      20,
    )
    .option('--json', 'print them as JSON')
    .option('--team', "the team store's sessions of this project (--all: of your projects)")
    .option('--mine', 'with --team: only your own sessions')
    .addHelpText('after', SCOPE_HELP)
    .action(async (options) =>
      options.team
        ? (await import('./commands/team.ts')).runTeamList(options)
        : (await import('./commands/list.ts')).runList(options),
    );

  program
    .command('stats')
    .description(
      "how shim has done here: checkpoints by trigger, restores and their outcome, what shim's restore carried beside Claude Code's summary",
    )
    .option('--cwd <dir>', 'the project of this directory instead of the current one')
    .option('--all', 'every project')
    .option(
      '-n, --limit <n>',
      'how many sessions, newest first',
      numberOption({ min: 1, max: 100_000, integer: true }),
      20,
    )
    .option('--json', 'print them as JSON')
    .addHelpText(
      'after',
      `
  A restore "went on working" once the session it went into has more messages than it had at
  the restore; it "ended without a new message" when that session ended first. At compactions
  (Claude Code 2.1.330 hands its summary to the PostCompact hook) both texts are scored against
  the checkpoint: the share of its requests, changed files and open tasks each one carries.
${SCOPE_HELP}`,
    )
    .action(async (options) => (await import('./commands/stats.ts')).runStats(options));

  program
    .command('show')
    .description(
      "show one checkpoint of this project as its restore: the text the agent was given (an id or a unique prefix of one; with a team store connected, one of another machine's too)",
    )
    .argument('<id>', 'checkpoint id or prefix (see `shim list`)')
    .option('--handoff', 'the handoff document instead (front-matter and the same sections)')
    .option('--json', 'the whole checkpoint as JSON')
    .option('--cwd <dir>', 'the project of this directory instead of the current one')
    .option('--all', 'any project')
    .addHelpText('after', SCOPE_HELP)
    .action(async (id, options) =>
      (await import('./commands/show.ts')).runShow(agents, id, options),
    );

  program
    .command('search')
    .description(
      "search past sessions' checkpoints: requests, decisions, tasks, files, errors (with a team store connected, the team's hits follow)",
    )
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
    .option('--team', 'search the team store (PostgreSQL full-text) in this project (--all: yours)')
    .option('--mine', 'with --team: only your own checkpoints')
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
    .action(async (query, options) =>
      options.team
        ? (await import('./commands/team.ts')).runTeamSearch(query, options)
        : (await import('./commands/search.ts')).runSearch(query, options),
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
    .option('--for <agent>', 'the agent that takes the work on: claude, codex or gemini')
    .addHelpText('after', SCOPE_HELP)
    .action(async (options) => (await import('./commands/resume.ts')).runResume(agents, options));

  program
    .command('rescue')
    .description(
      "fork a session that went over the context limit at the last point that fits, with shim's restore of the rest",
    )
    .option('-s, --session <id>', 'the session to rescue (default: the newest of this project)')
    .option('--claude-bin <path>', 'the claude to run (default: claude on PATH)')
    .option('--dry-run', 'say where it would fork and with what; store and start nothing')
    .option('--json', 'with --dry-run: the plan as JSON')
    .argument('[claude-args...]', 'more arguments for claude, after --')
    .addHelpText(
      'after',
      `
  Runs: claude --resume <id> --resume-session-at <uuid> --fork-session [claude-args] "<restore>"
  The fork keeps the real conversation up to the last point below the auto-compact threshold
  (after a tool result or an answer, before the first "Prompt is too long"), and starts with
  shim's exact state of the session after it. The original session is left as it was.

  Examples:
    shim rescue                                  the newest session of this project
    shim rescue --session 4f8c1176-7025-4530-a860-c6fc4c63a150 --dry-run
    shim rescue -- -p --output-format stream-json --verbose`,
    )
    .action(async (claudeArgs, options) =>
      (await import('./commands/rescue.ts')).runRescue(agents, claudeArgs, options),
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
    .option('--team', 'hand it to whoever opens the project next, on any machine of the team store')
    .addHelpText(
      'after',
      `
  The document (markdown with YAML front-matter) is kept under $SHIM_HOME/handoffs/. The next
  session started in the checkpoint's project, of any agent shim is installed into, gets it
  injected once, even after a clean exit — start your agent as usual.
  With a team store connected, the project's newest checkpoint may be another machine's (asked
  within 1.5 s, as a session start asks): that one is handed on, and the line says whose.
  ${SCOPE_HELP}`,
    )
    .action(async (options) => (await import('./commands/handoff.ts')).runHandoff(agents, options));

  program
    .command('defer')
    .description(
      'just one more task: hold the L1/L2 notices back until the task in progress is done',
    )
    .argument('[transcript]', 'a session log; default: the latest session of this directory')
    .option('-s, --session <id>', 'a session id')
    .addOption(agentOption())
    .option('--off', 'end the deferral now (a notice held back comes with the next tool call)')
    .option('--json', 'print the deferral as JSON')
    .addHelpText(
      'after',
      `
  While it holds, shim still takes every checkpoint; only what interrupts waits: the L1/L2
  notice, its note to the model, the L2 handoff and the Stop hook's handoff suggestion. It ends
  by itself when the task in progress now is completed (with no task list: at the next finished
  task, commit or passing test run), at L3, or at a compaction; the notice held back is given
  then, once. In Claude Code: /defer.

  Examples:
    shim defer                 the latest session of this directory
    shim defer --off           notices back on now`,
    )
    .action(async (transcript, options) =>
      (await import('./commands/defer.ts')).runDefer(agents, transcript, options),
    );
}
