/**
 * User settings: SHIM_HOME/config.json, and per project `<root>/.shim.json` or
 * `<root>/.claude/shim.json` over it. Every field is optional; what is absent keeps its default.
 * Unknown keys are rejected so a typo does not silently do nothing.
 *
 * Commands are strict (a bad file is an error that names it). Hooks and the statusline load
 * leniently: they go on with the defaults and carry the problems, so the user is told once per
 * session instead of shim silently switching itself off.
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDir } from '../home/home.ts';
import { writeFileSafely } from '../home/safe-file.ts';
import { AppError } from '../../core/errors.ts';
import { DEFAULT_LEVEL_THRESHOLDS, type LevelThresholds } from '../../core/context/level.ts';
import { DEFAULT_RISK_THRESHOLDS, type RiskThresholds } from '../../core/context/risk.ts';
import { rememberValid, wasFoundValid } from './config-checked.ts';

export type ShimConfig = {
  levels: LevelThresholds;
  risk: RiskThresholds;
  learnFromHistory: boolean;
  /** Opt-in: PreCompact blocks proactive auto-compaction once the handoff is saved. */
  blockAutoCompact: boolean;
  /** `shim loop` runs: compacted after hotDays once finished, deleted after retentionDays. */
  loopRetention: { hotDays: number; retentionDays: number };
  /** false: shim does nothing (a project's off switch). */
  enabled: boolean;
  /**
   * Background checkpoints: `timing` "changes" where the work changes (a task done, tests passing,
   * a commit) or after `fallbackCalls` calls, only once a file changed since the last one; "count"
   * every `everyToolCalls` calls; both every `everyMinutes` of activity. `continuous`: each stored
   * as what changed since the previous one of its session, whole every `fullEvery`
   * (checkpoint-chain.ts).
   */
  checkpoints: {
    timing: 'changes' | 'count';
    everyToolCalls: number;
    fallbackCalls: number;
    everyMinutes: number;
    continuous: boolean;
    fullEvery: number;
  };
  /** How far back (hours) and how many earlier checkpoints a chain, a timeline or recent work reads. */
  restoreContextHours: number;
  restoreMaxContexts: number;
  restoreAtStartup: boolean;
  /** At L3 offer a fresh context; after /clear, SessionStart(clear) injects the full state. */
  relay: boolean;
  resumeWindowDays: number;
  /** PostToolUse's full look done by a warm process the hooks ask (docs/hot-path.md). */
  warmLook: boolean;
  retention: { auto: boolean; days: number; maxStoreMB: number | null };
  /** Tracker sync: on (when a token is there), the label it adds (null: none), a state to move to. */
  sync: {
    enabled: boolean;
    label: string | null;
    state: string | null;
    claudeMem: boolean;
    /** The issue may come from a request's or a goal's text, not only a link or the branch. */
    fromRequests?: boolean;
    /** Updates older than this are not sent (a token added late must not post a backlog). */
    staleAfterHours?: number;
  };
  /** The team store: its URL (null: not connected), restore from it at startup, server retention. */
  team: { url: string | null; resume: boolean; retentionDays: number };
  /** The project's own state file and handoffs (opt-in): where, and whether git sees them. */
  projectFiles: { enabled: boolean; dir: string; track: boolean };
  /** The MCP server: `forget` lets the agent call shim_forget (it cannot be undone; default off). */
  mcp: { forget: boolean };
  /** Files that could not be used (lenient loads only): what is wrong, where, how to fix it. */
  problems: ConfigProblem[];
  /** Where each setting came from: `default`, or the file's path. */
  sources: Record<string, string>;
};

export type ConfigProblem = { path: string; line: number | null; message: string; fix: string };

export const DEFAULT_LOOP_RETENTION = { hotDays: 7, retentionDays: 30 } as const;

type Settings = Omit<ShimConfig, 'problems' | 'sources'>;

export const DEFAULT_SETTINGS: Settings = {
  levels: DEFAULT_LEVEL_THRESHOLDS,
  risk: DEFAULT_RISK_THRESHOLDS,
  learnFromHistory: true,
  blockAutoCompact: false,
  loopRetention: { ...DEFAULT_LOOP_RETENTION },
  enabled: true,
  checkpoints: {
    timing: 'changes',
    everyToolCalls: 5,
    // The gap the leave-one-out learned on every real session (`npm run bench`, docs/intelligence.md).
    fallbackCalls: 3,
    everyMinutes: 10,
    continuous: true,
    fullEvery: 10,
  },
  restoreContextHours: 24,
  restoreMaxContexts: 50,
  restoreAtStartup: true,
  relay: false,
  resumeWindowDays: 7,
  warmLook: true,
  retention: { auto: true, days: 30, maxStoreMB: 500 },
  sync: {
    enabled: true,
    label: 'context-checkpointed',
    state: null,
    claudeMem: true,
    fromRequests: false,
    staleAfterHours: 24,
  },
  team: { url: null, resume: true, retentionDays: 90 },
  projectFiles: { enabled: false, dir: '.claude', track: false },
  mcp: { forget: false },
};

export function getConfigPath(home: string): string {
  return join(home, 'config.json');
}

/** The project's own config files, in the order they apply (later wins). */
export function getProjectConfigPaths(projectRoot: string): string[] {
  return [join(projectRoot, '.claude', 'shim.json'), join(projectRoot, '.shim.json')];
}

