import { collectGarbage } from '../../app/collect-garbage.ts';
import { getShimHome } from '../../store/home.ts';

export async function runGc(options: { retentionDays: string; json?: boolean }): Promise<void> {
  const days = Number(options.retentionDays);
  const result = await collectGarbage({
    home: getShimHome(),
    retentionDays: days,
    now: Date.now(),
  });
  if (options.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else {
    process.stdout.write(
      `deleted ${result.deletedCheckpoints} checkpoint${result.deletedCheckpoints === 1 ? '' : 's'} older than ${days} days ` +
        `(each session keeps its newest), ${result.deletedSnapshots} git snapshot ref${result.deletedSnapshots === 1 ? '' : 's'}, ` +
        `${result.deletedCursors} stale transcript cursor${result.deletedCursors === 1 ? '' : 's'}\n`,
    );
  }
}
