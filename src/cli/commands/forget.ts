import { forget, type ForgetResult } from '../../app/retention/forget.ts';
import { getShimHome } from '../../store/home/home.ts';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function describeForget(r: ForgetResult): string {
  const rows = Object.entries(r.rows)
    .filter(([, n]) => n > 0)
    .map(([table, n]) => `${table} ${n}`)
    .join(', ');
  const what = r.target.kind === 'session' ? `session ${r.target.id}` : `checkpoint ${r.target.id}`;
  const verb = r.dryRun ? 'would remove' : 'removed';
  return [
    `${r.dryRun ? 'Dry run: ' : ''}${what}: ${verb} ${plural(r.checkpoints.length, 'checkpoint')}` +
      `, ${plural(r.handoffFiles.length, 'handoff document')}, ${plural(r.snapshotRefs, 'snapshot ref')}` +
      (r.target.kind === 'session' ? `, ${plural(r.cacheFiles, 'cache file')}` : '') +
      '.',
    rows ? `  rows: ${rows}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

export async function runForget(
  what: string,
  options: { dryRun?: boolean; json?: boolean },
): Promise<void> {
  const result = await forget({
    home: getShimHome(),
    what,
    dryRun: options.dryRun === true,
  });
  process.stdout.write(
    options.json ? `${JSON.stringify(result, null, 2)}\n` : `${describeForget(result)}\n`,
  );
}
