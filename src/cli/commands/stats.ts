import { withStore } from '../../app/open-store.ts';
import { describeScope, resolveScope } from '../../app/project-scope.ts';
import { collectStats, type Stats } from '../../app/stats.ts';
import {
  describeCheckpointFailure,
  readCheckpointFailures,
  type CheckpointFailure,
} from '../../store/cache/checkpoint-failures.ts';
import { agentLabel } from '../../core/agent-id.ts';
import { getShimHome } from '../../store/home/home.ts';
import { renderTable } from '../format/table.ts';
import { bold, colorRisk, dim } from '../format/text.ts';

const agentNames = (byAgent: Record<string, number>) =>
  Object.fromEntries(Object.entries(byAgent).map(([id, n]) => [agentLabel(id), n]));
const pct = (x: number | null) => (x === null ? '–' : `${Math.round(x * 100)}%`);
const counts = (byKey: Record<string, number>) =>
  Object.entries(byKey)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${n}`)
    .join(', ') || '–';

/** Sessions whose newest checkpoints failed: said first, whatever else there is to show. */
function renderFailures(failures: CheckpointFailure[]): string {
  if (failures.length === 0) return '';
  const lines = failures
    .slice(0, 5)
    .map((f) => `  ${colorRisk('danger', 'checkpoint failed')}  ${describeCheckpointFailure(f)}`);
  if (failures.length > 5) lines.push(dim(`  … and ${failures.length - 5} more (shim doctor)`));
  return `${lines.join('\n')}\n\n`;
}

function renderStats(stats: Stats & { checkpointFailures: CheckpointFailure[] }): string {
  const t = stats.totals;
  const failed = renderFailures(stats.checkpointFailures);
  if (t.sessions === 0) {
    const hint = stats.scope.kind === 'project' ? ', or see every project with --all' : '';
    return (
      failed +
      dim(
        `no checkpoints in ${describeScope(stats.scope)} yet — shim's hooks take them as you work (\`shim install\`)${hint}\n`,
      )
    );
  }
  const lines = [
    `${bold('shim stats')} · ${describeScope(stats.scope)} · ${t.sessions} session${t.sessions === 1 ? '' : 's'}` +
      dim(` (${counts(agentNames(t.sessionsByAgent))})`),
    '',
    `  checkpoints   ${t.checkpoints} (${counts(t.checkpointsByTrigger)})`,
    `  restores      ${t.restores}: went on working ${t.restoresSucceeded}, ended without a new message ${t.restoresFailed}, open ${t.restores - t.restoresSucceeded - t.restoresFailed}`,
    `  carried       shim's restore ${pct(t.restoreFidelity)} of the requests, files and open tasks; Claude Code's summary ${pct(t.claudeSummaryFidelity)} (${t.compactionSummaries} summar${t.compactionSummaries === 1 ? 'y' : 'ies'} kept)`,
    `  risk samples  ${counts(t.signalSamples)}`,
  ];
  if (stats.sessions.length > 0) {
    lines.push('');
    lines.push(
      renderTable(
        ['session', 'agent', 'last checkpoint', 'checkpoints', 'restores', 'ok', 'shim', 'Claude'],
        stats.sessions.map((s) => [
          s.sessionId.slice(0, 8),
          agentLabel(s.agent),
          s.lastSeenAt?.slice(0, 16).replace('T', ' ') ?? '–',
          String(Object.values(s.checkpointsByTrigger).reduce((a, b) => a + b, 0)),
          String(s.restores),
          String(s.restoresSucceeded),
          pct(s.restoreFidelity),
          pct(s.claudeSummaryFidelity),
        ]),
      ),
    );
  }
  lines.push(
    dim(
      "\n  shim / Claude: share of the session's requests, changed files and open tasks carried into the next context",
    ),
  );
  return `${failed}${lines.join('\n')}\n`;
}

export async function runStats(options: {
  cwd?: string;
  all?: boolean;
  limit: number;
  json?: boolean;
}): Promise<void> {
  const scope = resolveScope(options, process.cwd());
  const home = getShimHome();
  const stats = {
    ...(await withStore(home, (store) => collectStats(store, scope, options.limit))),
    checkpointFailures: readCheckpointFailures(home),
  };
  process.stdout.write(options.json ? `${JSON.stringify(stats, null, 2)}\n` : renderStats(stats));
}
