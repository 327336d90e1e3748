/**
 * What a session is doing now — starting, exploring, implementing, testing, debugging,
 * committing — from its newest tool calls: the checkpoint's phase, and the statusline's [PHASE]
 * beside the session's issue. Pure.
 * @module
 */
import { classifyCheckCommand } from './check-command.ts';
import type { TaskState } from './checkpoint.ts';
import type { SessionState } from '../session.ts';

/** The `command` of a Bash call's summarised arguments. */
export function readCommand(args: string): string {
  const match = /"command":"((?:[^"\\]|\\.)*)/.exec(args);
  if (!match) return '';
  try {
    return JSON.parse(`"${match[1]}"`) as string;
  } catch {
    return match[1] ?? '';
  }
}

/** A shell call's command line: its fold's target for it, else read from the old summary. */
function shellCommand(t: SessionState['recentTools'][number]): string | null {
  if (t.kind === 'shell') return t.target ?? readCommand(t.args);
  return t.kind === undefined && t.tool === 'Bash' ? readCommand(t.args) : null;
}

export function getPhase(state: SessionState, items: TaskState['items']): string {
  const recent = state.recentTools
    .slice(-5)
    .map(shellCommand)
    .filter((c) => c !== null);
  if (state.consecutiveToolFailures >= 3) return 'debugging';
  if (recent.some((c) => /git (commit|push)/.test(c))) return 'committing';
  if (recent.some((c) => classifyCheckCommand(c) === 'test')) return 'testing';
  if (state.filesChanged.length > 0) return 'implementing';
  if (items.length > 0 || state.toolCalls > 0) return 'exploring';
  return 'starting';
}
