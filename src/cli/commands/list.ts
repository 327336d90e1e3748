import { withStore } from '../../app/open-store.ts';
import { getShimHome } from '../../store/home.ts';
import { renderTable } from '../format/table.ts';
import { colorRisk, dim } from '../format/text.ts';
import { formatAge, formatBytes } from '../format/units.ts';

export async function runList(options: {
  session?: string;
  cwd?: string;
  limit: string;
  json?: boolean;
}): Promise<void> {
  const limit = Math.max(1, Number.parseInt(options.limit, 10) || 20);
  const rows = await withStore(getShimHome(), ({ checkpoints }) =>
    checkpoints.list({
      ...(options.session ? { sessionId: options.session } : {}),
      ...(options.cwd ? { cwd: options.cwd } : {}),
      limit,
    }),
  );
  if (options.json) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return;
  }
  if (rows.length === 0) {
    process.stdout.write(dim('no checkpoints yet — take one with `shim checkpoint`\n'));
    return;
  }
  const now = Date.now();
  const table = renderTable(
    [
      'id',
      'session',
      '#',
      'taken',
      'trigger',
      'risk',
      'context',
      'done',
      'size',
      'restored',
      'working on',
    ],
    rows.map((r) => [
      r.id.slice(0, 8),
      r.sessionId.slice(0, 8),
      String(r.checkpointNumber),
      formatAge(now - Date.parse(r.createdAt)),
      r.triggeredBy,
      colorRisk(r.crashRisk),
      r.contextWindowUsage === null ? '' : `${Math.round(r.contextWindowUsage * 100)}%`,
      `${Math.round(r.progress * 100)}%`,
      formatBytes(r.size.compressed),
      r.restoredAt ? 'yes' : '',
      (r.operation ?? '').replace(/\s+/g, ' ').slice(0, 50),
    ]),
    ['left', 'left', 'right', 'right', 'left', 'left', 'right', 'right', 'right', 'left', 'left'],
  );
  process.stdout.write(
    `${table}\n${dim('context is of the raw window; `shim show <id>` for the full checkpoint')}\n`,
  );
}
