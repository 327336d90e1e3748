/**
 * What every tool shares: the server's dependencies, how it tells which session is asking, and
 * how answers and failures become tool results a model can act on.
 * @module
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { resolve } from 'node:path';
import { z } from 'zod';
import { AppError } from '../core/errors.ts';
import type { Agents } from '../agents/agent.ts';
import { newestSession, type SessionLog } from '../app/session/session-log.ts';
import { readLearnedMemory, withoutLearned } from '../app/checkpoint/learned-scrub.ts';
import type { Env } from '../store/home/home.ts';
import { appendLog, getLogPath } from '../store/home/log.ts';
import { withoutTyped } from '../core/typed-words.ts';

export type McpDeps = {
  /** SHIM_HOME. */
  home: string;
  /** The directory the agent started the server in: the project. */
  cwd: string;
  /** Every agent shim serves: the caller may be any of them (the entry hands them in). */
  agents: Agents;
  env: Env;
  /** Epoch ms; the wall clock unless a test fixes it. */
  now?: () => number;
  version: string;
};

/** The session a tool call is about, and how the server knows. */
export type Caller = {
  sessionId: string;
  transcriptPath: string;
  /** The caller's log and the agent that writes it. */
  log: SessionLog;
  /** How the server knows, for the answer: it cannot see the caller, it infers it. */
  basis: string;
};

/** The `session` field of every answer that is about the caller (see Caller). */
export const callerSchema = z.object({
  sessionId: z.string(),
  transcriptPath: z.string(),
  basis: z.string(),
});

/** The caller as an answer's `session` field shows it (callerSchema): no agent value in it. */
export const callerFacts = (caller: Caller) => ({
  sessionId: caller.sessionId,
  transcriptPath: caller.transcriptPath,
  basis: caller.basis,
});

export const now = (deps: McpDeps): number => (deps.now ? deps.now() : Date.now());

/** How long to wait for the session log: an agent can call a tool before writing its first line. */
export const CALLER_WAIT_MS = 2000;

/**
 * The calling session: MCP gives a server no session id, so it is the most recently written
 * session log, of any agent, of the server's working directory (the active session writes on
 * every turn, so while it is calling us it is the newest).
 */
export async function identifyCaller(deps: McpDeps, waitMs = CALLER_WAIT_MS): Promise<Caller> {
  const cwd = resolve(deps.cwd);
  const deadline = Date.now() + waitMs;
  for (;;) {
    const newest = await newestSession(cwd, deps.env, deps.agents);
    if (newest) {
      const { file, agent } = newest;
      return {
        sessionId: file.sessionId,
        transcriptPath: file.path,
        log: { path: file.path, agent },
        basis: `the most recently written ${agent.name} session log of ${cwd} (MCP does not tell a server who calls it, so shim takes the active session of its directory)`,
      };
    }
    if (Date.now() >= deadline) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new AppError(
    'SESSION_NOT_FOUND',
    `no session of any agent in ${cwd}`,
    `start the MCP server in the directory the agent runs in (it identifies the calling session by that directory's session logs); ` +
      'shim_search, shim_list_checkpoints, shim_get_checkpoint and shim_check_resume work without it',
  );
}

/** A successful answer: text for the model, the same facts as structured content. */
export function answer(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/** Shared use cases word their hints for the command line; a model calls tools instead. */
const CLI_TO_TOOL: ReadonlyArray<[RegExp, string]> = [
  [/`shim list`/g, 'shim_list_checkpoints or shim_search'],
  [/`shim checkpoint`/g, 'shim_checkpoint'],
  [/`shim status`/g, 'shim_get_crash_risk'],
  [/`shim resume`/g, 'shim_check_resume'],
];

function toToolNames(hint: string): string {
  return CLI_TO_TOOL.reduce((text, [cli, tool]) => text.replace(cli, tool), hint);
}

/**
 * A failure the model can act on: what happened, then what to do next. The log keeps the tool and
 * the code; the call's own words (`args`: a search, a reason, an id) are taken out of what it
 * logs (cli/logged-command.ts).
 */
export function toolError(
  error: unknown,
  deps: McpDeps,
  tool: string,
  args: unknown = {},
): CallToolResult {
  const typed = wordsOf(args);
  if (error instanceof AppError) {
    appendLog(deps.home, 'warn', withoutTyped(error.message, typed), { code: error.code, tool });
    const next = error.hint ? `\nWhat to do next: ${toToolNames(error.hint)}` : '';
    return {
      content: [{ type: 'text', text: `${tool} failed (${error.code}): ${error.message}${next}` }],
      isError: true,
    };
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  appendLog(deps.home, 'error', 'unexpected error in an MCP tool', {
    tool,
    error: withoutTyped(detail, typed),
  });
  return {
    content: [
      {
        type: 'text',
        text:
          `${tool} failed unexpectedly: ${error instanceof Error ? error.message : String(error)}\n` +
          `What to do next: this is a bug in shim, not in your request; carry on without this tool ` +
          `and tell the user (details are in ${getLogPath(deps.home)}).`,
      },
    ],
    isError: true,
  };
}

/**
 * Runs a tool body on its arguments, turning any failure into an error result instead of a
 * protocol error. An answer goes to the model without any value the home's sessions learned is a
 * secret: the rows it quotes may have been stored before (app/checkpoint/learned-scrub.ts).
 */
export async function guard<A>(
  deps: McpDeps,
  tool: string,
  args: A,
  body: (args: A) => Promise<CallToolResult> | CallToolResult,
): Promise<CallToolResult> {
  try {
    const result = await body(args);
    return withoutLearned(result, await readLearnedMemory(deps.home));
  } catch (error) {
    return toolError(error, deps, tool, args);
  }
}

/** Every string a tool call's arguments hold, however deep. */
function wordsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(wordsOf);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(wordsOf);
  return [];
}

export const short = (id: string) => id.slice(0, 8);
