/**
 * The entry of dist/hook-ask.cjs, which bin/shim.cjs runs first for PostToolUse and
 * PostToolUseFailure: read the payload, hand it to the warm look (store/home/warm-look-place.ts),
 * print its answer.
 * Only when none answers is the hook's own code loaded (dist/hook-quick.cjs, then dist/hook.cjs
 * if that has no quick answer), with the input already read. Tiny on purpose and required
 * without the code cache: a call the warm process answers costs Node's start and a few system
 * calls, not the loading of a bundle (docs/hot-path.md, "The warm look").
 * @module
 */
import { readStdin } from '../../capture/stdin.ts';
import { writeStdout } from '../../capture/stdout.ts';
import { getShimHome } from '../../store/home/home.ts';
import type { BundleLoader } from '../../app/load-bundle.ts';
import { askWarmLook, retireWarmLook, type AskOutcome, type WhyLookHere } from './ask.ts';
import { trustedWarmLookDir } from '../../store/home/warm-look-place.ts';

/** What dist/hook-quick.cjs (src/entries/hook-quick.ts) takes over with. */
type QuickEntry = {
  mainWithInput: (
    event: string | undefined,
    input: string,
    loadBundle: BundleLoader,
    asked?: WhyLookHere,
    agentId?: string,
  ) => Promise<void>;
};

/**
 * How long a hook waits for a warm process that is alive but silent before looking itself: far
 * longer than a look takes on a loaded machine (ms), so only a stuck process is given up on, and
 * well inside the 10 s Claude Code gives the hook (agents/claude/settings/hook-spec.ts).
 */
const WAIT_MS = 5_000;

/** The warm process's answer, or why the hook must answer itself. */
export function askFirst(
  event: string,
  input: string,
  env: NodeJS.ProcessEnv,
  agentId?: string,
): AskOutcome {
  const home = getShimHome(env);
  // Only a directory of this user's nobody else can write into is asked (a link, another user's
  // or one open to all could hold another process's pipes): otherwise the hook looks itself.
  const dir = trustedWarmLookDir(home);
  if (!dir) return { out: null, why: 'none' };
  const wait = Number(env.SHIM_WARM_LOOK_WAIT_MS);
  const outcome = askWarmLook(
    dir,
    {
      id: `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`,
      event,
      input,
      env,
      parentPid: process.ppid,
      cwd: process.cwd(),
      ...(agentId ? { agent: agentId } : {}),
    },
    wait > 0 ? wait : WAIT_MS,
  );
  // A process that is alive but did not answer in time is taken out of service: the next call
  // starts a fresh one. It logs nothing from here: the quick bundle says why it started one.
  if (outcome.out === null && outcome.why === 'slow') retireWarmLook(dir);
  return outcome;
}

/** `agentId`: the agent whose hook this is (Codex's, Gemini's); Claude Code's when absent. */
export async function main(
  event: string | undefined,
  loadBundle: BundleLoader,
  agentId?: string,
): Promise<void> {
  const input = await readStdin();
  const outcome = askFirst(event ?? '', input, process.env, agentId);
  if (outcome.out === null) {
    await (loadBundle('hook-quick.cjs') as QuickEntry).mainWithInput(
      event,
      input,
      loadBundle,
      outcome.why,
      agentId,
    );
    return;
  }
  if (outcome.out) writeStdout(`${outcome.out}\n`);
  process.exitCode = 0;
}
