/** The readable `shim status` summary. */
import { LEVEL_NAMES } from '../../core/context/level.ts';
import type { SessionStatus } from '../../app/session/status.ts';
import { truncate } from '../../core/truncate.ts';
import { formatTurnsLeft, pluralFor } from '../../core/context/turns-left-text.ts';
import {
  bold,
  colorLevel,
  colorRisk,
  dim,
  formatDuration,
  formatPercent,
  formatTokens,
  formatWindow,
  renderBar,
} from './text.ts';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const LABEL_WIDTH = 10;
const label = (name: string) => bold(name.padEnd(LABEL_WIDTH));
const indent = ' '.repeat(LABEL_WIDTH + 2);

function describeForecast(status: SessionStatus): string {
  const { forecast, autoCompact } = status.assessment;
  if (!autoCompact) return 'auto-compaction is disabled; nothing to forecast';
  if (forecast.growthPerTurn === null)
    return dim('not enough responses since the last compaction yet');
  const parts = [
    `${forecast.growthPerTurn >= 0 ? '+' : ''}${formatTokens(forecast.growthPerTurn)} tokens/response`,
  ];
  if (forecast.growthPerMinute !== null)
    parts.push(`${formatTokens(forecast.growthPerMinute)} tokens/min`);
  if (forecast.turnsToCompact !== null) {
    const low = forecast.minutesToCompactLow;
    const high = forecast.minutesToCompactHigh;
    const when =
      low !== null && high !== null && low !== high
        ? ` (~${formatDuration(low * 60_000)}–${formatDuration(high * 60_000)})`
        : forecast.minutesToCompact !== null
          ? ` (~${formatDuration(forecast.minutesToCompact * 60_000)})`
          : '';
    parts.push(
      `${formatTurnsLeft(forecast)} more ${pluralFor(forecast, 'response')}${when} before auto-compaction (80% range)`,
    );
  } else if (forecast.growthPerTurn <= 0) {
    parts.push('context is not growing');
  } else {
    parts.push('too irregular to forecast the responses left');
  }
  return parts.join(' · ');
}

export function renderStatusText(status: SessionStatus, columns = 100): string {
  const a = status.assessment;
  const lines: string[] = [];
  const header = [
    `session ${status.sessionId?.slice(0, 8) ?? '?'}`,
    status.model ?? 'model unknown',
    `${status.agentName}${status.cliVersion ? ` ${status.cliVersion}` : ''}`,
    status.gitBranch ? `branch ${status.gitBranch}` : null,
    status.issue ? `issue ${status.issue}` : null,
  ].filter(Boolean);
  lines.push(`${bold('shim')} · ${header.join(' · ')}`);
  lines.push(dim(`  ${truncate(status.transcriptPath, columns - 2)}`));
  lines.push('');

  if (a.contextSource === 'none') {
    lines.push(`  ${label('Context')}${dim('no model response yet')}`);
  } else {
    const measured = a.contextSource === 'post-compact' ? ' (estimated after compaction)' : '';
    lines.push(
      `  ${label('Context')}${colorLevel(a.level, `[${renderBar(a.percent, 20)}]`)} ${bold(formatPercent(a.percent))} of auto-compact  ` +
        `${formatTokens(a.contextTokens)} / ${formatTokens(a.compactThreshold)} tokens${measured}`,
    );
    lines.push(
      `${indent}${formatPercent(a.windowPercent)} of the ${formatWindow(a.windowTokens)} window · threshold: ${a.thresholdDetail}`,
    );
    if (a.blockingLimit !== null && a.autoCompact)
      lines.push(
        `${indent}Claude Code warns from ${formatTokens(a.nativeWarningAt ?? 0)} and blocks at ${formatTokens(a.blockingLimit)}`,
      );
    const inputs = status.thresholdInputs.detail;
    if (inputs !== null) lines.push(dim(`${indent}${inputs}`));
  }
  lines.push(`  ${label('Level')}${colorLevel(a.level, `${a.level} ${LEVEL_NAMES[a.level]}`)}`);
  lines.push(`  ${label('Risk')}${colorRisk(a.risk)}`);
  for (const factor of a.riskFactors)
    lines.push(`${indent}- ${truncate(factor, columns - indent.length - 2)}`);
  lines.push(`  ${label('Forecast')}${describeForecast(status)}`);
  if (status.checkpointFailure) {
    const f = status.checkpointFailure;
    lines.push(
      `  ${label('Checkpoint')} ${colorRisk('danger', `FAILED ${f.count === 1 ? 'once' : `${f.count} times`}`)} since the last stored one (${f.trigger}, ${f.at}) ${dim('(shim doctor)')}`,
    );
    lines.push(`${indent}${truncate(f.message, columns - indent.length)}`);
  }
  if (status.sync && status.sync.pending + status.sync.delivered + status.sync.failed > 0) {
    const s = status.sync;
    lines.push(
      `  ${label('Sync')}${s.delivered} sent · ${s.pending} waiting · ${s.failed} failed${s.lastError && s.pending + s.failed > 0 ? dim(` · ${truncate(s.lastError, columns - 50)}`) : ''} ${dim('(shim sync --status)')}`,
    );
  }

  const act = status.activity;
  const compactions = act.compactions.length
    ? ` · ${act.compactions.length} compaction${act.compactions.length === 1 ? '' : 's'} (${act.compactions
        .slice(-3)
        .map((c) => `${c.trigger}${c.preTokens !== null ? ` at ${formatTokens(c.preTokens)}` : ''}`)
        .join(', ')})`
    : '';
  lines.push(
    `  ${label('Activity')}${plural(act.responses, 'response')} · ${plural(act.prompts, 'prompt')} · ${plural(act.toolCalls, 'tool call')} (${act.toolFailures} failed)${compactions}`,
  );
  const work: string[] = [];
  for (const [name, items] of [
    ['todos', act.todos],
    ['tasks', act.tasks],
  ] as const) {
    if (items.total > 0)
      work.push(
        `${name} ${items.done}/${items.total} done${items.inProgress ? ` (now: ${truncate(items.inProgress, 50)})` : ''}`,
      );
  }
  if (act.apiErrors > 0) work.push(`${act.apiErrors} API errors`);
  if (act.promptTooLong > 0)
    work.push(
      `${act.promptTooLong} "Prompt is too long"${status.assessment.contextLimitHit ? ' (`shim rescue` forks the session where it still fits)' : ''}`,
    );
  if (work.length) lines.push(`${indent}${work.join(' · ')}`);
  if (act.lastPrompt) {
    lines.push(
      `${indent}${dim(`last prompt: ${truncate(act.lastPrompt.replace(/\s+/g, ' '), Math.max(20, columns - indent.length - 14))}`)}`,
    );
  }
  const p = status.parse;
  if (p.badLines > 0 || p.oversizedLines > 0) {
    const parts = [];
    if (p.badLines > 0)
      parts.push(
        `${p.badLines} unreadable line${p.badLines === 1 ? '' : 's'} (first at line ${p.firstBadLine})`,
      );
    if (p.oversizedLines > 0)
      parts.push(`${p.oversizedLines} oversized line${p.oversizedLines === 1 ? '' : 's'}`);
    lines.push('');
    lines.push(dim(`  note: skipped ${parts.join(' and ')}`));
  }
  return lines.join('\n');
}
