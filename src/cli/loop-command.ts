/**
 * `shim loop` and its subcommands (list, status, logs).
 * @module
 */
import type { Command } from '@commander-js/extra-typings';
import { numberOption } from './number-option.ts';
import type { Agents } from '../agents/agent.ts';

export function defineLoopCommand(program: Command, agents: Agents): void {
  const loop = program
    .command('loop')
    // `shim loop status --json`: the subcommand's --json, not the loop's own.
    .enablePositionalOptions()
    .description(
      'run an agent (Claude Code, Codex CLI, Gemini CLI) until a goal is met, restarting it with a fresh session before its context runs out',
    )
    .usage(
      '--goal "<text>" [options] [-- <agent flags>]\n       shim loop --resume [run-id]\n       shim loop list | status [run] | logs [run] [--follow]',
    )
    .option('-g, --goal <text>', 'what the agent should achieve')
    .option('-f, --prompt-file <file>', 'read the goal from a file (e.g. PROMPT.md)')
    .option(
      '--shards <dir>',
      'run the shards `shim shard` wrote, one run each in order, skipping those whose steps are done',
    )
    .option('--max-iterations <n>', 'agent invocations at most (default 20)')
    .option('--max-restarts <n>', 'fresh-session restarts at most (default 3, at most 5)')
    .option(
      '--threshold <percent>',
      'restart at this % of the auto-compact threshold (default 70; or CONTEXT_EXHAUSTION_THRESHOLD % of CONTEXT_WINDOW_TOKENS)',
    )
    .option(
      '--test-cmd <command>',
      'must pass before a reported completion counts (run with sh -c)',
    )
    .option('--test-timeout <duration>', 'time limit of the test command (default 10m)')
    .option(
      '--iteration-timeout <duration>',
      'stop and restart an agent running longer (default 30m)',
    )
    .option('--budget-usd <amount>', 'stop once the reported cost reaches this')
    .option(
      '--agent <agent>',
      "the agent to run: claude, codex or gemini (default: the one whose --<agent>-bin or SHIM_<AGENT>_BIN is set, else the agent of this directory's newest session)",
    )
    .option(
      '--fallback-agent <agent>',
      'at a usage limit, carry on in this agent from a checkpoint instead of waiting',
    )
    .option(
      '--fallback-arg <flag>',
      'a flag for every fallback-agent invocation (repeat it: --fallback-arg --full-auto)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--claude-bin <path>',
      'the Claude Code CLI (default: SHIM_CLAUDE_BIN, else claude on PATH)',
    )
    .option('--codex-bin <path>', 'the Codex CLI (default: SHIM_CODEX_BIN, else codex on PATH)')
    .option('--gemini-bin <path>', 'the Gemini CLI (default: SHIM_GEMINI_BIN, else gemini on PATH)')
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
      '[agent-flags...]',
      'after --: flags for every invocation of --agent, e.g. -- --model sonnet',
    )
    .addHelpText(
      'after',
      `
  Each iteration runs: claude -p <prompt> --output-format stream-json --verbose [--resume <session>] <your flags>
    --agent codex:  codex exec [resume <session>] --json --skip-git-repo-check <your flags> <prompt>
    --agent gemini: gemini -p <prompt> --output-format stream-json --yolo --skip-trust [--resume <session>] <your flags>
  shim follows the stream live. Below the threshold the next iteration continues the same session;
  once a response crosses it, the iteration ends at the next safe point (no tool running), shim
  checkpoints the session, writes a summary of the loop (goal, status, files changed, errors, tests,
  recent log; at most 2,000 characters) and starts a fresh session with the summary ahead of the goal.
  The specification's names, when --threshold is not given: CONTEXT_EXHAUSTION_THRESHOLD=<percent>
  restarts at that percent of the context window, CONTEXT_WINDOW_TOKENS=<tokens> sets the window
  (default: the model's as shim resolves it), e.g. CONTEXT_WINDOW_TOKENS=200000 → at 140,000 tokens.
  Only Claude Code's stream says what context each response was sent with: Codex and Gemini compact
  by themselves (with shim's hooks installed, shim restores after it).

  The run ends when the agent prints the completion marker on a line of its own and --test-cmd
  passes; when it is stuck (no file changes, the same error, identical answers for --stuck-iterations
  iterations, even after one fresh restart); or at --max-iterations, --max-restarts or --budget-usd.
  Usage limits are waited out until the reset the agent reports. With --fallback-agent the work
  carries on at once in the other agent instead: shim checkpoints the session and starts the other
  agent fresh with the restore \`shim resume --print --for <agent>\` prints (requests, tasks, files,
  git state); if that one hits a limit too, back to the first once its limit has lifted, else wait.
  A Claude Code session that goes over the context limit ("Prompt is too long") is rescued as
  \`shim rescue\` does: forked at the last message that fits, with shim's restore. Hung agents are
  stopped after --iteration-timeout and crashed ones restarted. Everything is recorded as it
  happens, so a killed supervisor loses nothing: shim loop --resume picks the run up, re-attaching
  to a still-running agent.

  Examples:
    shim loop --goal "make npm test pass" --test-cmd "npm test" -- --dangerously-skip-permissions
    shim loop --prompt-file PROMPT.md --max-iterations 50 --budget-usd 20
    shim loop --goal "fix the build" --fallback-agent codex --fallback-arg --full-auto -- --dangerously-skip-permissions
    shim loop --agent gemini --goal "add tests for src/parse.ts"
    shim loop --shards docs/shards    each shard of a plan in fresh sessions, in order
    shim loop status          progress of the latest run here
    shim loop logs --follow   its events as they happen`,
    )
    .action(async (agentFlags, options) =>
      (await import('./commands/loop.ts')).runLoopCommand(agents, options, agentFlags),
    );

  loop
    .command('list')
    .description('loop runs of this directory, newest first')
    .option('--all', 'every directory')
    .option('-n, --limit <n>', 'how many', numberOption({ min: 1, integer: true }), 20)
    .option('--json', 'print them as JSON')
    .action(async (options) => (await import('./commands/loop.ts')).runLoopList(options));

  loop
    .command('status')
    .description('one run: iteration, context bar, cost, last event, iterations')
    .argument('[run]', 'run id or a unique prefix (default: the latest run here)')
    .option('--json', 'print it as JSON')
    .action(async (run, options) =>
      (await import('./commands/loop.ts')).runLoopStatus(run, options),
    );

  loop
    .command('logs')
    .description("a run's events, oldest first")
    .argument('[run]', 'run id or a unique prefix (default: the latest run here)')
    .option('--follow', 'keep printing new events until the run ends')
    .option('--context', 'include the per-response context readings')
    .option('--json', 'one JSON event per line')
    .action(async (run, options) => (await import('./commands/loop.ts')).runLoopLogs(run, options));
}
