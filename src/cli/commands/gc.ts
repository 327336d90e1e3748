import { collectGarbage } from '../../app/collect-garbage.ts';
import { collectLoopGarbage, describeLoopGarbage } from '../../app/collect-loop-garbage.ts';
import { AppError } from '../../core/errors.ts';
import { openDatabase } from '../../store/database.ts';
import { getShimHome } from '../../store/home.ts';

function days(value: string, name: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0)
    throw new AppError('USAGE', `${name} must be a number of days, got "${value}"`);
  return n;
}

export async function runGc(options: {
  retentionDays: string;
  loopHotDays: string;
  json?: boolean;
}): Promise<void> {
  const home = getShimHome();
  const retentionDays = days(options.retentionDays, '--retention-days');
  const hotDays = days(options.loopHotDays, '--loop-hot-days');
  const now = Date.now();
  const result = await collectGarbage({ home, retentionDays, now });
  const db = openDatabase(home);
  let loops;
  try {
    loops = collectLoopGarbage({ db, home, now, hotDays, retentionDays });
  } finally {
    db.close();
  }
  if (options.json) process.stdout.write(`${JSON.stringify({ ...result, loops }, null, 2)}\n`);
  else {
    process.stdout.write(
      `deleted ${result.deletedCheckpoints} checkpoint${result.deletedCheckpoints === 1 ? '' : 's'} older than ${retentionDays} days ` +
        `(each session keeps its newest), ${result.deletedSnapshots} git snapshot ref${result.deletedSnapshots === 1 ? '' : 's'}, ` +
        `${result.deletedCursors} stale transcript cursor${result.deletedCursors === 1 ? '' : 's'}\n` +
        `${describeLoopGarbage(loops)}\n`,
    );
  }
}
