import { forget, type ForgetResult } from '../../app/retention/forget.ts';
import { loadConfig } from '../../store/config/config.ts';
import { getShimHome } from '../../store/home/home.ts';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function describeForget(r: ForgetResult): string {
  const rows = Object.entries(r.rows)
    .filter(([, n]) => n > 0)
    .map(([table, n]) => `${table} ${n}`)
    .join(', ');
  const what = r.target.kind === 'session' ? `session ${r.target.id}` : `checkpoint ${r.target.id}`;
  const verb = r.dryRun ? 'would remove' : 'removed';
  const team = r.team
    ? Object.entries(r.team)
        .filter(([, n]) => n > 0)
        .map(([table, n]) => `${table} ${n}`)
        .join(', ') || 'nothing was there'
    : null;
  return [
    `${r.dryRun ? 'Dry run: ' : ''}${what}: ${verb} ${plural(r.checkpoints.length, 'checkpoint')}` +
      `, ${plural(r.handoffFiles.length, 'handoff document')}, ${plural(r.snapshotRefs, 'snapshot ref')}` +
      (r.target.kind === 'session'
        ? `, ${plural(r.cacheFiles, 'cache file')}, ${plural(r.profileEntries, 'growth profile window')}`
        : '') +
      '.',
    rows ? `  rows: ${rows}` : '',
    team !== null ? `  team store: ${team}` : '',
    r.teamError !== null
      ? `  team store not reached (${r.teamError}): run \`shim forget ${r.target.id}\` again when it answers`
      : '',
    r.restoredInto.length > 0
      ? `  restored from it (they keep their own rows, and may carry its words on): ${r.restoredInto.join(', ')} — forget them too with \`shim forget <session>\``
      : '',
  ]
    .filter(Boolean)
    .join('\n');
}

export async function runForget(
  what: string,
  options: { dryRun?: boolean; json?: boolean },
): Promise<void> {
  const home = getShimHome();
  // The team store's copy goes too: no other machine restores or finds it any more.
  const result = await forget({
    home,
    what,
    dryRun: options.dryRun === true,
    team: { config: await loadConfig(home, { lenient: true }), env: process.env },
  });
  process.stdout.write(
    options.json ? `${JSON.stringify(result, null, 2)}\n` : `${describeForget(result)}\n`,
  );
}
