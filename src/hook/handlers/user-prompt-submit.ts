/** UserPromptSubmit: from L1 on, one factual line for the model about where the context stands. */
import { formatTurnsLeft, pluralFor } from '../../core/turns-left-text.ts';
import { loadHookContext } from '../context.ts';
import type { HookOutput } from '../output.ts';
import type { HookRun } from '../hook-run.ts';

export async function handleUserPromptSubmit(run: HookRun): Promise<HookOutput> {
  const context = await loadHookContext(run);
  if (!context || context.assessment.level === 'L0') return {};
  const a = context.assessment;
  const turns = a.forecast.turnsToCompact;
  const forecast =
    turns === null
      ? ''
      : turns === 0
        ? ' Auto-compaction is due.'
        : ` About ${formatTurnsLeft(a.forecast)!.replace(/^~/, '')} more ${pluralFor(a.forecast, 'response')} fit before auto-compaction.`;
  return {
    context: `[shim] Context is at ${Math.round(a.percent)}% of the auto-compact threshold (${a.level}).${forecast} Progress is checkpointed and will be restored after compaction; carry on with the user's request.`,
  };
}
