/**
 * What an iteration of `shim loop` is told: a rescued session's prompt (rescue-session.ts) with
 * the goal again, the goal to carry on with in the same session (and the note of what
 * interrupted it), or a fresh session's goal with the summary of the work so far. The words are
 * core/loop/loop-prompt.ts's.
 * @module
 */
import { composeContinuePrompt, composeFreshPrompt } from '../core/loop/loop-prompt.ts';
import type { LoopState } from './loop-state.ts';
import type { LoopOptions } from './options.ts';

export type IterationPromptInput = {
  options: Pick<LoopOptions, 'goal' | 'completionMarker' | 'testCommand'>;
  state: Pick<LoopState, 'rescue' | 'note' | 'pendingSummary'>;
  /** The iteration goes on in the run's session (not a rescue). */
  continuing: boolean;
  /** The project claude-mem remembers, asked only for a fresh session. */
  memory: () => { project: string } | null;
};

export function iterationPrompt(input: IterationPromptInput): string {
  const { options, state } = input;
  const goal = {
    goal: options.goal,
    marker: options.completionMarker,
    testCommand: options.testCommand,
  };
  if (state.rescue)
    return `${state.rescue.prompt}\n\n${composeContinuePrompt({ ...goal, note: null })}`;
  if (input.continuing) return composeContinuePrompt({ ...goal, note: state.note });
  return composeFreshPrompt({ ...goal, summary: state.pendingSummary, memory: input.memory() });
}
