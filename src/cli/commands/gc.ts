import { createInterface } from 'node:readline/promises';
import { collectGarbage, type GarbageResult } from '../../app/retention/collect-garbage.ts';
import { collectLoopGarbage } from '../../app/retention/collect-loop-garbage.ts';
import { describeLoopGarbage } from '../format/loop-garbage-text.ts';
import { loadConfig } from '../../store/config/config.ts';
import { warnConfigProblems } from '../format/config-warning.ts';
import { openStore } from '../../app/open-store.ts';
import { getShimHome } from '../../store/home/home.ts';
import { readJsonFile, writeJsonFileAtomic } from '../../store/home/json-file.ts';
import { ensureDir } from '../../store/home/home.ts';
import { join } from 'node:path';
import { formatBytes } from '../format/units.ts';

export type GcOptions = {
  retentionDays?: number;
  maxStoreMb?: number;
  loopHotDays?: number;
  dryRun?: boolean;
  yes?: boolean;
  auto?: boolean;
  json?: boolean;
};

/** More than this many checkpoints are not deleted on a terminal without a yes. */
const ASK_ABOVE = 5;
/** `--auto` runs at most this often (it is started at the end of every session). */
const AUTO_EVERY_MS = 24 * 3_600_000;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

async function askToDelete(count: number): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(
      `Delete ${plural(count, 'checkpoint')} (and their git snapshot refs)? [y/N] `,
    );
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

function describe(result: GarbageResult, verb: string): string {
  const cap =
    result.maxStoreMB !== null ? ` or to keep the store under ${result.maxStoreMB} MB` : '';
  return (
    `${verb} ${plural(result.deletedCheckpoints, 'checkpoint')} older than ${result.retentionDays} days${cap} ` +
    `(each session keeps its newest), ${plural(result.deletedSnapshots, 'git snapshot ref')}, ` +
    `${plural(result.deletedCursors, 'stale transcript cursor')}` +
    (result.dryRun
      ? ''
      : `; store ${formatBytes(result.storeBytes.before)} → ${formatBytes(result.storeBytes.after)}`)
  );
}

export async function runGc(options: GcOptions): Promise<void> {
  const home = getShimHome();
  const config = await loadConfig(home, { lenient: true });
  if (!options.auto) warnConfigProblems(config);
  const now = Date.now();
  if (options.auto) {
    // Started by the SessionEnd hook: once a day at most, and only when the user has it on.
    const marker = join(ensureDir(home, 'cache'), 'gc-last.json');
    const last = readJsonFile(marker) as { at?: number } | null;
    if (!config.retention.auto || (last?.at !== undefined && now - last.at < AUTO_EVERY_MS)) return;
    writeJsonFileAtomic(marker, { at: now });
  }
  const retentionDays = options.retentionDays ?? config.retention.days;
  const hotDays = options.loopHotDays ?? config.loopRetention.hotDays;
  const maxStoreMB = options.maxStoreMb ?? (options.auto ? config.retention.maxStoreMB : null);
  const interactive =
    process.stdin.isTTY === true && !options.yes && !options.json && !options.auto;
  const result = await collectGarbage({
    home,
    retentionDays,
    now,
    maxStoreMB,
    dryRun: options.dryRun === true,
    ...(interactive ? { confirm: (n: number) => (n > ASK_ABOVE ? askToDelete(n) : true) } : {}),
  });
  let loops = null;
  if (!options.dryRun) {
    const store = openStore(home);
    try {
      loops = collectLoopGarbage({ store, home, now, hotDays, retentionDays });
    } finally {
      store.close();
    }
  }
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ ...result, loops }, null, 2)}\n`);
    return;
  }
  if (options.auto) return;
  process.stdout.write(
    `${describe(result, options.dryRun ? 'would delete' : 'deleted')}\n` +
      (loops ? `${describeLoopGarbage(loops)}\n` : 'loop runs: not touched in a dry run\n'),
  );
}
