/**
 * shim's in-session commands (seed 004 `/checkpoint`, `/shard`, `/handoff`, `/ralph` as
 * `/loop [checkpoint]`, issue 43's `/defer`), as every agent that can run a program from a slash
 * command gets them: each runs `shim slash <name> <arguments>` and asks the model to show the
 * answer. The agents write them in their own formats (Claude Code: markdown command files;
 * Gemini CLI: `.toml` custom commands). Pure data.
 * @module
 */

export type InSessionCommand = {
  readonly name: string;
  /** One line for the agent's command menu. */
  readonly description: string;
  /** The arguments it takes, as the menu shows them ('' for none). */
  readonly hint: string;
  /** What shim's answer is, for the words that ask the model to show it. */
  readonly what: string;
};

export const IN_SESSION_COMMANDS: readonly InSessionCommand[] = [
  {
    name: 'checkpoint',
    description:
      'Save a checkpoint of this session now (shim); --status: where the context stands; --estimate [task or plan.md]: will it fit?',
    hint: '[--status | --estimate [task or plan.md]]',
    what: 'a checkpoint, the status or an estimate',
  },
  {
    name: 'defer',
    description:
      'Just one more task: hold the L1/L2 context notices back until the task in progress is done (shim); --off: back on',
    hint: '[--off]',
    what: 'what is held back and until when',
  },
  {
    name: 'handoff',
    description:
      'Write a handoff now: a checkpoint of this session, and the document the next session here picks up (shim)',
    hint: '',
    what: 'the checkpoint and where the handoff was written',
  },
  {
    name: 'loop',
    description:
      "Inside a shim loop: the run's iteration, context and restarts; checkpoint: save this iteration's state now (shim)",
    hint: '[checkpoint]',
    what: "the loop run's status, or the checkpoint saved",
  },
  {
    name: 'shard',
    description: 'Split a plan too big for one session into shards that each fit (shim)',
    hint: '<plan.md> [--dry-run]',
    what: 'how the plan splits, and the shard files',
  },
];

/** The words after shim's answer: the model shows it and starts nothing else. */
export function showAnswerRequest(command: InSessionCommand): string {
  return [
    `Above is shim's answer (${command.what}). Show it to the user as it is, in a few lines, and`,
    'then wait for their next request: do not start other work.',
  ].join('\n');
}
