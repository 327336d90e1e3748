/**
 * Gemini CLI (0.61.0) escapes every hook's `additionalContext` before the model sees it: `<`
 * becomes `&lt;` and `>` becomes `&gt;` (`&` is left alone), so a restore's diff, a command with
 * a redirection or code with a comparison would reach the model altered. BeforeModel is the one
 * event whose answer the CLI does not escape: a hook may hand back the request's text messages
 * (`llm_request.messages`, laid over the request's contents in order, text parts only; contents
 * past the last message handed back are sent as they are). So shim's BeforeModel hook gives back
 * the `<` and `>` of the `<hook_context>` blocks that hold shim's own restore, and hands back the
 * messages only up to the last one it changed; a request without such a block gets no answer.
 * (An `&gt;` shim's own text held cannot be told from one the CLI made: it comes back as `>`.)
 * docs/agents.md, "Gemini CLI".
 * @module
 */

/** The text messages of a BeforeModel payload's `llm_request`. */
export type GeminiRequestMessage = { role: string; content: string };

/** The CLI's marker on every request that holds a hook's context, escaped or not. */
const BLOCK = /<hook_context>([\s\S]*?)<\/hook_context>/g;

/** A block is shim's when it holds a restore's heading or a handoff's (core/resume/). */
const SHIM_HEADING = /^# .*\(shim checkpoint #\d+\)$|^# Session handoff: /m;

/** What the CLI escaped; the block's own tags stay escaped, so a block cannot close early. */
const ESCAPED = /&lt;(?!\/?hook_context&gt;)|(?<!&lt;\/?hook_context)&gt;/g;

/** The quick test before any parsing: a request carrying no restore of shim's is left alone. */
export function mayHoldShimBlock(input: string): boolean {
  return (
    (input.includes('(shim checkpoint #') || input.includes('# Session handoff: ')) &&
    (input.includes('&lt;') || input.includes('&gt;'))
  );
}

function unescapeBlocks(content: string): string {
  return content.replace(BLOCK, (whole: string, inner: string) =>
    SHIM_HEADING.test(inner)
      ? `<hook_context>${inner.replace(ESCAPED, (m) => (m === '&lt;' ? '<' : '>'))}</hook_context>`
      : whole,
  );
}

/**
 * The messages to hand back: each as it was, shim's blocks unescaped, up to the last one that
 * changed; null when none did (the hook then says nothing).
 */
export function unescapeShimBlocks(
  messages: readonly GeminiRequestMessage[],
): GeminiRequestMessage[] | null {
  let last = -1;
  const out = messages.map((message, i) => {
    const content = unescapeBlocks(message.content);
    if (content !== message.content) last = i;
    return content === message.content ? message : { ...message, content };
  });
  return last < 0 ? null : out.slice(0, last + 1);
}

/**
 * BeforeModel's answer for a payload (stdin as Gemini sent it): the JSON line to print, or ''
 * when there is nothing to give back or the payload is not what 0.61.0 sends.
 */
export function renderBeforeModelAnswer(input: string): string {
  if (!mayHoldShimBlock(input)) return '';
  let payload: unknown;
  try {
    payload = JSON.parse(input);
  } catch {
    return '';
  }
  const request = (payload as { llm_request?: { messages?: unknown } } | null)?.llm_request;
  const messages = request?.messages;
  if (
    !Array.isArray(messages) ||
    !messages.every(
      (m): m is GeminiRequestMessage =>
        typeof m === 'object' &&
        m !== null &&
        typeof (m as GeminiRequestMessage).role === 'string' &&
        typeof (m as GeminiRequestMessage).content === 'string',
    )
  )
    return '';
  const changed = unescapeShimBlocks(messages);
  if (changed === null) return '';
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: 'BeforeModel', llm_request: { messages: changed } },
  });
}
