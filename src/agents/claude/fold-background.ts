/**
 * A Bash command Claude Code runs in the background (`run_in_background`): its call's result only
 * says it started ("Command running in background with ID: <task id>…"; fold-tasks.ts keeps that
 * id as the job's `handle`);
 * how it ended comes later as a `<task-notification>` message (docs/claude-code.md, "Background
 * work"). The command's run and its check (a test run, a build) are folded from that message.
 * @module
 */
import type { SessionState } from '../../core/session.ts';
import { foldCheck } from '../../transcript/fold-parts.ts';

const TAG = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`);
const TASK_ID = TAG('task-id');
const TOOL_USE_ID = TAG('tool-use-id');
const STATUS = TAG('status');
const EXIT_CODE = /\bexit code (-?\d+)/;

/**
 * Folds a `<task-notification>` about a background shell: the job is done, and a command that
 * ended completed or failed is a finished run of it (a check among them). True when `text` was
 * such a notification.
 */
export function foldTaskNotification(
  state: SessionState,
  text: string,
  line: number,
  at: number | null,
): boolean {
  if (!text.trimStart().startsWith('<task-notification>')) return false;
  const handle = TASK_ID.exec(text)?.[1];
  const toolUseId = TOOL_USE_ID.exec(text)?.[1];
  const task = state.backgroundTasks.find(
    (t) =>
      t.kind === 'shell' &&
      ((toolUseId !== undefined && t.id === toolUseId) ||
        (handle !== undefined && t.handle === handle)),
  );
  if (!task) return true;
  task.done = true;
  const status = STATUS.exec(text)?.[1];
  if (status !== 'completed' && status !== 'failed') return true;
  const exit = EXIT_CODE.exec(text);
  const exitCode = exit ? Number(exit[1]) : status === 'completed' ? 0 : null;
  const success = status === 'completed' && exitCode === 0;
  const run = state.commands.find((c) => c.id === task.id);
  if (run) {
    run.status = success ? 'ok' : 'failed';
    run.exitCode = exitCode;
  }
  // The output is in a file of Claude Code's; the notification says only how it ended.
  foldCheck(state, run?.command ?? task.description, success, '', at, line);
  return true;
}
