import { resolve } from 'node:path';
import { importSession, type ImportResult } from '../../app/transfer/import-session.ts';
import { AppError } from '../../core/errors.ts';
import { getShimHome } from '../../store/home/home.ts';
import { getVersion } from '../version.ts';
import { IMPORT_MAX_BYTES, readBounded, TooLargeError } from '../read-bounded.ts';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function counted(c: { added: number; skipped: number }, one: string, many?: string): string {
  return `${plural(c.added, one, many)}${c.skipped > 0 ? ` (${c.skipped} skipped: already here)` : ''}`;
}

export function describeImport(r: ImportResult): string {
  const verb = r.dryRun ? 'would add' : 'added';
  const lines = [
    `${r.dryRun ? 'Dry run: ' : ''}session ${r.sessionId} (${r.agent}): ${verb} ` +
      `${counted(r.checkpoints, 'checkpoint')}, ${counted(r.handoffs, 'handoff')}, ` +
      `${counted(r.compactionSummaries, 'compaction summary', 'compaction summaries')}; ` +
      `session row ${r.session === 'added' ? (r.dryRun ? 'new' : 'added') : r.session === 'skipped' ? 'skipped: already here' : 'not in the file'}.`,
  ];
  if (r.checkpoints.renumbered > 0)
    lines.push(
      `  ${plural(r.checkpoints.renumbered, 'checkpoint')} numbered after this store's own checkpoints of the session (their numbers were taken)`,
    );
  if (r.handoffs.withoutDocument > 0)
    lines.push(
      `  ${plural(r.handoffs.withoutDocument, 'handoff')} left out: the file has no document for it`,
    );
  if (r.redacted > 0) lines.push(`  redacted ${plural(r.redacted, 'secret')} the file still held`);
  lines.push(
    r.paths.action === 'mapped'
      ? `  paths moved from ${r.paths.from} onto this checkout, ${r.paths.to}`
      : `  paths kept as exported${r.paths.root ? ` (${r.paths.root})` : ''}: ${r.paths.why}`,
  );
  return lines.join('\n');
}

export async function runImport(
  file: string,
  options: { cwd?: string; dryRun?: boolean; json?: boolean },
): Promise<void> {
  const source = file === '-' ? 'standard input' : resolve(file);
  let text: string;
  try {
    text = (await readBounded(file === '-' ? '-' : resolve(file), IMPORT_MAX_BYTES)).toString(
      'utf8',
    );
  } catch (error) {
    throw new AppError(
      'USAGE',
      error instanceof TooLargeError
        ? `${source} holds ${error.message}: not a shim session export`
        : `cannot read ${source}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      'give the file `shim export` wrote, or - to read it from standard input',
    );
  }
  const result = await importSession({
    home: getShimHome(),
    text,
    name: file === '-' ? 'standard input' : file,
    cwd: resolve(options.cwd ?? '.'),
    shimVersion: getVersion(),
    dryRun: options.dryRun === true,
  });
  process.stdout.write(
    options.json ? `${JSON.stringify(result, null, 2)}\n` : `${describeImport(result)}\n`,
  );
}
