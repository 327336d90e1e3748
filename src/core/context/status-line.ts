/**
 * The statusline segments (docs/specification.md, "Context levels…"): `[CTX ████████░░ 82% L2] [risk: warning] [~6 turns to
 * compact] [ckpt 3m ago]`, fitted to the terminal width by dropping the least useful segments
 * and narrowing the bar. Pure.
 * @module
 */
import type { Level } from './level.ts';
import type { CrashRisk } from './risk.ts';
import { formatTurnsLeft, pluralFor } from './turns-left-text.ts';

export type StatuslineView = {
  percent: number;
  windowPercent: number;
  level: Level;
  risk: CrashRisk;
  turnsToCompact: number | null;
  /** The forecast's 80% range; null ends when unknown. */
  turnsToCompactLow: number | null;
  turnsToCompactHigh: number | null;
  checkpointAgeMs: number | null;
  autoCompact: boolean;
  /** The tracker issue the session works on; shown last, dropped first when space runs out. */
  issue?: string | null;
  /** What the session is doing (exploring, implementing, testing, …), shown with the issue. */
  phase?: string | null;
  /** Checkpoints of this session that failed since its last stored one (shown first). */
  checkpointFailures?: number;
  /** Why shim cannot save at all now (a full disk, …), in a few words: shown before anything. */
  cannotSave?: string | null;
  /**
   * The agent refused a turn as over its window ("Prompt is too long") since the last
   * compaction: the way out is said, after what stops saving.
   */
  contextLimitHit?: boolean;
  /** Compactions of this session so far (shown from the first). */
  compactions?: number;
  /**
   * At L1/L2: whether the user holds the notices back for one more task (core/policy/deferral.ts);
   * false shows how to. Undefined: nothing said.
   */
  deferred?: boolean;
};

const PHASES: Record<string, string> = {
  starting: 'START',
  exploring: 'EXPLORE',
  implementing: 'IMPL',
  testing: 'TEST',
  debugging: 'DEBUG',
  committing: 'COMMIT',
};

const COLORS: Record<Level, string> = { L0: '32', L1: '33', L2: '35', L3: '1;31' };
const RISK_COLORS: Record<CrashRisk, string> = { safe: '32', warning: '33', danger: '1;31' };

const paint = (color: boolean, code: string, text: string) =>
  color ? `\u001b[${code}m${text}\u001b[0m` : text;

function bar(percent: number, width: number): string {
  const filled = Math.max(0, Math.min(width, Math.round((percent / 100) * width)));
  return '█'.repeat(filled) + '░'.repeat(width - filled);
}

function age(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.round(s / 60)}m`;
  return `${Math.round(s / 3600)}h`;
}

/** The segment that says shim cannot save now (also drawn alone when nothing else can be). */
export function cannotSaveSegment(why: string, color: boolean): string {
  return paint(color, '1;31', `[shim cannot save: ${why}]`);
}

/** Renders within `columns` visible characters (ANSI codes excluded). */
export function renderStatusline(view: StatuslineView, columns: number, color: boolean): string {
  const pct = `${Math.round(view.percent)}%`;
  const optional: string[] = [];
  // A failing checkpoint is the one thing the user must not miss: it goes before everything.
  if (view.cannotSave) optional.push(cannotSaveSegment(view.cannotSave, color));
  const failures = view.checkpointFailures ?? 0;
  if (failures > 0)
    optional.push(
      paint(color, '1;31', `[ckpt FAILED${failures > 1 ? ` ×${failures}` : ''}: shim doctor]`),
    );
  if (view.contextLimitHit) optional.push(paint(color, '1;31', '[context limit hit: shim rescue]'));
  optional.push(`[risk: ${paint(color, RISK_COLORS[view.risk], view.risk)}]`);
  if (!view.autoCompact) {
    optional.push('[auto-compact off]');
  } else if (view.turnsToCompact !== null) {
    optional.push(
      view.turnsToCompact === 0
        ? '[compact due]'
        : `[${formatTurnsLeft(view)} ${pluralFor(view, 'turn')} to compact]`,
    );
  }
  if (view.compactions) optional.push(`[compacted ${view.compactions}×]`);
  optional.push(
    view.checkpointAgeMs === null ? '[no ckpt yet]' : `[ckpt ${age(view.checkpointAgeMs)} ago]`,
  );
  if (view.issue) {
    optional.push(`[ISSUE: ${view.issue}]`);
    if (view.phase) optional.push(`[PHASE: ${PHASES[view.phase] ?? view.phase.toUpperCase()}]`);
  }
  if (view.deferred !== undefined && (view.level === 'L1' || view.level === 'L2'))
    optional.push(view.deferred ? '[notices held]' : '[/defer: one more task]');
  // eslint-disable-next-line no-control-regex
  const visible = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '').length;
  for (const barWidth of [10, 6, 0]) {
    const ctx = paint(
      color,
      COLORS[view.level],
      `[CTX${barWidth ? ` ${bar(view.percent, barWidth)}` : ''} ${pct} ${view.level}]`,
    );
    for (let keep = optional.length; keep >= 0; keep--) {
      const line = [ctx, ...optional.slice(0, keep)].join(' ');
      if (visible(line) <= columns) return line;
    }
  }
  return paint(color, COLORS[view.level], `${pct} ${view.level}`).slice(
    0,
    Math.max(1, columns + 20),
  );
}
