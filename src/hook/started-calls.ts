/**
 * The before- and after-call hooks' note of a call, for an agent whose log holds a call only once
 * it completes (its `log.foldStarted`; Gemini CLI): kept until the call's result comes, so a call
 * in flight when the agent is killed reaches the next session's restore
 * (store/cache/calls-started.ts). Shell commands only: BeforeTool pays a redaction and a small
 * file write per command, AfterTool a read (docs/hot-path.md); a failure is logged and the hook goes on.
 * @module
 */
import { fnvHash } from '../core/fnv-hash.ts';
import { redactValueSync } from '../redact/redact.ts';
import { noteCallEnded, noteCallStarted } from '../store/cache/calls-started.ts';
import { appendLog } from '../store/home/log.ts';
import type { HookRun } from './hook-run.ts';

/**
 * A shell command's call (shim's name for the agent's shell tool is `Bash`): the agent's own name
 * for the tool and the command. Only commands: they are what runs long enough to be killed
 * mid-way, and a call of any other tool would pay a redaction for nothing.
 */
function shellCall(run: HookRun): { sessionId: string; tool: string; command: string } | null {
  const { payload } = run;
  const tool = payload.raw.tool_name;
  const command = payload.toolInput?.command;
  if (
    run.agent.log.foldStarted === null ||
    !payload.sessionId ||
    payload.toolName !== 'Bash' ||
    typeof tool !== 'string' ||
    typeof command !== 'string'
  )
    return null;
  return { sessionId: payload.sessionId, tool, command };
}

function noting(run: HookRun, what: string, note: () => void): void {
  try {
    note();
  } catch (error) {
    appendLog(run.home, 'warn', `${run.payload.event}: the call's ${what} was not noted`, {
      sessionId: run.payload.sessionId,
      error: String(error),
    });
  }
}

/** Before the call: noted with the command redacted (the first redaction in the process). */
export function noteStartedCall(run: HookRun): void {
  const call = shellCall(run);
  if (call)
    noting(run, 'start', () =>
      noteCallStarted(run.home, call.sessionId, {
        tool: call.tool,
        input: { command: redactValueSync(call.command).value },
        at: run.now,
        key: fnvHash(call.command),
      }),
    );
}

/** After it: matched by its key, nothing redacted. */
export function noteEndedCall(run: HookRun): void {
  const call = shellCall(run);
  if (call)
    noting(run, 'end', () =>
      noteCallEnded(run.home, call.sessionId, { tool: call.tool, key: fnvHash(call.command) }),
    );
}
