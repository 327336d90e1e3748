/**
 * `shim gemini-hook <Event>`: one Gemini CLI hook event, stdin → protocol output on stdout. The
 * payload is read as Gemini sends it and handled by shim's own handlers under their names
 * (agents/gemini/hook-payload.ts); what they decide is printed in Gemini's protocol. Like every
 * hook: failures are logged, the hook exits 0, stdout holds protocol output only.
 * @module
 */
import { existsSync } from 'node:fs';
import { findProjectRoot } from '../capture/project.ts';
import { readStdin } from '../capture/stdin.ts';
import { writeStdout } from '../capture/stdout.ts';
import { useBundleLoader, type BundleLoader } from '../app/load-bundle.ts';
import { loadSessionStateAt } from '../app/session/read-session.ts';
import { getLatestResponse } from '../core/session.ts';
import {
  renderGeminiOutput,
  type GeminiHookOutput,
  GEMINI_HOOK_EVENTS,
  isGeminiHookEvent,
  parseGeminiPayload,
  type GeminiHookEvent,
  geminiThreshold,
  geminiLogReader,
  geminiReading,
} from '../agents/gemini/hook-entry.ts';
import { registerAgentLogReader } from '../app/session/agent-logs.ts';
import { provideAgentReading } from '../app/session/load-agent.ts';
import { loadConfig } from '../store/config/config.ts';
import { getShimHome, type Env } from '../store/home/home.ts';
import { claimOnce } from '../store/cache/hook-memory.ts';
import { appendLog, useLogRedaction } from '../store/home/log.ts';
import { redactValueSync } from '../redact/redact.ts';
import type { HookHandler, HookRun } from './hook-run.ts';
import { loadHeavy } from './load-heavy.ts';

registerAgentLogReader(geminiLogReader);
// The log's entries pass the redactor this bundle carries (store/log.ts).
useLogRedaction(redactValueSync);
// The chat reader is in this bundle: reading the chat loads no adapter bundle.
provideAgentReading('gemini', geminiReading);

/** The session id `shim doctor` probes the hooks with: they must load, but touch nothing. */
const DOCTOR_SESSION = 'doctor';

/** shim's handler for each Gemini event, loaded on demand. */
const HANDLERS: Record<GeminiHookEvent, () => Promise<HookHandler>> = {
  SessionStart: async () => (await loadHeavy()).handleSessionStart,
  BeforeAgent: async () =>
    (await import('./handlers/user-prompt-submit.ts')).handleUserPromptSubmit,
  BeforeTool: async () => (await import('./handlers/pre-tool-use.ts')).handlePreToolUse,
  AfterTool: async () => (await import('./handlers/post-tool-use.ts')).handlePostToolUse,
  PreCompress: async () => (await loadHeavy()).handlePreCompact,
  AfterAgent: async () => (await import('./handlers/stop.ts')).handleStop,
  SessionEnd: async () => (await loadHeavy()).handleSessionEnd,
};

export const GEMINI_EVENTS = Object.keys(GEMINI_HOOK_EVENTS) as GeminiHookEvent[];

/**
 * Will the next request compress? Gemini compresses before a request when the last prompt's
 * tokens reached the threshold: that count is the newest model message's `tokens.input`.
 * Claimed once per compression (the chat's count of them so far), by whichever hook asks first.
 * Returns what it read too, for the handler's look (one reading per event).
 */
async function compressionDue(run: HookRun): Promise<{
  due: { contextTokens: number; threshold: number } | null;
  read: HookRun['read'];
}> {
  const { payload, home, env } = run;
  if (!payload.transcriptPath || !payload.sessionId || !existsSync(payload.transcriptPath))
    return { due: null, read: undefined };
  const read = await loadSessionStateAt(payload.transcriptPath, home);
  const latest = getLatestResponse(read.state);
  if (!latest) return { due: null, read };
  const session = { ...read.state, cwd: read.state.cwd ?? payload.cwd };
  const threshold = geminiThreshold
    .prepare(session, {
      env,
      home,
      now: run.now,
      history: 'none',
      inside: 'hook',
      reportedWindow: null,
    })
    .threshold(session).compactThreshold;
  if (latest.contextTokens < threshold) return { due: null, read };
  if (!claimOnce(home, payload.sessionId, `gemini-compress-${read.state.compactionCount}`))
    return { due: null, read };
  return { due: { contextTokens: latest.contextTokens, threshold }, read };
}

function merge(a: GeminiHookOutput, b: GeminiHookOutput): GeminiHookOutput {
  const join = (x?: string | null, y?: string | null) =>
    [x, y].filter((s): s is string => Boolean(s)).join('\n\n') || null;
  return { context: join(a.context, b.context), userMessage: join(a.userMessage, b.userMessage) };
}

async function handle(event: GeminiHookEvent, run: HookRun): Promise<GeminiHookOutput> {
  if (event === 'AfterTool' || event === 'BeforeAgent' || event === 'PreCompress') {
    const { due, read } = await compressionDue(run);
    if (event === 'PreCompress') {
      // It fires before every request; only a compression that is due is checkpointed here
      // (when no tool result or prompt came first to carry the state through it).
      return due ? (await HANDLERS.PreCompress())(run) : {};
    }
    if (due) {
      const restore = await (await loadHeavy()).restoreBeforeGeminiCompression(run, due);
      return merge(restore, await (await HANDLERS[event]())(run));
    }
    return (await HANDLERS[event]())(read ? { ...run, read } : run);
  }
  return (await HANDLERS[event]())(run);
}

/** Runs one Gemini hook; resolves to the text for stdout (possibly empty). Never rejects. */
export async function runGeminiHook(
  event: string,
  input: string,
  env: Env,
  now = Date.now(),
): Promise<string> {
  const home = getShimHome(env);
  try {
    if (!isGeminiHookEvent(event)) {
      appendLog(home, 'warn', `gemini-hook: unknown event "${event}" (nothing done)`, {
        known: GEMINI_EVENTS,
      });
      return '';
    }
    const { payload, error } = parseGeminiPayload(input, event);
    if (error) {
      appendLog(home, 'warn', `gemini-hook ${event}: ${error}`, { bytes: input.length });
      return '';
    }
    if (payload.sessionId === DOCTOR_SESSION) {
      await HANDLERS[event]();
      return '';
    }
    const config = await loadConfig(home, {
      lenient: true,
      projectRoot: payload.cwd ? findProjectRoot(payload.cwd) : null,
    });
    if (!config.enabled) return '';
    const output = await handle(event, { payload, env, home, now, config, agent: 'gemini' });
    return renderGeminiOutput(event, output);
  } catch (error) {
    appendLog(home, 'error', `gemini-hook ${event} failed`, {
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    return '';
  }
}

/** The process entry: read stdin, run, print, exit 0. */
export async function main(event: string | undefined, loadBundle?: BundleLoader): Promise<void> {
  if (loadBundle) useBundleLoader(loadBundle);
  const out = await runGeminiHook(event ?? '', await readStdin(), process.env);
  if (out) writeStdout(`${out}\n`);
  process.exitCode = 0;
}
