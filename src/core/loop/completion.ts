/**
 * Did the agent declare the loop's goal done? Only a completion marker standing on a line by
 * itself counts, so that a sentence mentioning the marker ("I will print SHIM_LOOP_COMPLETE
 * when the tests pass"), a struck-through or negated one, or a quote of a larger snippet does
 * not stop the loop early (frankbria/ralph-claude-code #113, #194).
 *
 * Allowed around the marker on its line: whitespace, markdown emphasis (`*`, `_`), backticks,
 * and `<promise>…</promise>` (the official ralph-wiggum plugin's form). A fenced code block
 * holding only the marker counts too; a marker line inside a block with other content, in a
 * blockquote, or right after a line such as "I will not print:" does not.
 * @module
 */

const NEGATION =
  /\b(?:not|never|no longer|won't|cannot|can't|don't|doesn't|shouldn't|mustn't|isn't|aren't|haven't|without|instead of|rather than)\b|n't\b/i;

/** The line with whitespace, emphasis, backticks and `<promise>` tags peeled off. */
function core(line: string): string {
  let text = line.trim();
  for (let pass = 0; pass < 4; pass++) {
    const before = text;
    text = text.replace(/^[*_`]+/, '').replace(/[*_`]+$/, '');
    const promise = /^<promise>\s*([\s\S]*?)\s*<\/promise>$/i.exec(text);
    if (promise) text = promise[1] ?? '';
    text = text.trim();
    if (text === before) break;
  }
  return text;
}

const lastSentence = (line: string): string => line.split(/[.!?]\s+/).pop() ?? '';

const isFence = (line: string): boolean => /^\s*(?:```|~~~)/.test(line);

/** Last non-blank line before `index`, outside fences; '' when none. */
function previousLine(lines: readonly string[], index: number): string {
  for (let i = index - 1; i >= 0; i--) {
    const line = lines[i] ?? '';
    if (line.trim() !== '' && !isFence(line)) return line.trim();
  }
  return '';
}

export function hasCompletionMarker(text: string, marker: string): boolean {
  if (typeof text !== 'string' || typeof marker !== 'string') return false;
  const word = core(marker);
  if (word === '' || !text.includes(word)) return false;
  const lines = text.split(/\r\n|\r|\n/);
  let fenceStart = -1; // index of the opening fence line while inside a block
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (isFence(line)) {
      fenceStart = fenceStart < 0 ? i : -1;
      continue;
    }
    if (!line.includes(word) || core(line) !== word) continue;
    if (/^\s*>/.test(line)) continue; // a blockquote quotes, it does not claim
    if (fenceStart >= 0 && !aloneInFence(lines, fenceStart, i)) continue;
    const before = previousLine(lines, i);
    if (/:\s*$/.test(before) && NEGATION.test(lastSentence(before))) continue;
    return true;
  }
  return false;
}

/** True when the block opened at `start` holds nothing but the line at `at` (and blanks). */
function aloneInFence(lines: readonly string[], start: number, at: number): boolean {
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (isFence(line)) return true;
    if (i !== at && line.trim() !== '') return false;
  }
  return true; // an unclosed block: the marker was the last thing said
}