export type LoadOptions = {
  /** The project the config is for: its `.shim.json` / `.claude/shim.json` apply on top. */
  projectRoot?: string | null;
  /** Go on with the defaults instead of failing on a bad file (hooks, statusline). */
  lenient?: boolean;
};

type Raw = Record<string, unknown>;

/** 1-based line of `offset` in `text`. */
function lineAt(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}

/** Where a JSON.parse error points, as a line number. */
function parseErrorLine(text: string, error: Error): number | null {
  const position = /position (\d+)/.exec(error.message)?.[1];
  if (position !== undefined) return lineAt(text, Number(position));
  const line = /line (\d+)/.exec(error.message)?.[1];
  return line !== undefined ? Number(line) : null;
}

/** The line where `key` is written, as a best guess for a schema problem's place. */
function keyLine(text: string, key: string | undefined): number | null {
  if (key === undefined) return null;
  const at = text.indexOf(`"${key}"`);
  return at === -1 ? null : lineAt(text, at);
}

/** One file, validated: its settings, or the problem that keeps it from counting. */
async function readFile(
  path: string,
  home: string,
  lenient: boolean,
): Promise<{ raw: Raw | null; problem: ConfigProblem | null }> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { raw: null, problem: null };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return {
      raw: null,
      problem: {
        path,
        line: parseErrorLine(text, error as Error),
        message: `not valid JSON: ${(error as Error).message}`,
        fix: 'fix the file, or delete it to use the defaults',
      },
    };
  }
  // The per-call paths skip the schema (and zod) for a text already found valid: no transforms
  // or defaults in the schema, so a valid file's settings are its JSON as it stands.
  if (lenient && wasFoundValid(home, path, text)) return { raw: raw as Raw, problem: null };
  const { configSchema } = await import('./config-schema.ts');
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.join('.') || '(top level)';
    const key = [...issue.path].reverse().find((k) => typeof k === 'string') as string | undefined;
    const unknown = issue.code === 'unrecognized_keys' ? (issue.keys?.[0] as string) : undefined;
    return {
      raw: null,
      problem: {
        path,
        line: keyLine(text, unknown ?? key),
        message: `${where}: ${issue.message}`,
        fix: 'see the README section "Configuration" for the accepted keys (`shim config` shows what is in effect)',
      },
    };
  }
  rememberValid(home, path, text);
  return { raw: parsed.data as Raw, problem: null };
}

function isPlainObject(v: unknown): v is Raw {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Lays `layer` over `base`, noting which leaf came from `source`. */
function overlay(
  base: Raw,
  layer: Raw,
  source: string,
  sources: Record<string, string>,
  at = '',
): Raw {
  const out: Raw = { ...base };
  for (const [key, value] of Object.entries(layer)) {
    const path = at ? `${at}.${key}` : key;
    // levels are one setting (they must rise together); other objects merge key by key
    if (isPlainObject(value) && isPlainObject(out[key]) && key !== 'levels') {
      out[key] = overlay(out[key] as Raw, value, source, sources, path);
    } else {
      out[key] = value;
      sources[path] = source;
    }
  }
  return out;
}

function defaultSources(value: Raw, at = '', sources: Record<string, string> = {}) {
  for (const [key, v] of Object.entries(value)) {
    const path = at ? `${at}.${key}` : key;
    if (isPlainObject(v) && key !== 'levels') defaultSources(v, path, sources);
    else sources[path] = 'default';
  }
  return sources;
}

/** The effective configuration (see the module comment for strict vs lenient). */
export async function loadConfig(home: string, options: LoadOptions = {}): Promise<ShimConfig> {
  const files = [
    getConfigPath(home),
    ...(options.projectRoot ? getProjectConfigPaths(options.projectRoot) : []),
  ];
  const sources = defaultSources(DEFAULT_SETTINGS as unknown as Raw);
  let merged = DEFAULT_SETTINGS as unknown as Raw;
  const problems: ConfigProblem[] = [];
  for (const path of files) {
    const { raw, problem } = await readFile(path, home, options.lenient === true);
    if (problem) {
      if (!options.lenient) {
        throw new AppError('CONFIG_INVALID', describeConfigProblem(problem), problem.fix);
      }
      problems.push(problem);
      continue;
    }
    if (raw) merged = overlay(merged, raw, path, sources);
  }
  const settings = merged as unknown as Settings;
  return {
    ...settings,
    risk: {
      warning: { ...DEFAULT_RISK_THRESHOLDS.warning, ...settings.risk.warning },
      danger: { ...DEFAULT_RISK_THRESHOLDS.danger, ...settings.risk.danger },
    },
    problems,
    sources,
  };
}

/** "…/config.json: levels: … (line 4)" */
export function describeConfigProblem(p: ConfigProblem): string {
  return `${p.path}: ${p.message}${p.line !== null ? ` (line ${p.line})` : ''}`;
}

/** Sets (or, with null, removes) one key of SHIM_HOME/config.json's `team` object, keeping the rest. */
export function writeTeamSetting(home: string, key: 'url', value: string | null): void {
  const path = getConfigPath(home);
  let raw: Raw = {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (isPlainObject(parsed)) raw = parsed;
  } catch {
    // no file yet (or an unreadable one, which loadConfig reports): start from nothing
  }
  const team: Raw = isPlainObject(raw.team) ? { ...raw.team } : {};
  if (value === null) delete team[key];
  else team[key] = value;
  if (Object.keys(team).length === 0) delete raw.team;
  else raw.team = team;
  ensureDir(home);
  writeFileSafely(path, `${JSON.stringify(raw, null, 2)}\n`);
}
