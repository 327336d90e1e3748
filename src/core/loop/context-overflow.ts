/**
 * An agent's turn refused because the conversation no longer fits its model's window ("Prompt is
 * too long" in Claude Code 2.1.330; the API's 400 "prompt is too long: N tokens > M maximum").
 * Such a session cannot go on as it is: the loop rescues it (a fork at the last message that fits)
 * or starts fresh, rather than retrying it as a transient error.
 * @module
 */
const OVERFLOW_RE =
  /\bprompt is too long\b|\bcontext (?:length|window) exceeded\b|\bexceeds the context window\b|\binput is too long\b/i;

/** Pass the error output, not the agent's prose. */
export function isContextOverflowMessage(text: string): boolean {
  return typeof text === 'string' && OVERFLOW_RE.test(text.slice(0, 20_000));
}
