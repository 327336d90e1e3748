/**
 * Prompts `shim loop` sends to Claude Code: the full prompt for a fresh session (the loop
 * summary first, docs/specification.md, then the goal and the completion instructions), and a short one for
 * continuing a session that already holds the goal.
 *
 * The completion marker is how the agent says "done". It must stand on a line by itself and the
 * agent is told never to print or quote it otherwise, so mentions and promises do not end the
 * loop (frankbria/ralph-claude-code #113, #194).
 * @module
 */
import { clip } from './loop-summary.ts';

export const DEFAULT_COMPLETION_MARKER = 'SHIM_LOOP_COMPLETE';
/** Goal characters repeated in a continue prompt: the session already has the full goal. */
export const CONTINUE_GOAL_CHARS = 500;
export const SUMMARY_HEADING = '## Previous Session Context (Summarized)';

export type FreshPromptInput = {
  goal: string;
  summary: string | null;
  marker: string;
  testCommand: string | null;
  /** claude-mem is installed: the session is told to query it for recent context first. */
  memory?: { project: string } | null;
};

export type ContinuePromptInput = {
  goal: string;
  marker: string;
  testCommand: string | null;
  note: string | null;
};

const str = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** The marker as the prompt shows it: one trimmed line, the default when empty or garbage. */
function markerText(marker: unknown): string {
  const text = str(marker);
  return text === '' || /[\r\n]/.test(text) ? DEFAULT_COMPLETION_MARKER : text;
}

/** A command quoted inline: one line, backticks removed so the code span stays intact. */
function commandText(testCommand: unknown): string | null {
  const text = str(testCommand).replace(/\s+/g, ' ').replace(/`/g, "'");
  return text === '' ? null : text;
}

export function completionInstructions(marker: string, testCommand: string | null): string {
  const word = markerText(marker);
  const command = commandText(testCommand);
  const done = command
    ? `When the goal is fully achieved and \`${command}\` passes (run it yourself to check)`
    : 'When the goal is fully achieved';
  return [
    '## When you are done',
    `${done}, end your reply with this line, alone on its line:`,
    '',
    word,
    '',
    `Print it only then. Not for partial progress, not when blocked, not to say you will print it later, and never quote or mention it in a sentence: the loop reads that line as the signal to stop. If the goal is not done yet, simply stop when you have made what progress you can; the loop will continue.`,
  ].join('\n');
}

export function composeFreshPrompt(input: FreshPromptInput): string {
  const goal = str(input?.goal) || '(no goal given)';
  const summary = str(input?.summary);
  const parts: string[] = [];
  if (summary !== '') {
    parts.push(
      `${SUMMARY_HEADING}\n${summary}\n\nThis is a fresh session started by \`shim loop\` to continue earlier work. Check the files and \`git status\` to see what is already done; carry on from there rather than starting over.`,
    );
  }
  parts.push(`## Goal\n${goal}`);
  const project = str(input?.memory?.project).replace(/[`\r\n]/g, '');
  if (project !== '')
    parts.push(
      `## Recent context in claude-mem\nclaude-mem keeps observations from earlier sessions of \`${project}\`, among them shim's checkpoints ("Context Checkpoint …"). Before you start, search it for the goal's key terms (its \`search\` tool, or \`/mem search\`) and for "Context Checkpoint", and use what it already knows rather than rediscovering it.`,
    );
  parts.push(
    '## How to work\nYou are running unattended: nobody will answer questions. Make reasonable decisions, note them as you go, and keep working toward the goal.',
  );
  parts.push(completionInstructions(input?.marker, input?.testCommand ?? null));
  return parts.join('\n\n');
}

export function composeContinuePrompt(input: ContinuePromptInput): string {
  const goal = str(input?.goal).replace(/\s+/g, ' ');
  const reminder =
    goal === ''
      ? 'Continue working on the goal of this session.'
      : `Continue working on the goal of this session. As a reminder, the goal is: ${clip(goal, CONTINUE_GOAL_CHARS)}`;
  const note = str(input?.note);
  const parts = [reminder];
  if (note !== '') parts.push(note);
  parts.push(completionInstructions(input?.marker, input?.testCommand ?? null));
  return parts.join('\n\n');
}
