/**
 * The entry of dist/hook-quick.cjs, which bin/shim.cjs runs for PostToolUse and
 * PostToolUseFailure: the answers that need no look at the session (handlers/post-tool-use-
 * quick.ts) from a bundle a fraction of the full hook's size; everything else, and anything
 * unusual (a config problem or a store recovery to report, a bad payload), is handed to the full
 * hook (dist/hook.cjs) with the input already read.
 * @module
 */
import { findProjectRoot } from '../capture/project.ts';
import { readStdin } from '../capture/stdin.ts';
import { writeStdout } from '../capture/stdout.ts';
import { loadConfig } from '../store/config.ts';
import { getShimHome, type Env } from '../store/home.ts';
import { appendLog } from '../store/log.ts';
import { readRecoveryNotice } from '../store/recovery-notice.ts';
import { answerWithoutLooking } from './handlers/post-tool-use-quick.ts';
import { loadBundled, useBundleLoader, type BundleLoader } from '../app/load-bundle.ts';
import { renderHookOutput } from '../agents/claude/hook-output.ts';
import { DOCTOR_SESSION, parsePayload } from '../agents/claude/hook-payload.ts';
import type { QuickHandover } from './hook-run.ts';
import type * as FullHook from './run.ts';

/**
 * stdout's text when the quick paths answer; null when the full hook must run, with what was
 * read on the way (the payload and the config) when the full hook may use it as it is.
 */
export async function answerQuickly(
  event: string,
  input: string,
  env: Env,
  now = Date.now(),
): Promise<{ out: string } | { out: null; handover: QuickHandover | null }> {
  const home = getShimHome(env);
  try {
    const { payload, error } = parsePayload(input, event);
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
    const output = await answerWithoutLooking({ payload, env, home, now, config });
    return output
      ? { out: renderHookOutput(event, output) }
      : { out: null, handover: { payload, config } };
  } catch (error) {
    appendLog(home, 'warn', `hook ${event}: quick answer failed, looking fully`, {
      error: error instanceof Error ? error.message : String(error),
    });
    return { out: null, handover: null };
  }
}

export async function main(event: string | undefined, loadBundle: BundleLoader): Promise<void> {
  useBundleLoader(loadBundle);
  const input = await readStdin();
  const answer = await answerQuickly(event ?? '', input, process.env);
  if (answer.out === null) {
    await (loadBundled('hook.cjs') as typeof FullHook).mainWithInput(
      event,
      input,
      loadBundle,
      'claude',
      answer.handover ?? undefined,
    );
    return;
  }
  if (answer.out) writeStdout(`${answer.out}\n`);
  process.exitCode = 0;
}
