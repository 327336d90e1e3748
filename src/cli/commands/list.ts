import { withStore } from '../../app/open-store.ts';
import { describeScope, resolveScope } from '../../app/project-scope.ts';
import { agentName } from '../../core/agent-id.ts';
import { getShimHome } from '../../store/home/home.ts';
import { renderTable } from '../format/table.ts';
import { colorRisk, dim } from '../format/text.ts';
import { formatAge, formatBytes } from '../format/units.ts';

/** At most `max` characters, cut after a whole word, marked with an ellipsis. */
function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf(' ', max - 1);
  return `${text.slice(0, cut > max / 2 ? cut : max - 1)}…`;
}

export async function runList(options: {
  session?: string;
  cwd?: string;
  all?: boolean;
  limit: number;
  json?: boolean;
}): Promise<void> {
  const limit = options.limit;
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
      'agent',
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
      agentName(r.agent),
      String(r.checkpointNumber),
      formatAge(now - Date.parse(r.createdAt)),
      r.triggeredBy,
      colorRisk(r.crashRisk),
      r.contextPercent === null ? '' : `${Math.round(r.contextPercent)}%`,
      `${Math.round(r.progress * 100)}%`,
      formatBytes(r.size.compressed),
      r.restoredAt ? 'yes' : '',
      cutAtWord((r.operation ?? '').replace(/\s+/g, ' '), 50),
    ]),
    [
      'left',
      'left',
      'left',
      'right',
      'right',
      'left',
      'left',
      'right',
      'right',
      'right',
      'left',
      'left',
    ],
  );
  process.stdout.write(
    `${dim(`checkpoints of ${where}, newest first${scope.kind === 'project' && !options.session ? ' (--all: every project)' : ''}`)}\n${table}\n${dim('context is the share of the auto-compact threshold in use; `shim show <id>` for the full checkpoint')}\n`,
  );
}
