import { withStore } from '../../app/open-store.ts';
import { learnedMemory, withoutLearned } from '../../app/checkpoint/learned-scrub.ts';
import { teamListRows, type RowFrom } from '../../app/team/team-beside-local.ts';
import { loadConfig } from '../../store/config/config.ts';
import type { CheckpointSummary } from '../../store/ports/checkpoints.ts';
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
  const home = getShimHome();
  const { local, learned } = await withStore(home, (store) => ({
    local: store.checkpoints.list({
      ...(options.session ? { sessionId: options.session } : {}),
      ...(scope.kind === 'project' ? { project: scope.root } : {}),
      limit,
    }),
    // What the home learned is a secret: a title may predate it.
    learned: learnedMemory(store),
  }));
  // With a team store connected, the other machines' and teammates' checkpoints of the scope
  // too (of the session: its rows another machine sent, in the projects this machine has).
  const team = await teamListRows({
    home,
    env: process.env,
    config: await loadConfig(home, { lenient: true }),
    cwd: scope.kind === 'project' ? scope.root : process.cwd(),
    ...(scope.kind === 'all' ? { all: true } : {}),
    ...(options.session ? { sessionId: options.session } : {}),
    limit,
  });
  const rows: Array<CheckpointSummary & { from: RowFrom }> = withoutLearned(
    [...local.map((r) => ({ ...r, from: null })), ...(team?.rows ?? [])]
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
      .slice(0, limit),
    learned,
  );
  const teamNote = team?.error ? dim(`team store not read (${team.error})\n`) : '';
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify(team ? rows : withoutLearned(local, learned), null, 2)}\n`,
    );
    if (teamNote) process.stderr.write(teamNote);
    return;
  }
  process.stderr.write(teamNote);
  if (rows.length === 0) {
    process.stdout.write(
      dim(
        `no checkpoints in ${where} — take one with \`shim checkpoint\`${scope.kind === 'project' ? ', or see every project with --all' : ''}\n`,
      ),
    );
    return;
  }
  const now = Date.now();
  const fromColumn = team !== null;
  const table = renderTable(
    [
      ...(fromColumn ? ['from'] : []),
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
      ...(fromColumn ? [r.from ? `${r.from.osUser}@${r.from.machine}` : 'here'] : []),
      r.id.slice(0, 8),
      r.sessionId.slice(0, 8),
      agentName(r.agent),
      String(r.checkpointNumber),
      formatAge(now - Date.parse(r.createdAt)),
      r.triggeredBy,
      colorRisk(r.crashRisk),
      r.contextPercent === null ? '' : `${Math.round(r.contextPercent)}%`,
      `${Math.round(r.progress * 100)}%`,
      r.from ? '' : formatBytes(r.size.compressed),
      r.restoredAt ? 'yes' : '',
      cutAtWord((r.operation ?? '').replace(/\s+/g, ' '), 50),
    ]),
    [
      ...(fromColumn ? (['left'] as const) : []),
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
    `${dim(`checkpoints of ${where}, newest first${fromColumn ? ", this machine's and the team store's" : ''}${scope.kind === 'project' && !options.session ? ' (--all: every project)' : ''}`)}\n${table}\n${dim('context is the share of the auto-compact threshold in use; `shim show <id>` for the full checkpoint')}\n`,
  );
}
