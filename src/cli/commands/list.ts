import { withStore } from '../../app/open-store.ts';
import { describeScope, resolveScope } from '../../app/project-scope.ts';
import { getShimHome } from '../../store/home.ts';
import { renderTable } from '../format/table.ts';
import { colorRisk, dim } from '../format/text.ts';
import { formatAge, formatBytes } from '../format/units.ts';

export async function runList(options: {
  session?: string;
  cwd?: string;
  all?: boolean;
  limit: string;
  json?: boolean;
}): Promise<void> {
  const limit = Math.max(1, Number.parseInt(options.limit, 10) || 20);
  // A session id is explicit: its checkpoints wherever it ran.
  const scope = resolveScope({ ...options, all: options.all || !!options.session }, process.cwd());
  const where = options.session ? `session ${options.session}` : describeScope(scope);
  const rows = await withStore(getShimHome(), ({ checkpoints }) =>
    checkpoints.list({
      ...(options.session ? { sessionId: options.session } : {}),
      ...(scope.kind === 'project' ? { project: scope.root } : {}),
      limit,
    }),
  );
  if (options.json) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return;
  }
  if (rows.length === 0) {
    process.stdout.write(
      dim(
        `no checkpoints in ${where} — take one with \`shim checkpoint\`${scope.kind === 'project' ? ', or see every project with --all' : ''}\n`,
      ),
    );
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
    `${dim(`checkpoints of ${where}, newest first${scope.kind === 'project' && !options.session ? ' (--all: every project)' : ''}`)}\n${table}\n${dim('context is of the raw window; `shim show <id>` for the full checkpoint')}\n`,
  );
}
