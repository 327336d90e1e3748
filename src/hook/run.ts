/**
 * `shim hook <Event>`: one hook event of the agent the entry handed in, stdin → that agent's
 * protocol output on stdout. The agent's event name is mapped to shim's (its `hooks.events`) and
 * the same handlers serve every agent. Never blocks or breaks the agent by accident: every failure
 * is logged and the hook exits 0 with no decision. Nothing but protocol output goes to stdout.
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
import { DOCTOR_SESSION, type Agent, type Agents, type HookOutput } from '../agents/agent.ts';
import { readStdin } from '../capture/stdin.ts';
import { writeStdout } from '../capture/stdout.ts';
import type { HookHandler, HookRun, QuickHandover } from './hook-run.ts';
import { beforeCompaction } from './compaction-due.ts';
import { startTeamPullAtStart } from '../app/team/pull-at-start.ts';

// The log's entries pass the redactor this bundle carries (store/log.ts).
useLogRedaction(redactValueSync);

/** Handlers by shim's event name, loaded on demand: an event pays only for its own code. */
const HANDLERS: Record<string, () => Promise<HookHandler>> = {
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

/** One hook call: the agent it is for, every agent, and what the agent sent. */
export type HookCall = {
  agent: Agent;
  agents: Agents;
  /** The agent's name for the event (Gemini's `AfterTool`, Claude Code's `PostToolUse`). */
  event: string;
  input: string;
  env: Env;
  now?: number;
  /** What dist/hook-quick.cjs (or the warm look) read already: used as it is. */
  handover?: QuickHandover;
};

/** Runs one hook; resolves to the text for stdout (possibly empty). Never rejects. */
export async function runHook(call: HookCall): Promise<string> {
  const { agent, env } = call;
  const now = call.now ?? Date.now();
  const home = getShimHome(env);
  const render = (output: HookOutput) => agent.hooks.render(call.event, output);
  let sessionId: string | null = null;
  try {
    const event = agent.hooks.events[call.event];
    const load = event ? HANDLERS[event] : undefined;
    if (!event || !load) {
      // A newer agent's event (Claude Code 2.1.332's PreSkillShellCommand) wired by hand: not a fault.
      appendLog(
        home,
        'debug',
        `hook: ${agent.name}'s event "${call.event}" is not one shim handles (nothing done)`,
        {
          known: Object.keys(agent.hooks.events),
        },
      );
      return '';
    }
    const { payload, error } = call.handover
      ? { payload: call.handover.payload, error: null }
      : agent.hooks.parse(call.input, call.event);
    if (error) {
      appendLog(home, 'warn', `hook ${agent.id} ${call.event}: ${error}`, {
        bytes: call.input.length,
      });
      return '';
    }
    sessionId = payload.sessionId;
    // `shim doctor` probes with this session id: the handler must load, but touch nothing.
    if (payload.sessionId === DOCTOR_SESSION) {
      await load();
      return '';
    }
    const config =
      call.handover?.config ??
      (await loadConfig(home, {
        lenient: true,
        projectRoot: payload.cwd ? findProjectRoot(payload.cwd) : null,
      }));
    if (!config.enabled) return '';
    // A new session's pull from the team store loads and connects in its own process while this
    // one loads the handler (the session waits for it: every millisecond counts).
    const teamPull =
      event === 'SessionStart' && payload.sessionId
        ? await startTeamPullAtStart({ ...payload, config, env, home })
        : undefined;
    const handler = await load();
    const run: HookRun = {
      payload,
      env,
      home,
      now,
      config,
      agent,
      agents: call.agents,
      ...(call.handover ? { quickAsked: true } : {}),
      ...(call.handover?.parentPid ? { parentPid: call.handover.parentPid } : {}),
      ...(teamPull !== undefined ? { teamPull } : {}),
    };
    const output = agent.capabilities.compactsBeforeNextRequest
      ? await beforeCompaction(event, run, handler, () =>
          (HANDLERS.PreCompact as () => Promise<HookHandler>)(),
        )
      : await handler(run);
    return render(withNotices(output, config, payload, home));
  } catch (error) {
    if (noteStorageFailure(home, `hook ${call.event}`, error)) {
      const notice = storageNotice(home, call.event, sessionId);
      return notice ? render({ userMessage: notice }) : '';
    }
    appendLog(home, 'error', `hook ${agent.id} ${call.event} failed`, {
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
  call: Omit<HookCall, 'input' | 'env' | 'now'>,
  loadBundle?: BundleLoader,
): Promise<void> {
  await mainWithInput({ ...call, input: await readStdin() }, loadBundle);
}

/** The same, for an input already read (dist/hook-quick.cjs hands over what it could not answer). */
export async function mainWithInput(
  call: Omit<HookCall, 'env' | 'now'>,
  loadBundle?: BundleLoader,
): Promise<void> {
  if (loadBundle) useBundleLoader(loadBundle);
  const out = await runHook({ ...call, env: process.env });
  if (out) writeStdout(`${out}\n`);
  process.exitCode = 0;
}
