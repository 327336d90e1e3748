/**
 * What shim.log keeps of a refused command line: the command and the names of the options given,
 * never the arguments or the options' values — those are the user's own words (a search, a
 * reason, a path, a token pasted by mistake), and the one-line error already told them what was
 * refused. The words typed are handed back too, to be taken out of a message that quotes them
 * (core/typed-words.ts).
 * @module
 */

/** What this reads of a command (commander's Command has it; a plain object can too). */
export type CommandShape = {
  name(): string;
  aliases(): string[];
  readonly commands: readonly CommandShape[];
  readonly options: readonly OptionShape[];
};

type OptionShape = {
  readonly long?: string | undefined;
  readonly short?: string | undefined;
  /** Takes a value: always (`<value>`), or when one follows (`[value]`). */
  readonly required: boolean;
  readonly optional: boolean;
  /** The values it takes, when they are shim's words (`--agent claude`). */
  readonly argChoices?: readonly string[] | undefined;
};

export type CommandLine = {
  /** The (sub)command run, `team connect`; empty when not known. */
  command: string;
  /** The options given, by name (`--reason`); one with a fixed set of values, `--agent=codex`. */
  options: string[];
  /** How many arguments followed. */
  args: number;
  /** The words the user typed: arguments and option values (never logged). */
  typed: string[];
};

function findOption(path: readonly CommandShape[], flag: string): OptionShape | undefined {
  for (let i = path.length - 1; i >= 0; i--) {
    const option = path[i]!.options.find((o) => o.long === flag || o.short === flag);
    if (option) return option;
  }
  return undefined;
}

/** Reads `argv` (after `shim`) against the command tree under `root`. */
export function readCommandLine(argv: readonly string[], root: CommandShape): CommandLine {
  const path = [root];
  const line: CommandLine = { command: '', options: [], args: 0, typed: [] };
  const names: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--') {
      line.args += argv.length - i - 1;
      line.typed.push(...argv.slice(i + 1));
      break;
    }
    if (token.length > 1 && token.startsWith('-')) {
      const equals = token.indexOf('=');
      const flag = equals === -1 ? token : token.slice(0, equals);
      const option = findOption(path, flag);
      const next = argv[i + 1];
      const takesNext =
        option !== undefined &&
        equals === -1 &&
        next !== undefined &&
        (option.required || (option.optional && !next.startsWith('-')));
      const value = equals !== -1 ? token.slice(equals + 1) : takesNext ? argv[++i]! : null;
      // An option the tree does not know is named as typed only when it looks like one.
      const name = option
        ? (option.long ?? option.short ?? flag)
        : /^--?[a-z][a-z-]*$/.test(flag)
          ? flag
          : '(unknown option)';
      if (value !== null && option?.argChoices?.includes(value))
        line.options.push(`${name}=${value}`);
      else {
        line.options.push(name);
        if (value !== null) line.typed.push(value);
      }
      continue;
    }
    const command = path[path.length - 1]!;
    const sub =
      line.args === 0
        ? command.commands.find((c) => c.name() === token || c.aliases().includes(token))
        : undefined;
    if (sub) {
      path.push(sub);
      names.push(sub.name());
      continue;
    }
    line.args++;
    line.typed.push(token);
  }
  line.command = names.join(' ');
  return line;
}

/**
 * `argv` read with no command tree (the fast path of `shim status`): `command` as given, the
 * options by the names typed; every other word counts as typed.
 */
export function readPlainCommandLine(command: string, argv: readonly string[]): CommandLine {
  const bare = { name: () => command, aliases: () => [], commands: [], options: [] };
  return { ...readCommandLine(argv, bare), command };
}
