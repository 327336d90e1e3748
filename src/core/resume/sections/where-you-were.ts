/**
 * "Where you were": the moment the work stopped, built from the tool calls and never from a
 * summary — the call that was in flight (a command verbatim, with how to run it again), the last
 * shell commands as lines with their exit status, and the newest failure verbatim (its tool, its
 * input, the first lines of its output). What summaries lose first (docs/specification.md,
 * "Resume"), and what the next session needs first.
 * @module
 */
import type { Checkpoint, CommandRun, PendingOp } from '../../checkpoint/checkpoint.ts';
import { truncate } from '../../truncate.ts';
import { section, type Section } from './section.ts';
import { bullets, code, fence, first, oneLine, plural } from './text.ts';

/** A command as a line of shell, cut to `chars` with the cut said. */
function commandLine(command: string, chars: number): string {
  const text = command.replace(/\s+$/, '');
  return text.length <= chars
    ? text
    : `${text.slice(0, chars)} … (${text.length - chars} more characters)`;
}

/** One in-flight call: a command verbatim in a block, anything else by its tool and target. */
function inFlight(op: PendingOp, chars: number, cwd: string | null): string {
  const when = op.startedAt !== '' ? ` at ${op.startedAt}` : '';
  if (op.command !== undefined && op.command.trim() !== '') {
    const rerun = op.interrupted
      ? `Started${when}, killed with the session: check what it changed, then run it again${cwd !== null ? ` in ${code(cwd)}` : ''} if it is still needed.`
      : `Started${when}, no result recorded: check whether it finished (its output or side effects) before running it again.`;
    return `${fence(commandLine(op.command, chars), 'sh')}\n${rerun}`;
  }
  return `- ${oneLine(truncate(op.description, chars))} (started${when}): ${oneLine(op.resumeWith)}`;
}

/** The calls started and never finished: interrupted by the crash, or without a result yet. */
export function buildPending(c: Checkpoint): Section | undefined {
  const ops = c.toolState.pendingOperations;
  if (ops.length === 0) return undefined;
  const interrupted = ops.every((op) => op.interrupted);
  const lead = interrupted
    ? `**In flight when it stopped** (${plural(ops.length, 'call')} that did not finish):`
    : `**Started, no result recorded** (${plural(ops.length, 'call')}; each may not have completed):`;
  const render = (chars: number, max: number) =>
    [
      lead,
      ...first(ops, max).map((op) =>
        typeof op === 'string' ? op : inFlight(op, chars, c.source.cwd),
      ),
    ].join('\n\n');
  return section('pending', [render(1000, 10), render(300, 5), render(160, 2)]);
}

function status(run: CommandRun): string {
  switch (run.status) {
    case 'ok':
      // A checkpoint taken before Gemini's non-zero exits counted as failures may hold one.
      return run.exitCode !== null && run.exitCode !== 0 ? `**exit ${run.exitCode}**` : 'exit 0';
    case 'failed':
      return run.exitCode !== null ? `**exit ${run.exitCode}**` : '**failed**';
    case 'stopped':
      return 'stopped by the user';
    case 'running':
      return 'no result yet';
    case 'interrupted':
      return '**interrupted** (killed with the session)';
  }
}

/** The last distinct shell commands, verbatim, newest last, each with how it ended. */
export function buildCommands(c: Checkpoint): Section | undefined {
  const runs = c.toolState.commands ?? [];
  if (runs.length === 0) return undefined;
  const render = (max: number, chars: number) => {
    const shown = runs.slice(-max);
    const left = runs.length - shown.length;
    return `**Last commands** (verbatim, newest last${left > 0 ? `; ${left} older not shown` : ''}):\n${bullets(
      shown.map((r) => `${code(commandLine(r.command, chars))} → ${status(r)}`),
    )}`;
  };
  return section('commands', [render(8, 300), render(6, 160), render(5, 80)]);
}

/** The first lines of an output, at most `chars` characters. */
function firstLines(text: string, lines: number, chars: number): string {
  const kept = text
    .replace(/^\s*\n/, '')
    .split('\n')
    .slice(0, lines)
    .join('\n');
  return kept.length > chars ? `${kept.slice(0, chars)}…` : kept;
}

/** The newest failed call, verbatim: what failed, on what, and the start of what it said. */
export function buildFailure(c: Checkpoint): Section | undefined {
  const f = c.toolState.lastFailure;
  if (!f) return undefined;
  const ago =
    f.callsSince === 0 ? 'the last call' : `${plural(f.callsSince, 'call')} before the checkpoint`;
  const exit = f.exitCode !== null ? `, exit ${f.exitCode}` : '';
  const render = (lines: number, chars: number, inputChars: number) =>
    [
      `**Newest failure** (${f.tool}${exit}, ${ago}):`,
      f.input.trim() !== '' ? code(commandLine(f.input, inputChars)) : null,
      f.output.trim() !== '' ? fence(firstLines(f.output, lines, chars), 'text') : null,
    ]
      .filter((x) => x !== null)
      .join('\n');
  return section('failure', [render(12, 800, 300), render(6, 400, 160), render(3, 200, 100)]);
}
