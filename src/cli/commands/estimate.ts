import { estimateOpenTasks, type TaskFitEstimate } from '../../app/estimate-tasks.ts';
import { getShimHome } from '../../store/home.ts';

const k = (n: number) => `${Math.round(n / 1000)}k`;

/** The contract's object (docs/estimates.md): these keys, in this order. */
function toJson(e: TaskFitEstimate) {
  return {
    openTasks: e.openTasks,
    tokens: e.tokens,
    low: e.low,
    high: e.high,
    remainingContext: e.remainingContext,
    fits: e.fits,
  };
}

function toText(e: TaskFitEstimate): string {
  const lines = [`shim estimate · ${e.transcriptPath} · line ${e.line}`];
  if (e.tokens === null) {
    lines.push('  No open tasks: nothing to estimate.');
  } else {
    const verdict = { fits: 'fits', tight: 'tight', 'wont-fit': "won't fit", 'no-open-tasks': '' }[
      e.verdict
    ];
    lines.push(
      `  ${e.openTasks} open task${e.openTasks === 1 ? '' : 's'}: ~${k(e.tokens)} tokens (80%: ${k(e.low!)}–${k(e.high!)})`,
      `  left before compaction: ${k(e.remainingContext)} · a fresh session: ${k(e.freshContext)}`,
      `  → ${verdict}: ${e.reason}`,
    );
    for (const title of e.open.slice(0, 8)) lines.push(`    - ${title}`);
    if (e.open.length > 8) lines.push(`    … and ${e.open.length - 8} more`);
  }
  lines.push(
    `  learned from ${e.learnedFrom.points} task points in ${e.learnedFrom.sessions} sessions${e.learnedFrom.points < 20 ? ' (too few: built-in estimates)' : ''}`,
  );
  return lines.join('\n');
}

export async function runEstimate(options: {
  transcript?: string;
  session?: string;
  untilLine?: number;
  history?: string;
  json?: boolean;
}): Promise<void> {
  const estimate = await estimateOpenTasks({
    ...(options.transcript !== undefined ? { transcript: options.transcript } : {}),
    ...(options.session !== undefined ? { sessionId: options.session } : {}),
    ...(options.untilLine !== undefined ? { untilLine: options.untilLine } : {}),
    ...(options.history !== undefined ? { historyDir: options.history } : {}),
    cwd: process.cwd(),
    env: process.env,
    home: getShimHome(),
    now: Date.now(),
    ...(options.json ? {} : { onProgress: (m: string) => process.stderr.write(`${m}\n`) }),
  });
  process.stdout.write(
    options.json ? `${JSON.stringify(toJson(estimate))}\n` : `${toText(estimate)}\n`,
  );
}
