/**
 * dist/gemini-before-model.cjs — runs before EVERY model request of Gemini CLI
 * (`shim gemini-hook BeforeModel`): gives back the `<` and `>` the CLI escaped in shim's restore
 * (agents/gemini/request-unescape.ts). A request that holds no restore of shim's is answered with
 * nothing after one look at its text, before any parsing. Pure string work: no store, no config,
 * no redactor, no log (its input is the CLI's own request, not the user's), so it stays a few KB
 * loaded through the code cache; exit 0 always, nothing on stdout but the answer.
 * @module
 */
import { readStdin } from '../capture/stdin.ts';
import { writeStdout } from '../capture/stdout.ts';
import { renderBeforeModelAnswer } from '../agents/gemini/request-unescape.ts';

export async function main(): Promise<void> {
  try {
    const answer = renderBeforeModelAnswer(await readStdin());
    if (answer) writeStdout(`${answer}\n`);
  } catch {
    // A request shim cannot read goes to the model as the CLI made it.
  }
  process.exitCode = 0;
}
