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
      ? `  restored from it (they keep their own rows, and may carry its words on): ${r.restoredInto.join(', ')} — forget them too with \`shim forget ${r.target.id} --with-restored\` (or each with \`shim forget <session>\`)`
      : '',
  ]
    .filter(Boolean)
    .join('\n');
}

/**
 * The sessions restored from the forgotten one, and those restored from them, forgotten in turn
 * (`--with-restored`). One that cannot be forgotten is said and the others still go.
 */
async function forgetRestored(
  first: ForgetResult,
  request: Omit<Parameters<typeof forget>[0], 'what'>,
): Promise<Array<ForgetResult | { session: string; error: string }>> {
  const done: Array<ForgetResult | { session: string; error: string }> = [];
  const seen = new Set([first.target.id]);
  const waiting = [...first.restoredInto];
  for (let id = waiting.shift(); id !== undefined; id = waiting.shift()) {
    if (seen.has(id)) continue;
    seen.add(id);
    try {
      const result = await forget({ ...request, what: id });
      done.push(result);
      waiting.push(...result.restoredInto);
    } catch (error) {
      done.push({ session: id, error: (error as Error).message });
    }
  }
  return done;
}

export async function runForget(
  what: string,
  options: { dryRun?: boolean; json?: boolean; withRestored?: boolean },
): Promise<void> {
  const home = getShimHome();
  // The team store's copy goes too: no other machine restores or finds it any more.
  const request = {
    home,
    dryRun: options.dryRun === true,
    team: { config: await loadConfig(home, { lenient: true }), env: process.env },
  };
  const result = await forget({ ...request, what });
  const also = options.withRestored ? await forgetRestored(result, request) : null;
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify(also ? { ...result, alsoForgotten: also } : result, null, 2)}\n`,
    );
    return;
  }
  const lines = [describeForget(result)];
  for (const other of also ?? [])
    lines.push(
      'error' in other
        ? `session ${other.session} (restored from it): not forgotten: ${other.error}`
        : describeForget(other),
    );
  process.stdout.write(`${lines.join('\n')}\n`);
}
