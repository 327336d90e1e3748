/**
 * shim's in-session commands as Gemini CLI custom commands (0.61.0): one `.toml` file per command
 * in a `commands/` directory beside settings.json (`~/.gemini/commands/`, or a project's
 * `.gemini/commands/`), named after the file (`handoff.toml` → `/handoff`). Its `prompt` runs
 * `shim slash <name> --agent gemini {{args}}` in `!{…}` (the directory's newest Gemini session is
 * the one meant, whatever another agent wrote later): Gemini runs it through a shell (asking the
 * user first, unless the command is allowed or the session runs with --yolo), puts the output in
 * the prompt and sends it. Inside `!{…}` Gemini passes the arguments as ONE shell-quoted word (`''` when
 * none): `shim slash` splits it. docs/agents.md, "In-session commands". Pure.
 * @module
 */
import {
  IN_SESSION_COMMANDS,
  showAnswerRequest,
  type InSessionCommand,
} from '../../../core/in-session-commands.ts';
import { shimStartWords, type ShimInvocation } from './gemini-entries.ts';

export type GeminiCommandFile = { readonly name: string; readonly text: string };

/**
 * Gemini finds the end of `!{…}` by counting braces, and the prompt is a TOML literal string:
 * a start with a brace or `'''` cannot be written into it.
 */
export function commandStartProblem(invocation: ShimInvocation): string | null {
  const start = shimStartWords(invocation);
  if (/[{}]/.test(start))
    return `the path to shim (${start}) has a brace, which ends Gemini's !{…}`;
  if (start.includes("'''")) return `the path to shim (${start}) has ''', which ends the prompt`;
  return null;
}

function commandFile(command: InSessionCommand, start: string): GeminiCommandFile {
  return {
    name: `${command.name}.toml`,
    text: [
      `# shim's /${command.name} (written by \`shim install --agent gemini\`; \`shim uninstall\` removes it)`,
      `description = ${JSON.stringify(command.description)}`,
      "prompt = '''",
      `!{${start} slash ${command.name} --agent gemini {{args}}}`,
      '',
      showAnswerRequest(command),
      "'''",
      '',
    ].join('\n'),
  };
}

/** The command files for this shim; throws nothing: check `commandStartProblem` first. */
export function geminiCommandFiles(invocation: ShimInvocation): GeminiCommandFile[] {
  const start = shimStartWords(invocation);
  return IN_SESSION_COMMANDS.map((command) => commandFile(command, start));
}
