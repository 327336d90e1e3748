/**
 * shim's slash commands for Claude Code (issue 15; seed 004 `/checkpoint`, `/shard`, `/handoff`,
 * `/ralph context|checkpoint` as `/loop [checkpoint]`, issue 43's `/defer`): markdown
 * command files whose ```! block runs shim with the user's arguments — Claude Code puts the
 * output into the request, and the model presents it. Shipped in the plugin (`commands/`) and in
 * the plugin `shim install` sets up for the mod. Pure: the files' text for a way to start shim.
 * @module
 */

export type SlashCommandFile = { name: string; text: string };

/**
 * The files for `start`, the shell words that start shim (`"/usr/bin/node" "/opt/shim/bin/shim.cjs"`,
 * or `node "${CLAUDE_PLUGIN_ROOT}/bin/shim.cjs"` in the plugin).
 */
export function slashCommandFiles(start: string): SlashCommandFile[] {
  const file = (name: string, description: string, hint: string, what: string) => ({
    name: `${name}.md`,
    text: [
      '---',
      `description: ${JSON.stringify(description)}`,
      `argument-hint: ${JSON.stringify(hint)}`,
      'allowed-tools: ["Bash(node:*)"]',
      '---',
      '',
      '```!',
      `${start} slash ${name} $ARGUMENTS`,
      '```',
      '',
      `Above is shim's answer (${what}). Show it to the user as it is, in a few lines, and`,
      'then wait for their next request: do not start other work.',
      '',
    ].join('\n'),
  });
  return [
    file(
      'checkpoint',
      'Save a checkpoint of this session now (shim); --status: where the context stands; --estimate [task or plan.md]: will it fit?',
      '[--status | --estimate [task or plan.md]]',
      'a checkpoint, the status or an estimate',
    ),
    file(
      'defer',
      'Just one more task: hold the L1/L2 context notices back until the task in progress is done (shim); --off: back on',
      '[--off]',
      'what is held back and until when',
    ),
    file(
      'handoff',
      'Write a handoff now: a checkpoint of this session, and the document the next session here picks up (shim)',
      '',
      'the checkpoint and where the handoff was written',
    ),
    file(
      'loop',
      "Inside a shim loop: the run's iteration, context and restarts; checkpoint: save this iteration's state now (shim)",
      '[checkpoint]',
      "the loop run's status, or the checkpoint saved",
    ),
    file(
      'shard',
      'Split a plan too big for one session into shards that each fit (shim)',
      '<plan.md> [--dry-run]',
      'how the plan splits, and the shard files',
    ),
  ];
}
