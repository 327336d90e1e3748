/**
 * shim's Claude Code mod: the plugin's hooks module (Claude Code 2.1.287+; what loads and how is
 * in docs/claude-code.md, "Mods"). It sees each response's usage the moment Claude Code has it
 * (`turn.step`) and each compaction (`session.compact`), without starting a process: it reports
 * them to shim's MCP server (`shim_mod_event`), which is already running, and pins the line
 * shim answers under the prompt (`$.ui.status`).
 *
 * Claude Code checks a hooks module before it runs: no imports but its own files, `on` called with
 * a literal event name, and `$` only ever spelled `$.noun.event(...)` at the call site. Hence one
 * file, and the repeated `$.` calls below.
 *
 * It never holds up a turn: step reports are queued and not awaited, each call is bounded in
 * time, and the first failure turns the mod off for the session with one notice (the command
 * hooks, where installed, keep watching).
 *
 * While it watches, it also answers the per-call hook events no other hook listens to (shim's
 * server says which): PostToolUse and PostToolUseFailure become a queued report (the call
 * counted, no process), PreToolUse passes on to shim's hook only for a risky command. The note
 * for the model at a level reached is appended to the session (`$.session.append`). The only
 * import is pure (core/policy/risky-operation.ts), inlined when the mod is bundled.
 */
import { detectRiskyCommand } from '../core/policy/risky-operation.ts';

type Usage = {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
  model?: string;
};
type McpAnswer = { isError?: boolean; content?: Array<{ type: string; text?: string }> };
type Dollar = {
  mcp: { call(server: string, tool: string, args: Record<string, unknown>): Promise<McpAnswer> };
  session: {
    info(): Promise<{ transcriptPath?: string }>;
    append(note: Note): Promise<unknown>;
  };
  ui: { status(text: string): Promise<unknown>; toast(text: string): Promise<unknown> };
};
/** What `$.session.append` takes: a message the model reads as a note from the plugin. */
type Note = { message: { type: 'user'; content: Array<{ type: 'text'; text: string }> } };
/** A classic hook event's input: PreToolUse `{tool, …input}`, the others the hook payload. */
type ClassicEvent = {
  tool?: string;
  command?: unknown;
  tool_name?: string;
  hook_event_name?: string;
};
type StepEvent = { turnId?: string; index?: number };
type StepResult = { usage?: Usage } | undefined;
type CompactEvent = { trigger?: string; instructions?: string; messages?: unknown[] };
type CompactResult = { messages?: Array<{ role?: string; text?: string }> } | undefined;
type Next<E, R> = (e: E) => Promise<R>;
type StreamNext<E, R> = (e: E) => AsyncGenerator<unknown, R, unknown>;
type ClassicName = 'classic.PreToolUse' | 'classic.PostToolUse' | 'classic.PostToolUseFailure';
type On = {
  (
    event: ClassicName,
    hook: ($: Dollar, e: ClassicEvent, next: Next<ClassicEvent, unknown>) => Promise<unknown>,
  ): void;
  (
    event: 'turn.step',
    hook: (
      $: Dollar,
      e: StepEvent,
      next: StreamNext<StepEvent, StepResult>,
    ) => AsyncGenerator<unknown, StepResult, unknown>,
  ): void;
  (
    event: 'session.compact',
    hook: (
      $: Dollar,
      e: CompactEvent,
      next: Next<CompactEvent, CompactResult>,
    ) => Promise<CompactResult>,
  ): void;
  (
    event: 'turn.complete',
    hook: ($: Dollar, e: unknown, next: Next<unknown, unknown>) => Promise<unknown>,
  ): void;
};

/**
 * Where shim's MCP server is: the plugin's own server is named `plugin:<plugin>:<server>`; the one
 * `shim install` registers is `shim`. The first that answers is kept.
 */
const SERVERS = ['plugin:shim:shim', 'shim'];
const NO_SERVER = /no connected MCP tool/;
/** The tool the mod reports through: its calls are the mod's, not the session's. */
const SHIM_TOOL = /^mcp__(?:plugin_shim_)?shim__shim_mod_event$/;
/** The session has ended while a report waited in the queue: nothing left to report to. */
const SESSION_OVER = /no session is bound/;
const TOOL = 'shim_mod_event';
/** A step report waits this long for shim; the turn itself never waits. */
const STEP_TIMEOUT_MS = 5_000;
/** Before a compaction shim saves a checkpoint (git, SQLite): longer, and the compaction waits. */
const COMPACT_TIMEOUT_MS = 8_000;
/** A session's first tool call waits this long for shim's first answer (which events are ours). */
const FIRST_ANSWER_WAIT_MS = 3_000;

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Calls shim's server by the name that answers (SERVERS), remembered once found. `call` is a
 * closure around `$.mcp.call`: Claude Code wants `$` spelled out where it is used.
 */
