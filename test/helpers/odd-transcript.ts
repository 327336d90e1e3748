/**
 * A transcript path that is not a regular file (a FIFO nobody writes, a directory), as a hook's
 * payload names it: the set-up test/transcript-not-a-file.test.ts and `npm run soak` share.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { processesUnder } from './processes.ts';
import { SESSION_ID } from './transcript-builders.ts';

/** Claude Code's hook events, each run with the odd path. */
export const EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PreCompact',
  'Stop',
  'SessionEnd',
] as const;

/** A hook of `event` naming `transcript`, with what each event's payload carries. */
export function payloadFor(event: string, transcript: string, cwd: string, n: number): string {
  return JSON.stringify({
    session_id: SESSION_ID,
    transcript_path: transcript,
    cwd,
    hook_event_name: event,
    tool_name: 'Bash',
    tool_input: { command: n % 2 ? 'git reset --hard' : 'npm test' },
    tool_use_id: `toolu_fifo_${n}`,
    tool_response: { stdout: 'ok' },
    prompt: 'go on',
    source: 'startup',
    trigger: 'auto',
    reason: 'other',
  });
}

export function replaceWith(kind: 'fifo' | 'directory', path: string): void {
  rmSync(path);
  if (kind === 'fifo') execFileSync('mkfifo', [path]);
  else mkdirSync(path);
}

/**
 * Processes working under `dir` (warm looks included) that the kernel shows waiting on a pipe:
 * what an open() of a FIFO with no writer leaves behind. Linux /proc only.
 */
export function blockedOnPipe(dir: string): { pid: number; wchan: string }[] {
  return processesUnder(dir, true)
    .map((pid) => {
      try {
        return { pid, wchan: readFileSync(`/proc/${pid}/wchan`, 'utf8') };
      } catch {
        return { pid, wchan: '' };
      }
    })
    .filter(({ wchan }) => /partner|fifo|pipe/.test(wchan));
}
