/** The readable `shim replay` timeline. */
import type { ReplayDetail, ReplayEvent } from '../../app/session/replay.ts';
import { formatTurnsLeft, pluralFor } from '../../core/context/turns-left-text.ts';
import { colorLevel, colorRisk, dim, bold, formatPercent, formatTokens } from './text.ts';

export const REPLAY_HEADER = dim(
  `${'line'.padStart(6)} ${'turn'.padStart(5)} ${'time'.padEnd(8)} ${'context'.padStart(9)} ${'of compact'.padStart(10)}  level  risk     forecast`,
);

export function renderReplayLine(event: ReplayEvent, detail: ReplayDetail | null): string {
  if (event.kind === 'compact') {
    const tokens = event.preTokens !== null ? ` at ${formatTokens(event.preTokens)} tokens` : '';
    return bold(`${String(event.line).padStart(6)}  ── ${event.trigger} compaction${tokens} ──`);
  }
  const time = detail?.at != null ? new Date(detail.at).toISOString().slice(11, 19) : '';
  const turns = event.turnsToCompact;
  const forecast =
    turns === null
      ? dim('–')
      : turns === 0
        ? 'compaction due'
        : `${formatTurnsLeft(event)} ${pluralFor(event, 'response')} to compact`;
  return [
    String(event.line).padStart(6),
    String(event.turn).padStart(5),
    time.padEnd(8),
    formatTokens(event.contextTokens).padStart(9),
    formatPercent(event.percent).padStart(10),
    ' ' + colorLevel(event.level).padEnd(5),
    ' ' + colorRisk(event.risk, event.risk.padEnd(7)),
    ' ' + forecast,
  ].join(' ');
}