async function callShim(
  mod: { server: string },
  call: (server: string) => Promise<McpAnswer>,
  ms: number,
): Promise<McpAnswer> {
  for (const server of mod.server ? [mod.server] : SERVERS) {
    try {
      const answer = await within(call(server), ms, TOOL);
      mod.server = server;
      return answer;
    } catch (error) {
      if (!NO_SERVER.test(String(error))) throw error;
    }
  }
  throw new Error(`shim's MCP server is not connected (tried ${SERVERS.join(', ')})`);
}

/** One line, short enough for the status line under the prompt. */
function reasonOf(error: unknown): string {
  const text = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

function textOf(answer: McpAnswer): string {
  return (answer.content ?? []).map((block) => block.text ?? '').join('');
}

/** The answer's JSON (`$.mcp.call` hands over the text blocks only), or an error in shim's words. */
function resultOf(answer: McpAnswer): Record<string, unknown> {
  const text = textOf(answer);
  if (answer.isError) throw new Error(text.split('\n')[0] || 'shim answered an error');
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null) throw new Error('shim answered no object');
  return value as Record<string, unknown>;
}

export function register(on: On): void {
  let firstAnswered = (): void => undefined;
  const mod = {
    off: false,
    transcriptPath: '',
    server: '',
    queue: Promise.resolve(),
    /** The per-call hook events shim's server said the mod may answer; null until it answers. */
    answers: null as Set<string> | null,
    firstAnswer: new Promise<void>((resolve) => (firstAnswered = resolve)),
  };
  const turnOff = (error: unknown): boolean => {
    firstAnswered();
    if (mod.off || SESSION_OVER.test(String(error))) return false;
    mod.off = true;
    console.error(`shim mod off for this session: ${reasonOf(error)}`);
    return true;
  };
  /** True when the mod answers `event` itself; waits for shim's first answer once. */
  const answersFor = async (event: string): Promise<boolean> => {
    if (!mod.off && mod.answers === null)
      await within(mod.firstAnswer, FIRST_ANSWER_WAIT_MS, "shim's first answer").catch(() => {});
    return !mod.off && mod.answers !== null && mod.answers.has(event);
  };

  // After each tool call: counted through the server (queued), no process. Where another hook
  // listens too, or the mod is off, Claude Code's hooks run as they would without it. The two
  // handlers stay spelled out: registered from a loop over the names, Claude Code loaded no mod
  // at all (every mod e2e failed).
  on('classic.PostToolUse', async ($, e, next) => {
    // The mod's own report, when Claude Code hands its hooks back to the mod (logged "nested in
    // shim"): answered at once, never waiting for shim's first answer, which is that very report.
    if (SHIM_TOOL.test(String(e.tool_name ?? ''))) return {};
    if (!(await answersFor('PostToolUse'))) return next(e);
    mod.queue = mod.queue.then(async () => {
      if (mod.off || !mod.transcriptPath) return;
      try {
        const call = (server: string) =>
          $.mcp.call(server, TOOL, { event: 'tool', transcriptPath: mod.transcriptPath });
        resultOf(await callShim(mod, call, STEP_TIMEOUT_MS));
      } catch (error) {
        turnOff(error);
      }
    });
    return {};
  });
  on('classic.PostToolUseFailure', async ($, e, next) => {
    // The mod's own report, when Claude Code hands its hooks back to the mod (logged "nested in
    // shim"): answered at once, never waiting for shim's first answer, which is that very report.
    if (SHIM_TOOL.test(String(e.tool_name ?? ''))) return {};
    if (!(await answersFor('PostToolUseFailure'))) return next(e);
    mod.queue = mod.queue.then(async () => {
      if (mod.off || !mod.transcriptPath) return;
      try {
        const call = (server: string) =>
          $.mcp.call(server, TOOL, { event: 'tool', transcriptPath: mod.transcriptPath });
        resultOf(await callShim(mod, call, STEP_TIMEOUT_MS));
      } catch (error) {
        turnOff(error);
      }
    });
    return {};
  });

  // Before a tool call: shim's hook only for a command that may destroy work (its checkpoint
  // must be taken before the command runs, with git and SQLite: a process's work).
  on('classic.PreToolUse', async ($, e, next) => {
    // The mod's own report (see classic.PostToolUse): waiting here held it 3 s, and its report
    // then ran past STEP_TIMEOUT_MS and turned the mod off (seen under load, 2.1.330 and 2.1.332).
    if (SHIM_TOOL.test(String(e.tool ?? ''))) return {};
    if (!(await answersFor('PreToolUse'))) return next(e);
    if (e.tool === 'Bash' && detectRiskyCommand(String(e.command ?? ''))) return next(e);
    return {};
  });

  on('turn.step', async function* ($, e, next) {
    const result = yield* next(e);
    const inTurn = performance.now();
    const usage = result?.usage;
    if (mod.off || !usage) return result;
    const report = {
      turnId: String(e.turnId ?? ''),
      step: Number(e.index ?? 0),
      usage: { ...usage },
    };
    // Queued, not awaited: reports reach shim in order while the session goes on.
    let turnMs = 0;
    mod.queue = mod.queue.then(async () => {
      if (mod.off) return;
      const started = Date.now();
      try {
        if (!mod.transcriptPath) {
          const info = await within($.session.info(), STEP_TIMEOUT_MS, '$.session.info');
          mod.transcriptPath = String(info.transcriptPath ?? '');
          if (!mod.transcriptPath) throw new Error('Claude Code gave no transcript path');
        }
        const answer = await callShim(
          mod,
          (server) =>
            $.mcp.call(server, TOOL, {
              event: 'step',
              transcriptPath: mod.transcriptPath,
              notes: true,
              ...report,
            }),
          STEP_TIMEOUT_MS,
        );
        const seen = resultOf(answer);
        if (Array.isArray(seen.answers)) mod.answers = new Set(seen.answers.map(String));
        firstAnswered();
        if (typeof seen.status === 'string' && seen.status) await $.ui.status(seen.status);
        if (typeof seen.notice === 'string' && seen.notice) await $.ui.toast(seen.notice);
        // The model reads it before its next response, marked as the plugin's note.
        if (typeof seen.note === 'string' && seen.note)
          await $.session.append({
            message: { type: 'user', content: [{ type: 'text', text: seen.note }] },
          });
        // What `npm run bench` reads from Claude Code's --debug log.
        console.error(
          `shim mod: step ${report.step}: ${turnMs.toFixed(3)} ms in the turn, reported in ${Date.now() - started} ms`,
        );
      } catch (error) {
        if (turnOff(error)) {
          try {
            await $.ui.status(
              `shim: mod off for this session (${reasonOf(error)}); hooks keep watching`,
            );
          } catch {
            // nothing more to say
          }
        }
      }
    });
    turnMs = performance.now() - inTurn;
    return result;
  });

  // The turn is over: its last response's report is sent before Claude Code goes on (`claude -p`
  // exits), or that response's usage never reaches shim. Bounded like any report.
  on('turn.complete', async ($, e, next) => {
    const result = await next(e);
    await within(mod.queue, STEP_TIMEOUT_MS, 'the last step report').catch(() => undefined);
    return result;
  });

  on('session.compact', async ($, e, next) => {
    if (mod.off) return next(e);
    const trigger = e.trigger === 'manual' ? 'manual' : 'auto';
    let instructions: string | null = null;
    try {
      if (!mod.transcriptPath) {
        const info = await within($.session.info(), STEP_TIMEOUT_MS, '$.session.info');
        mod.transcriptPath = String(info.transcriptPath ?? '');
      }
      const answer = await callShim(
        mod,
        (server) =>
          $.mcp.call(server, TOOL, {
            event: 'compact',
            transcriptPath: mod.transcriptPath,
            trigger,
          }),
        COMPACT_TIMEOUT_MS,
      );
      const prepared = resultOf(answer);
      if (typeof prepared.instructions === 'string' && prepared.instructions)
        instructions = prepared.instructions;
    } catch (error) {
      turnOff(error);
    }
    const given = e.instructions ? `${e.instructions}\n\n` : '';
    const result = await next(instructions ? { ...e, instructions: given + instructions } : e);
    const summary = result?.messages?.[0]?.text;
    if (!mod.off && typeof summary === 'string' && summary) {
      try {
        await callShim(
          mod,
          (server) =>
            $.mcp.call(server, TOOL, {
              event: 'compacted',
              transcriptPath: mod.transcriptPath,
              trigger,
              summary,
            }),
          STEP_TIMEOUT_MS,
        );
      } catch (error) {
        turnOff(error);
      }
    }
    return result;
  });
}
