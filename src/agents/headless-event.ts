/**
 * What `shim loop` reads from an agent running headless, whatever the agent: each adapter's
 * headless parser (`HeadlessRun.parser`, src/agents/agent.ts) turns one line of its agent's output
 * into these. The shapes started as Claude Code's stream-json (src/agents/claude/stream-json.ts);
 * another agent fills what its stream says and leaves the rest null.
 * @module
 */

export type StreamUsage = {
  input: number;
  cacheCreation: number;
  cacheRead: number;
  output: number;
  cleared: number;
};
export type ToolUse = { id: string; name: string; input: Record<string, unknown> };

/** A background task Claude Code still runs for the session (a shell, a subagent, a monitor). */
export type BackgroundTask = { id: string; type: string; description: string };

export type AgentEvent =
  | {
      kind: 'init';
      sessionId: string;
      model: string | null;
      cwd: string | null;
      cliVersion: string | null;
    }
  | {
      kind: 'response';
      sessionId: string | null;
      messageId: string;
      model: string | null;
      usage: StreamUsage;
      /** The context this response was sent with; null when the agent's stream does not say. */
      contextTokens: number | null;
      text: string;
      toolUses: ToolUse[];
      /** Produced inside a subagent: `parent_tool_use_id` names the Task call that started it. */
      sidechain: boolean;
    }
  | {
      kind: 'tool_result';
      toolUseId: string;
      isError: boolean;
      text: string;
      sidechain: boolean;
      /**
       * The id the tool's structured result names, beside the text the model reads (Claude
       * Code's `tool_use_result`: the job a CronCreate scheduled, and whether it was written to
       * disk, which outlives the session).
       */
      output?: { id: string; durable: boolean };
    }
  | {
      kind: 'api_error';
      status: number | null;
      /** Claude Code's class of the failure: "rate_limit", "server_error", … */
      error: string | null;
      /** The finer reason when there is one, e.g. "usage_limit_reached". */
      apiError: string | null;
      text: string;
      /** Epoch ms when a usage limit lifts (the stream gives seconds). */
      resetsAt: number | null;
    }
  | { kind: 'rate_limit'; status: string; resetsAt: number | null; limitType: string | null }
  | {
      kind: 'api_retry';
      attempt: number | null;
      maxRetries: number | null;
      delayMs: number | null;
      errorStatus: number | null;
      error: string | null;
    }
  | { kind: 'compacting' }
  /** The full set of live background tasks (replace, do not merge), 2.1.330+. */
  | { kind: 'background_tasks'; tasks: BackgroundTask[] }
  /**
   * A background task ended (`task_notification`): `completed` and `failed` by itself, `stopped`
   * when something stopped it — the agent's own stop tool, or the CLI's shutdown on a signal.
   */
  | { kind: 'task_ended'; taskId: string; status: string }
  | { kind: 'compact'; trigger: string; preTokens: number | null; postTokens: number | null }
  | {
      kind: 'result';
      sessionId: string | null;
      isError: boolean;
      subtype: string;
      text: string;
      costUsd: number | null;
      numTurns: number | null;
      durationMs: number | null;
      terminalReason: string | null;
      apiErrorStatus: number | null;
      errors: string[];
    }
  | { kind: 'other'; type: string; subtype: string | null };

/** `env` without `names`: what a session shim starts must not inherit from the one it ran in. */
export function withoutVariables(
  env: Readonly<Record<string, string | undefined>>,
  names: readonly string[],
): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = { ...env };
  for (const name of names) delete out[name];
  return out;
}
