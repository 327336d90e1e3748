/** Small text helpers for human-facing output. */
import type { Level } from '../../core/context/level.ts';
import type { CrashRisk } from '../../core/context/risk.ts';
import { colors as pc } from './colors.ts';

export { formatTokens } from '../../core/format-tokens.ts';

/** "200k", "1M" */
export function formatWindow(tokens: number): string {
  return tokens >= 1_000_000 ? `${tokens / 1_000_000}M` : `${Math.round(tokens / 1000)}k`;
}

export function formatPercent(percent: number): string {
  return `${percent.toFixed(1)}%`;
}

/** A bar of `width` cells filled to `percent` (capped at 100). */
export function renderBar(percent: number, width: number): string {
  const filled = Math.max(0, Math.min(width, Math.round((percent / 100) * width)));
  return '█'.repeat(filled) + '░'.repeat(width - filled);
}

export function colorLevel(level: Level, text: string = level): string {
  switch (level) {
    case 'L0':
      return pc.green(text);
    case 'L1':
      return pc.yellow(text);
    case 'L2':
      return pc.magenta(text);
    case 'L3':
      return pc.red(pc.bold(text));
    default:
      return level satisfies never;
  }
}

export function colorRisk(risk: CrashRisk, text: string = risk): string {
  return risk === 'danger'
    ? pc.red(pc.bold(text))
    : risk === 'warning'
      ? pc.yellow(text)
      : pc.green(text);
}

export function formatDuration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return `${hours}h ${String(minutes % 60).padStart(2, '0')}m`;
}

export const dim = pc.dim;
export const bold = pc.bold;
