import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { exportSession, type ExportResult } from '../../app/transfer/export-session.ts';
import { resolveScope } from '../../app/project-scope.ts';
import { AppError } from '../../core/errors.ts';
import { getShimHome } from '../../store/home/home.ts';
import { getVersion } from '../version.ts';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function describeExport(r: ExportResult, where: string): string {
  return [
    `session ${r.sessionId} (${r.agent}): exported ${plural(r.checkpoints, 'checkpoint')}, ` +
      `${plural(r.handoffs, 'handoff')}, ${plural(r.compactionSummaries, 'compaction summary', 'compaction summaries')} to ${where} (${r.bytes} bytes).`,
    r.project
      ? `  project ${r.project.id} at ${r.project.root}`
      : '  project: its directory is not on this machine; an import keeps the paths as they are',
    r.redacted > 0 ? `  redacted ${plural(r.redacted, 'more secret')} on the way out` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

export async function runExport(
  positional: string | undefined,
  options: { session?: string; out?: string; cwd?: string; all?: boolean; json?: boolean },
): Promise<void> {
  if (positional !== undefined && options.session !== undefined && positional !== options.session)
    throw new AppError(
      'USAGE',
      `two sessions given ("${positional}" and --session "${options.session}")`,
      'give one',
    );
  const { text, result } = await exportSession({
    home: getShimHome(),
    session: positional ?? options.session,
    scope: resolveScope(options, process.cwd()),
    shimVersion: getVersion(),
    now: Date.now(),
  });
  const toStdout = options.out === undefined || options.out === '-';
  if (toStdout) process.stdout.write(text);
  else writeFileSync(resolve(options.out!), text, { mode: 0o600 });
  const where = toStdout ? 'standard output' : resolve(options.out!);
  const summary = options.json
    ? `${JSON.stringify(result, null, 2)}\n`
    : `${describeExport(result, where)}\n`;
  // The file owns stdout when it goes there: the summary then goes to stderr.
  (toStdout ? process.stderr : process.stdout).write(summary);
}
