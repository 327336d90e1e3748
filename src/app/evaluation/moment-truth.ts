/**
 * The moment a session was interrupted, as its log says it — the truth a restore's "where you
 * were" part is scored against (issue 40's definitions): the last shell command of the main
 * chain, the last distinct commands, the newest tool result marked as an error (a user's
 * rejection or interruption is not one).
 *
 * Read from the entries each agent's reader parsed (before its fold) by the agent's own
 * `MomentReader` (src/agents/<agent>/moments.ts), on purpose apart from the fold: a fold that
 * dropped a command would otherwise be graded against itself.
 * @module
 */
import type { MomentNotes, MomentReader } from '../../agents/agent.ts';

export type MomentTruth = {
  /** Every shell command of the main chain, oldest first (issued, whether or not it finished). */
  commands: string[];
  /** The newest tool result marked as an error, its text as the agent shows the output. */
  newestFailure: string | null;
  /** The field names of the tool inputs seen (a restore echoing a raw input shows them quoted). */
  inputKeys: string[];
};

/** Follows one session's entries, in order, and says what the moment was after each. */
export class MomentTracker {
  private readonly commands: string[] = [];
  private readonly seen = new Set<string>();
  private readonly results = new Set<string>();
  private failure: string | null = null;
  private readonly keys = new Set<string>();
  private readonly notes: MomentNotes = {
    input: (input) => {
      for (const key of Object.keys(input)) if (/^\w{2,40}$/.test(key)) this.keys.add(key);
    },
    call: (id, command) => {
      if (this.seen.has(id)) return;
      this.seen.add(id);
      if (command !== null && command.trim() !== '') this.commands.push(command);
    },
    result: (id, failed, text) => {
      if (this.results.has(id)) return;
      this.results.add(id);
      if (failed) this.failure = text;
    },
  };

  private readonly reader: MomentReader;

  /** `reader`: the session's agent's (its adapter's `moments`). */
  constructor(reader: MomentReader) {
    this.reader = reader;
  }

  /** One entry as the agent's reader parsed it. */
  see(entry: unknown): void {
    this.reader.see(entry, this.notes);
  }

  truth(): MomentTruth {
    return { commands: [...this.commands], newestFailure: this.failure, inputKeys: [...this.keys] };
  }
}

export const MOMENT_PARTS = [
  'lastCommand',
  'lastCommands',
  'newestFailure',
  'requestsWhole',
] as const;
export type MomentPart = (typeof MOMENT_PARTS)[number];
export type MomentScores = Record<MomentPart, { found: number; total: number; missing: string[] }>;

/** Whitespace collapsed to single spaces: how every part is compared. */
const fold = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Requests longer than this are not scored whole (their head and tail are). */
export const WHOLE_REQUEST_CHARS = 1_500;

/**
 * The items of each part, by the definitions: the last command by its first 50 characters; the
 * last 5 distinct commands by their first 40; the newest failure by its first 50; every
 * request of at most 1,500 characters whole.
 */
export function momentItems(
  truth: MomentTruth,
  requests: readonly string[],
): Record<MomentPart, string[]> {
  const distinct: string[] = [];
  for (let i = truth.commands.length - 1; i >= 0 && distinct.length < 5; i--) {
    const c = fold(truth.commands[i]!);
    if (c !== '' && !distinct.includes(c)) distinct.push(c);
  }
  const last = truth.commands.length > 0 ? fold(truth.commands[truth.commands.length - 1]!) : '';
  const failure = truth.newestFailure === null ? '' : fold(truth.newestFailure);
  return {
    lastCommand: last === '' ? [] : [last.slice(0, 50)],
    lastCommands: distinct.reverse().map((c) => c.slice(0, 40)),
    newestFailure: failure === '' ? [] : [failure.slice(0, 50)],
    requestsWhole: requests
      .filter((r) => r.length <= WHOLE_REQUEST_CHARS)
      .map(fold)
      .filter((r) => r !== ''),
  };
}

/** found / total of each moment part in `text` (whitespace collapsed). */
export function scoreMoment(text: string, items: Record<MomentPart, string[]>): MomentScores {
  const haystack = fold(text);
  const scores = {} as MomentScores;
  for (const part of MOMENT_PARTS) {
    const missing = items[part].filter((needle) => !haystack.includes(needle));
    scores[part] = {
      found: items[part].length - missing.length,
      total: items[part].length,
      missing,
    };
  }
  return scores;
}

/**
 * Whether `text` echoes a tool's raw JSON input: an object opening on one of the session's input
 * field names, quoted as JSON (`{"file_path":`) or JSON-escaped inside JSON (`{\"command\":`).
 * A restore shows a call by its tool and target, a command verbatim, never its input as JSON.
 */
export function echoesRawToolJson(text: string, inputKeys: readonly string[]): boolean {
  if (inputKeys.length === 0) return false;
  const keys = inputKeys.join('|');
  return new RegExp(`\\{\\s*\\\\?"(?:${keys})\\\\?"\\s*:`).test(text);
}
