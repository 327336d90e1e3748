/**
 * User settings in SHIM_HOME/config.json. Every field is optional; what is absent keeps its
 * default. Unknown keys are rejected so a typo does not silently do nothing.
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../core/errors.ts';
import { DEFAULT_LEVEL_THRESHOLDS, type LevelThresholds } from '../core/level.ts';
import { DEFAULT_RISK_THRESHOLDS, type RiskThresholds } from '../core/risk.ts';

export type ShimConfig = {
  levels: LevelThresholds;
  risk: RiskThresholds;
  learnFromHistory: boolean;
  /** Opt-in: PreCompact blocks proactive auto-compaction once the handoff is saved. */
  blockAutoCompact: boolean;
  /** `shim loop` runs: compacted after hotDays once finished, deleted after retentionDays. */
  loopRetention: { hotDays: number; retentionDays: number };
};

export const DEFAULT_LOOP_RETENTION = { hotDays: 7, retentionDays: 30 } as const;

export function getConfigPath(home: string): string {
  return join(home, 'config.json');
}

/** Reads SHIM_HOME/config.json; the validator (zod) is loaded only when the file exists. */
export async function loadConfig(home: string): Promise<ShimConfig> {
  const path = getConfigPath(home);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return {
      levels: DEFAULT_LEVEL_THRESHOLDS,
      risk: DEFAULT_RISK_THRESHOLDS,
      learnFromHistory: true,
      blockAutoCompact: false,
      loopRetention: { ...DEFAULT_LOOP_RETENTION },
    };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new AppError(
      'CONFIG_INVALID',
      `${path} is not valid JSON: ${(error as Error).message}`,
      'fix the file or delete it to use the defaults',
    );
  }
  const { configSchema } = await import('./config-schema.ts');
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.join('.') || '(top level)';
    throw new AppError(
      'CONFIG_INVALID',
      `${path}: ${where}: ${issue.message}`,
      'see the README section "Configuration" for the accepted keys',
    );
  }
  const config = parsed.data;
  return {
    levels: config.levels ?? DEFAULT_LEVEL_THRESHOLDS,
    risk: {
      warning: { ...DEFAULT_RISK_THRESHOLDS.warning, ...config.risk?.warning },
      danger: { ...DEFAULT_RISK_THRESHOLDS.danger, ...config.risk?.danger },
    },
    learnFromHistory: config.learnFromHistory ?? true,
    blockAutoCompact: config.blockAutoCompact ?? false,
    loopRetention: { ...DEFAULT_LOOP_RETENTION, ...config.loopRetention },
  };
}
