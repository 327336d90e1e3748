/**
 * A shell command's call as the before- and after-call hooks see it, and its end taken out of the
 * session's started calls (store/cache/calls-started.ts; hook/started-calls.ts notes the start).
 * Lean on purpose: the quick bundle (dist/hook-quick.cjs) takes a call's end out too.
 * @module
 */
import { fnvHash } from '../core/fnv-hash.ts';
import { noteCallEnded } from '../store/cache/calls-started.ts';
import { appendLog } from '../store/home/log.ts';
import type { HookRun } from './hook-run.ts';

/**
 * A shell command's call (shim's name for the agent's shell tool is `Bash`): the agent's own name
 * for the tool and the command. Only commands: they are what runs long enough to be killed
 * mid-way, and a call of any other tool would pay a redaction for nothing.
 */
export function shellCall(
  run: Pick<HookRun, 'payload'>,
): { sessionId: string; tool: string; command: string } | null {
  const { payload } = run;
  const tool = payload.raw.tool_name;
  const command = payload.toolInput?.command;
  if (
    !payload.sessionId ||
    payload.toolName !== 'Bash' ||
    typeof tool !== 'string' ||
    typeof command !== 'string'
  )
    return null;
  return { sessionId: payload.sessionId, tool, command };
}

export function noting(
  run: Pick<HookRun, 'home' | 'payload'>,
  what: string,
  note: () => void,
): void {
  try {
    note();
  } catch (error) {
    appendLog(run.home, 'warn', `${run.payload.event}: the call's ${what} was not noted`, {
      sessionId: run.payload.sessionId,
      error: String(error),
    });
  }
}

/**
 * After it: its note, if it has one, taken out (matched by its key, nothing redacted). Every
 * agent's: which notes a session keeps depends on its agent and the team store, and where none
 * is kept this is one file's absence.
 */
export function noteEndedCall(run: Pick<HookRun, 'payload' | 'home'>): void {
  const call = shellCall(run);
  if (call)
    noting(run, 'end', () =>
      noteCallEnded(run.home, call.sessionId, { tool: call.tool, key: fnvHash(call.command) }),
    );
}
