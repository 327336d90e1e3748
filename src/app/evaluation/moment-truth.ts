/**
 * The moment a session was interrupted, as its log says it — the truth a restore's "where you
 * were" part is scored against (issue 40's definitions): the last shell command of the main
 * chain, the last distinct commands, the newest tool result marked as an error (a user's
 * rejection or interruption is not one).
 *
 * Read from the entries each agent's reader parsed (before its fold), by their shapes, and on
 * purpose apart from the fold: a fold that dropped a command would otherwise be graded against
 * itself. Shapes: docs/agents.md (Codex rollouts, Gemini chats) and docs/claude-code.md.
 * @module
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Claude Code's words when the user turned a call down or stopped it: not a failure. */
const CLAUDE_USER_STOP =
  /^(?:The user doesn't want to (?:proceed|take this action)|\[Request interrupted by user|User rejected)/;
/** Codex's output of a call the user stopped. */
const CODEX_USER_STOP = /^(?:aborted|interrupted)\b/i;
/** Codex's own words for a call that failed without an exit status (a sandbox denial). */
const CODEX_FAILED = /^(?:error|failed)\b/i;

const CODEX_SHELLS = new Set(['exec_command', 'shell', 'shell_command', 'local_shell_call']);
const GEMINI_SHELL = 'run_shell_command';

export type MomentTruth = {
  /** Every shell command of the main chain, oldest first (issued, whether or not it finished). */
  commands: string[];
  /** The newest tool result marked as an error, its text as the agent shows the output. */
  newestFailure: string | null;
  /** The field names of the tool inputs seen (a restore echoing a raw input shows them quoted). */
  inputKeys: string[];
};

/** A Codex shell call's command line, from any of its shapes. */
function codexCommand(args: Obj): string | null {
  if (typeof args.cmd === 'string') return args.cmd;
  if (typeof args.command === 'string') return args.command;
  if (Array.isArray(args.command)) {
    const parts = args.command.filter((p): p is string => typeof p === 'string');
    if (parts.length === 3 && /sh$/.test(parts[0] ?? '') && /^-l?c$/.test(parts[1] ?? ''))
      return parts[2]!;
    return parts.join(' ');
  }
  return null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * A Codex tool output as its body and exit code: `{"output","metadata":{"exit_code"}}` (≤0.57),
 * or a header of `Exit code:` / `Process exited with code` lines above `Output:` (later).
 */
export function readCodexOutput(output: unknown): { body: string; exitCode: number | null } {
  let text = '';
  if (typeof output === 'string') text = output;
  else if (Array.isArray(output))
    text = output.map((p) => (isObj(p) && typeof p.text === 'string' ? p.text : '')).join('\n');
  else if (isObj(output) && typeof output.content === 'string') text = output.content;
  const json = text.startsWith('{') ? parseJson(text) : null;
  if (isObj(json) && typeof json.output === 'string') {
    const meta = isObj(json.metadata) ? json.metadata : {};
    return {
      body: json.output,
      exitCode: typeof meta.exit_code === 'number' ? meta.exit_code : null,
    };
  }
  const at = text.indexOf('Output:\n');
  const header = at >= 0 ? text.slice(0, at) : text.slice(0, 300);
  const exit = /(?:Process exited with code|Exit code:)\s*(-?\d+)/.exec(header);
  return {
    body: at >= 0 && exit ? text.slice(at + 'Output:\n'.length) : text,
    exitCode: exit ? Number(exit[1]) : null,
  };
}

/** Follows one session's entries, in order, and says what the moment was after each. */
export class MomentTracker {
  private readonly commands: string[] = [];
  private readonly seen = new Set<string>();
  private readonly results = new Set<string>();
  private failure: string | null = null;
  private readonly keys = new Set<string>();

  private input(input: Obj): void {
    for (const key of Object.keys(input)) if (/^\w{2,40}$/.test(key)) this.keys.add(key);
  }

  private command(id: string, command: string | null): void {
    if (this.seen.has(id)) return;
    this.seen.add(id);
    if (command !== null && command.trim() !== '') this.commands.push(command);
  }

  private result(id: string, failed: boolean, text: string): void {
    if (this.results.has(id)) return;
    this.results.add(id);
    if (failed) this.failure = text;
  }

  /** One entry as the agent's reader parsed it (Claude Code, Codex or Gemini shapes). */
  see(entry: unknown): void {
    if (!isObj(entry)) return;
    if (entry.kind === 'assistant' && entry.sidechain !== true && Array.isArray(entry.toolUses)) {
      for (const use of entry.toolUses) {
        if (!isObj(use) || typeof use.id !== 'string') continue;
        const input = isObj(use.input) ? use.input : {};
        this.input(input);
        this.command(use.id, use.name === 'Bash' ? str(input.command) : null);
      }
    } else if (
      entry.kind === 'user' &&
      entry.sidechain !== true &&
      Array.isArray(entry.toolResults)
    ) {
      for (const r of entry.toolResults) {
        if (!isObj(r) || typeof r.toolUseId !== 'string') continue;
        const text = str(r.text) ?? '';
        this.result(r.toolUseId, r.isError === true && !CLAUDE_USER_STOP.test(text.trim()), text);
      }
    } else if (entry.type === 'response_item' && isObj(entry.payload)) {
      this.seeCodex(entry.payload);
    } else if (entry.kind === 'message' && entry.type === 'gemini') {
      this.seeGemini(entry.toolCalls);
    } else if (entry.kind === 'set' && Array.isArray(entry.messages)) {
      for (const m of entry.messages)
        if (isObj(m) && m.type === 'gemini') this.seeGemini(m.toolCalls);
    }
  }

  private seeCodex(p: Obj): void {
    const id = str(p.call_id) ?? str(p.id);
    if (id === null) return;
    if (p.type === 'function_call' || p.type === 'local_shell_call') {
      const name = str(p.name) ?? (p.type === 'local_shell_call' ? 'local_shell_call' : '');
      const raw = p.type === 'local_shell_call' ? p.action : p.arguments;
      const args = isObj(raw) ? raw : typeof raw === 'string' ? parseJson(raw) : null;
      if (isObj(args)) this.input(args);
      this.command(id, CODEX_SHELLS.has(name) && isObj(args) ? codexCommand(args) : null);
    } else if (p.type === 'custom_tool_call') {
      this.command(id, null);
    } else if (p.type === 'function_call_output' || p.type === 'custom_tool_call_output') {
      const { body, exitCode } = readCodexOutput(p.output);
      const failed = exitCode !== null ? exitCode !== 0 : CODEX_FAILED.test(body.trim());
      const stopped = exitCode === null && CODEX_USER_STOP.test(body.trim());
      this.result(id, failed && !stopped, body);
    }
  }

  private seeGemini(calls: unknown): void {
    if (!Array.isArray(calls)) return;
    for (const call of calls) {
      if (!isObj(call) || typeof call.id !== 'string') continue;
      const args = isObj(call.args) ? call.args : {};
      this.input(args);
      this.command(call.id, call.name === GEMINI_SHELL ? str(args.command) : null);
      // `cancelled` is the user stopping it; a call still waiting has no status.
      if (call.status !== 'success' && call.status !== 'error') continue;
      const text = str(call.resultText) ?? '';
      // A command that exited non-zero is marked `success` by Gemini CLI; its exit code says.
      const exit = /^Exit Code:\s*(-?\d+)/m.exec(text);
      this.result(call.id, call.status === 'error' || (exit !== null && exit[1] !== '0'), text);
    }
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
