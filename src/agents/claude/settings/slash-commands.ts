/**
 * shim's slash commands for Claude Code (issue 15; seed 004 `/checkpoint`, `/shard`, `/handoff`,
 * `/ralph context|checkpoint` as `/loop [checkpoint]`, issue 43's `/defer`): markdown
 * command files whose ```! block runs shim with the user's arguments — Claude Code puts the
 * output into the request, and the model presents it. Shipped in the plugin (`commands/`) and in
 * the plugin `shim install` sets up for the mod. Pure: the files' text for a way to start shim.
 * The commands themselves: core/in-session-commands.ts (Gemini CLI gets the same ones).
 * @module
 */
import { IN_SESSION_COMMANDS, showAnswerRequest } from '../../../core/in-session-commands.ts';

export type SlashCommandFile = { name: string; text: string };

/**
 * The files for `start`, the shell words that start shim (`"/usr/bin/node" "/opt/shim/bin/shim.cjs"`,
 * or `node "${CLAUDE_PLUGIN_ROOT}/bin/shim.cjs"` in the plugin).
 */
export function slashCommandFiles(start: string): SlashCommandFile[] {
  return IN_SESSION_COMMANDS.map((command) => ({
    name: `${command.name}.md`,
    text: [
      '---',
      `description: ${JSON.stringify(command.description)}`,
      `argument-hint: ${JSON.stringify(command.hint)}`,
      'allowed-tools: ["Bash(node:*)"]',
      '---',
      '',
      '```!',
      `${start} slash ${command.name} --agent claude $ARGUMENTS`,
      '```',
      '',
      showAnswerRequest(command),
      '',
    ].join('\n'),
  }));
}
