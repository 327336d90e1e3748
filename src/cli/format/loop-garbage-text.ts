import type { LoopGarbageResult } from '../../app/retention/collect-loop-garbage.ts';
import { formatBytes } from './units.ts';

/** One line for `shim gc`: what happened (or, with dryRun, would happen) to loop runs. */
export function describeLoopGarbage(result: LoopGarbageResult, dryRun = false): string {
  if (result.compacted.length === 0 && result.deleted.length === 0)
    return 'loop runs: nothing to collect';
  const runs = (n: number) => `${n} run${n === 1 ? '' : 's'}`;
  const [compact, del, free] = dryRun
    ? ['would compact', 'would delete', 'would free']
    : ['compacted', 'deleted', 'freed'];
  return `loop runs: ${compact} ${runs(result.compacted.length)}, ${del} ${runs(result.deleted.length)}, ${free} ${formatBytes(result.freedBytes)}`;
}
