/**
 * The before- and after-call hooks' note of a shell command, kept until its result comes
 * (store/cache/calls-started.ts): for an agent whose log holds a call only once it completes (its
 * `log.foldStarted`; Gemini CLI), so a call in flight when the agent is killed reaches the next
 * session's restore; and, with a team store configured, for every agent, so the session's command
 * watch (app/checkpoint/running-command-watch.ts) can share a command still running with the
 * team store. An agent whose log holds the call from its start (Claude Code, Codex) needs no
 * text in the note: its note is the key and the time, no redaction. Shell commands only:
 * BeforeTool pays a redaction and a small file write per command, AfterTool a read
 * (docs/hot-path.md); a failure is logged and the hook goes on.
 * @module
 */
import { fnvHash } from '../core/fnv-hash.ts';
import { redactValueSync } from '../redact/redact.ts';
import { noteCallStarted } from '../store/cache/calls-started.ts';
import { isTeamConfigured } from '../app/team/team-settings.ts';
import type { HookRun } from './hook-run.ts';
import { watchRunningCommands } from './command-watch.ts';
import { noting, shellCall } from './shell-calls.ts';

/**
 * Before the call: noted with the command redacted (the first redaction in the process) when the
 * agent's log will not hold it until it completes; by its key alone otherwise. With a team store,
 * the session's command watch is started if none is running.
 */
export async function noteStartedCall(run: HookRun): Promise<void> {
  const call = shellCall(run);
  if (!call) return;
  const logged = run.agent.log.foldStarted === null;
  const team = isTeamConfigured(run.config, run.env);
  if (logged && !team) return;
  noting(run, 'start', () =>
    noteCallStarted(run.home, call.sessionId, {
      tool: call.tool,
      input: logged ? {} : { command: redactValueSync(call.command).value },
      at: run.now,
      key: fnvHash(call.command),
    }),
  );
  if (team) await watchRunningCommands(run);
}
