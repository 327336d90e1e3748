/**
 * ANSI colours for human-facing output, with picocolors' rule for when (NO_COLOR or --no-color
 * off; FORCE_COLOR, --color, Windows, CI or a terminal that is not "dumb" on) and its codes,
 * nesting included. Not picocolors itself: it asks `process.stdout.isTTY` when it is loaded,
 * which makes Node's stdout stream — node:net and node:stream for a pipe, ~15% of a
 * `shim status` read by `watch` or a script (docs/hot-path.md). Here the terminal question goes
 * to the descriptor first (cli/stdout.ts).
 * @module
 */
import { stdoutIsTerminal } from '../stdout.ts';

export type Colors = Record<
  'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'magenta',
  (text: string) => string
>;

/** Whether output is coloured, by picocolors' rule. */
export function colorsWanted(
  env: NodeJS.ProcessEnv,
  argv: readonly string[],
  isTerminal: () => boolean,
  platform: string,
): boolean {
  if (env.NO_COLOR || argv.includes('--no-color')) return false;
  return (
    !!env.FORCE_COLOR ||
    argv.includes('--color') ||
    platform === 'win32' ||
    (isTerminal() && env.TERM !== 'dumb') ||
    !!env.CI
  );
}

/**
 * Wraps text in `open`…`close`; a `close` already inside (a nested colour of the same kind)
 * becomes `reopen`, so the outer colour carries on past it.
 */
function style(open: string, close: string, reopen = open): (text: string) => string {
  return (text) => {
    let index = text.indexOf(close, open.length);
    if (index < 0) return open + text + close;
    let result = '';
    let cursor = 0;
    do {
      result += text.slice(cursor, index) + reopen;
      cursor = index + close.length;
      index = text.indexOf(close, cursor);
    } while (index >= 0);
    return open + result + text.slice(cursor) + close;
  };
}

const plain = (text: string) => text;

export function createColors(enabled: boolean): Colors {
  if (!enabled)
    return { bold: plain, dim: plain, red: plain, green: plain, yellow: plain, magenta: plain };
  return {
    bold: style('\x1b[1m', '\x1b[22m', '\x1b[22m\x1b[1m'),
    dim: style('\x1b[2m', '\x1b[22m', '\x1b[22m\x1b[2m'),
    red: style('\x1b[31m', '\x1b[39m'),
    green: style('\x1b[32m', '\x1b[39m'),
    yellow: style('\x1b[33m', '\x1b[39m'),
    magenta: style('\x1b[35m', '\x1b[39m'),
  };
}

/** The colours of this process's output. */
export const colors: Colors = createColors(
  colorsWanted(process.env, process.argv, stdoutIsTerminal, process.platform),
);
