/**
 * `shim hook <EventName>`: one Claude Code hook event, stdin → protocol output on stdout.
 * Never blocks or breaks the agent by accident: every failure is logged and the hook exits 0
 * with no decision. Nothing but protocol output is written to stdout.
 * @module
 */
import type { Env } from '../store/home/home.ts';
import { getShimHome } from '../store/home/home.ts';
import { findProjectRoot } from '../capture/project.ts';
import { fnvHash } from '../core/fnv-hash.ts';
import { describeConfigProblem, loadConfig, type ShimConfig } from '../store/config/config.ts';
import { claimOnce } from '../store/cache/hook-memory.ts';
import { appendLog, useLogRedaction } from '../store/home/log.ts';
import { redactValueSync } from '../redact/redact.ts';
import {
  describeRecovery,
  markRecoveryShown,
  readRecoveryNotice,
} from '../store/home/recovery-notice.ts';
import { useBundleLoader, type BundleLoader } from '../app/load-bundle.ts';
import { noteStorageFailure, storageNotice } from './storage-notice.ts';
import { loadHeavy } from './load-heavy.ts';
import type { HookOutput } from '../agents/agent.ts';
import { renderHookOutput } from '../agents/claude/hook-output.ts';
import { DOCTOR_SESSION, parsePayload } from '../agents/claude/hook-payload.ts';
import { readStdin } from '../capture/stdin.ts';
import { writeStdout } from '../capture/stdout.ts';
import type { HookHandler, QuickHandover } from './hook-run.ts';
import { isAgentId, type AgentId } from '../core/agent-id.ts';
import { loadAgentAdapter } from '../app/session/load-agent.ts';

// The log's entries pass the redactor this bundle carries (store/log.ts).
useLogRedaction(redactValueSync);

type Handler = HookHandler;

/** Handlers load on demand: an event pays only for its own code. */
const HANDLERS: Record<string, () => Promise<Handler>> = {
  SessionStart: async () => (await loadHeavy()).handleSessionStart,
  UserPromptSubmit: async () =>
    (await import('./handlers/user-prompt-submit.ts')).handleUserPromptSubmit,
  PreToolUse: async () => (await import('./handlers/pre-tool-use.ts')).handlePreToolUse,
  PostToolUse: async () => (await import('./handlers/post-tool-use.ts')).handlePostToolUse,
  PostToolUseFailure: async () => (await import('./handlers/post-tool-use.ts')).handlePostToolUse,
  PreCompact: async () => (await loadHeavy()).handlePreCompact,
  PostCompact: async () => (await loadHeavy()).handlePostCompact,
  Stop: async () => (await import('./handlers/stop.ts')).handleStop,
  StopFailure: async () => (await loadHeavy()).handleStopFailure,
  PostModelSwitch: async () =>
    (await import('./handlers/post-model-switch.ts')).handlePostModelSwitch,
  SessionEnd: async () => (await loadHeavy()).handleSessionEnd,
};

export const HOOK_EVENTS = Object.keys(HANDLERS);

/** Runs one hook; resolves to the text for stdout (possibly empty). Never rejects. */
export async function runHook(
  event: string,
  input: string,
  env: Env,
  now = Date.now(),
  agent: AgentId = 'claude',
  handover?: QuickHandover,
): Promise<string> {
  const home = getShimHome(env);
  let sessionId: string | null = null;
  try {
    const load = HANDLERS[event];
    if (!load) {
      // A newer Claude Code's event (2.1.332's PreSkillShellCommand) wired by hand: not a fault.
      appendLog(home, 'debug', `hook: event "${event}" is not one shim handles (nothing done)`, {
        known: HOOK_EVENTS,
      });
      return '';
    }
    // Another agent's protocol comes with its adapter (its own bundle); Claude Code's is here.
    const protocol = agent === 'claude' ? null : (await loadAgentAdapter(agent)).hooks;
    // Handed over by dist/hook-quick.cjs: the payload and config it read, used as they are.
    const { payload, error } = handover
      ? { payload: handover.payload, error: null }
      : (protocol?.parse ?? parsePayload)(input, event);
    if (error) {
      appendLog(home, 'warn', `hook ${event}: ${error}`, { bytes: input.length });
      return '';
    }
    sessionId = payload.sessionId;
    const handler = await load();
    // `shim doctor` probes with this session id: the handler must load, but touch nothing.
    if (payload.sessionId === DOCTOR_SESSION) return '';
    const config =
      handover?.config ??
      (await loadConfig(home, {
        lenient: true,
        projectRoot: payload.cwd ? findProjectRoot(payload.cwd) : null,
      }));
    if (!config.enabled) return '';
    const output = await handler({
      payload,
      env,
      home,
      now,
      config,
      agent,
      ...(handover ? { quickAsked: true } : {}),
      ...(handover?.parentPid ? { parentPid: handover.parentPid } : {}),
    });
    return (protocol?.render ?? renderHookOutput)(
      event,
      withNotices(output, config, payload, home),
    );
  } catch (error) {
    if (noteStorageFailure(home, `hook ${event}`, error)) {
      const notice = storageNotice(home, event, sessionId);
      return notice ? renderHookOutput(event, { userMessage: notice }) : '';
    }
    appendLog(home, 'error', `hook ${event} failed`, {
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    return '';
  }
}

/**
 * What the user must hear about shim itself, once per session: a config file that could not be
 * used (shim runs on the defaults meanwhile), a corrupt store that was rebuilt.
 */
function withNotices(
  output: HookOutput,
  config: ShimConfig,
  payload: { sessionId: string | null; event: string },
  home: string,
): HookOutput {
  const { sessionId } = payload;
  const notices: string[] = [];
  const storage = storageNotice(home, payload.event, sessionId);
  if (storage) notices.push(storage);
  if (config.problems.length > 0 && sessionId) {
    const key = `config-${fnvHash(config.problems.map(describeConfigProblem).join('\n'))}`;
    if (claimOnce(home, sessionId, key)) {
      for (const p of config.problems) {
        notices.push(
          `shim: ${describeConfigProblem(p)} — using the defaults for that file until it is fixed (${p.fix}).`,
        );
      }
    }
  }
  const recovery = readRecoveryNotice(home);
  if (recovery && !recovery.shownInHook) {
    notices.push(describeRecovery(recovery));
    markRecoveryShown(home, 'hook');
  }
  if (notices.length === 0) return output;
  return { ...output, userMessage: [output.userMessage, ...notices].filter(Boolean).join('\n') };
}

/**
 * The process entry: read stdin, run, print, exit 0. `loadBundle` is bin/shim.cjs's loader for
 * the heavy half (compiled from V8's code cache).
 */
export async function main(
  event: string | undefined,
  loadBundle?: BundleLoader,
  agent?: string,
): Promise<void> {
  if (agent !== undefined && !isAgentId(agent)) {
    appendLog(getShimHome(process.env), 'warn', `hook: unknown agent "${agent}" (nothing done)`);
    process.exitCode = 0;
    return;
  }
  await mainWithInput(event, await readStdin(), loadBundle, agent);
}

/** The same, for an input already read (dist/hook-quick.cjs hands over what it could not answer). */
export async function mainWithInput(
  event: string | undefined,
  input: string,
  loadBundle?: BundleLoader,
  agent: AgentId = 'claude',
  handover?: QuickHandover,
): Promise<void> {
  if (loadBundle) useBundleLoader(loadBundle);
  const out = await runHook(event ?? '', input, process.env, Date.now(), agent, handover);
  if (out) writeStdout(`${out}\n`);
  process.exitCode = 0;
}
