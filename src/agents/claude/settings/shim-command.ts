/**
 * The command lines shim writes into Claude Code's settings, and how to recognise them again.
 *
 * A hook is `<node> <abs path of dist/shim.js> hook <Event>`; the statusline is
 * `<node> <bin> statusline`, or `… statusline --wrap <base64 of the user's own command>` when
 * there was one. Node is called directly (never npx: 300+ ms per call). Claude Code runs these
 * with `sh -c`, so paths with spaces or shell characters are double-quoted.
 *
 * Recognition does not rely on a marker field: a command is shim's when one of its words is a
 * file named `shim.js` (or `shim`) and the next word is `hook` or `statusline`.
 * @module
 */

/** How to start shim: the Node binary and the bundle it runs. */
export type ShimInvocation = { readonly node: string; readonly bin: string };

export type ParsedShimCommand =
  | { kind: 'hook'; launcher: string[]; bin: string; event: string | null }
  | { kind: 'statusline'; launcher: string[]; bin: string; wrapped: string | null };

const SAFE_WORD = /^[A-Za-z0-9_\-.,/:@%+=]+$/;

/** One word for `sh -c`: as is when it is plain, otherwise double-quoted. */
export function quoteForShell(word: string): string {
  if (SAFE_WORD.test(word)) return word;
  return `"${word.replace(/(["\\$`])/g, '\\$1')}"`;
}

function prefix(invocation: ShimInvocation): string {
  return `${quoteForShell(invocation.node)} ${quoteForShell(invocation.bin)}`;
}

export function hookCommand(invocation: ShimInvocation, event: string): string {
  return `${prefix(invocation)} hook ${event}`;
}

/**
 * The statusline command; with `wrapped`, shim also runs the user's own command and shows both.
 * The user's command is kept readable in the settings file (`--wrap-command '<command>'`);
 * older installs wrote it base64-encoded (`--wrap <base64>`), which is still understood.
 */
export function statusLineCommand(invocation: ShimInvocation, wrapped?: string): string {
  const base = `${prefix(invocation)} statusline`;
  return wrapped === undefined ? base : `${base} --wrap-command ${quoteSingle(wrapped)}`;
}

/** A single-quoted shell word: everything literal, `'` written as `'\''`. */
function quoteSingle(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * Splits a command the way `sh` would for plain words: single quotes, double quotes (with `\`
 * escapes) and backslashes. Returns null for anything it cannot follow (an unclosed quote).
 */
export function splitShellWords(command: string): string[] | null {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) return null;
      word += command.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      inWord = true;
      let j = i + 1;
      for (; j < command.length && command[j] !== '"'; j++) {
        if (command[j] === '\\' && j + 1 < command.length && '"\\$`'.includes(command[j + 1]!)) {
          j++;
        }
        word += command[j];
      }
      if (j >= command.length) return null;
      i = j;
    } else if (c === '\\' && i + 1 < command.length) {
      word += command[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

function decodeBase64(text: string): string | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
  return Buffer.from(text, 'base64').toString('utf8');
}

/** What a command is, if it is one of shim's; null for anybody else's. */
export function parseShimCommand(command: string): ParsedShimCommand | null {
  const words = splitShellWords(command);
  if (!words) return null;
  for (let i = 0; i + 1 < words.length; i++) {
    const name = baseName(words[i]!);
    if (name !== 'shim.cjs' && name !== 'shim.js' && name !== 'shim') continue;
    const verb = words[i + 1];
    const launcher = words.slice(0, i);
    if (verb === 'hook') {
      return { kind: 'hook', launcher, bin: words[i]!, event: words[i + 2] ?? null };
    }
    if (verb === 'statusline') {
      const plainIndex = words.indexOf('--wrap-command', i + 2);
      const wrapIndex = words.indexOf('--wrap', i + 2);
      const plain = plainIndex >= 0 ? words[plainIndex + 1] : undefined;
      const encoded = wrapIndex >= 0 ? words[wrapIndex + 1] : undefined;
      return {
        kind: 'statusline',
        launcher,
        bin: words[i]!,
        wrapped: plain ?? (encoded === undefined ? null : decodeBase64(encoded)),
      };
    }
  }
  return null;
}

/** True for a hook handler object (`{type:"command", command:"… shim.js hook …"}`) of shim's. */
export function isShimHookHandler(handler: unknown): boolean {
  if (typeof handler !== 'object' || handler === null || Array.isArray(handler)) return false;
  const command = (handler as { command?: unknown }).command;
  return typeof command === 'string' && parseShimCommand(command)?.kind === 'hook';
}
