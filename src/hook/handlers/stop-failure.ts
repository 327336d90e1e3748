/**
 * StopFailure (2.1.330+): the turn ended on an API error. At a usage or rate limit, shim writes
 * the handoff the next session picks up (hook/limit-stop.ts); other failures are left to the
 * crash path.
 * @module
 */
import { isLimitMessage } from '../../core/loop/usage-limit.ts';
import type { HookOutput } from '../../agents/agent.ts';
import type { HookRun } from '../hook-run.ts';
import { handOffAtLimit } from '../limit-stop.ts';

export async function handleStopFailure(run: HookRun): Promise<HookOutput> {
  const { raw } = run.payload;
  const details = [raw.error_details, raw.last_assistant_message]
    .filter((v): v is string => typeof v === 'string')
    .join('\n');
  if (raw.error !== 'rate_limit' && !isLimitMessage(details)) return {};
  const written = await handOffAtLimit(run, details || 'rate_limit');
  if (!written) return {};
  return {
    userMessage: `shim: ${written.line.replace(/^> /, '')} A handoff is written (${written.path}); the next session in this project, or this one resumed, picks it up once.`,
  };
}
