/**
 * The entry of dist/hook-quick.cjs, which dist/hook-ask.cjs loads for PostToolUse and
 * PostToolUseFailure when no warm process answered (the warm process runs the same code itself,
 * warm-look/serve.ts): the answers that need no look at the session (handlers/post-tool-use-
 * quick.ts) from a bundle a fraction of the full hook's size; everything else, and anything
 * unusual (a config problem or a store recovery to report, a bad payload), is handed to the full
 * hook (dist/hook.cjs) with the input already read.
 * @module
 */
import { statSync } from 'node:fs';
import { findProjectRoot } from '../capture/project.ts';
import { writeStdout } from '../capture/stdout.ts';
import { loadConfig } from '../store/config/config.ts';
import { getShimHome, type Env } from '../store/home/home.ts';
import { appendLog } from '../store/home/log.ts';
import { readRecoveryNotice } from '../store/home/recovery-notice.ts';
import { answerWithoutLooking } from './handlers/post-tool-use-quick.ts';
import { loadBundled, useBundleLoader, type BundleLoader } from '../app/load-bundle.ts';
import { DOCTOR_SESSION, type QuickAgent } from '../agents/agent.ts';
import type { QuickHandover } from './hook-run.ts';
import type { WhyLookHere } from './warm-look/ask.ts';
import { currentWarmLookDir } from '../store/home/warm-look-place.ts';
import { startWarmLook } from './warm-look/start.ts';

/**
 * stdout's text when the quick paths answer (with the session's transcript, for the warm look
 * to read ahead); null when the full hook must run, with what was read on the way (the payload
 * and the config) when the full hook may use it as it is.
 */
export async function answerQuickly(
  agent: QuickAgent,
  event: string,
  input: string,
  env: Env,
  now = Date.now(),
): Promise<
  { out: string; transcriptPath?: string | null } | { out: null; handover: QuickHandover | null }
> {
  const home = getShimHome(env);
  try {
    const { payload, error } = agent.hooks.parse(input, event);
    if (error || !payload.sessionId || payload.sessionId === DOCTOR_SESSION)
      return { out: null, handover: null };
    const config = await loadConfig(home, {
      lenient: true,
      projectRoot: payload.cwd ? findProjectRoot(payload.cwd) : null,
    });
    if (!config.enabled) return { out: '' };
    // Notices about shim itself are the full hook's to give.
    if (config.problems.length > 0 || readRecoveryNotice(home)?.shownInHook === false)
      return { out: null, handover: null };
    const output = await answerWithoutLooking({ payload, env, home, now, config, agent });
    return output
      ? { out: agent.hooks.render(event, output), transcriptPath: payload.transcriptPath }
      : { out: null, handover: { payload, config } };
  } catch (error) {
    appendLog(home, 'warn', `hook ${event}: quick answer failed, looking fully`, {
      error: error instanceof Error ? error.message : String(error),
    });
    return { out: null, handover: null };
  }
}

/** What the full hook (dist/hook.cjs, src/entries/hook.ts) takes over with. */
export type FullHookEntry = {
  mainWithInput: (
    agentId: string,
    event: string | undefined,
    input: string,
    loadBundle: BundleLoader,
    handover?: QuickHandover,
  ) => Promise<void>;
};

/**
 * dist/hook-ask.cjs hands over what the warm look did not answer, with the input it read and why
 * (`asked`): answered here when `agent` (one this bundle carries) needs no look, else handed to
 * the full hook. A full look with no warm process to do it starts one for the next calls
 * (warm-look/start.ts).
 */
export async function mainWithInput(
  agent: QuickAgent | null,
  agentId: string,
  event: string | undefined,
  input: string,
  loadBundle: BundleLoader,
  asked?: WhyLookHere,
): Promise<void> {
  useBundleLoader(loadBundle);
  const answer = agent
    ? await answerQuickly(agent, event ?? '', input, process.env)
    : { out: null, handover: null };
  if (answer.out === null) {
    if (
      answer.handover?.config.warmLook &&
      (asked === 'none' || asked === 'gone' || asked === 'slow') &&
      isSessionFile(answer.handover.payload.transcriptPath)
    )
      await startWarmProcess(asked, process.env);
    await (loadBundled('hook.cjs') as FullHookEntry).mainWithInput(
      agentId,
      event,
      input,
      loadBundle,
      answer.handover ?? undefined,
    );
    return;
  }
  if (answer.out) writeStdout(`${answer.out}\n`);
  process.exitCode = 0;
}

/** A call about no session file (a payload typed by hand, a log gone) starts no process for later calls. */
function isSessionFile(path: string | null): boolean {
  try {
    return path !== null && statSync(path).isFile();
  } catch {
    return false;
  }
}

async function startWarmProcess(asked: WhyLookHere, env: Env): Promise<void> {
  const home = getShimHome(env);
  const dir = currentWarmLookDir(home);
  if (!dir) return;
  if (asked === 'slow')
    appendLog(home, 'warn', 'warm look: no answer in time; retired it, looking here', { dir });
  await startWarmLook(dir, home, env);
}
