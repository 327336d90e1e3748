/**
 * Which environment and settings a session's threshold is resolved from. Hooks and the
 * statusline run inside Claude Code: its environment is theirs, so they read the settings files
 * and record what they saw. Every other door (status, replay, MCP) takes that record when the
 * session has one, and otherwise the settings files over its own shell.
 * @module
 */
import { THRESHOLD_ENV_KEYS, type SettingsWindows } from './compact-window.ts';
import { readCompactSettings } from './compact-settings.ts';
import type { Env } from '../../../store/home/home.ts';
import { loadRecordedInputs, type RecordedInputs } from './recorded-inputs.ts';

export type ThresholdInputs = {
  env: Env;
  settings: SettingsWindows[];
  reportedWindow: number | null;
  /** 'inside': read inside Claude Code; 'recorded': what its hooks saw; 'shell': settings files and this shell. */
  source: 'inside' | 'recorded' | 'shell';
  recorded: RecordedInputs | null;
};

export type InputsRequest = {
  home: string;
  env: Env;
  sessionId: string | null;
  cwd: string | null;
  /** True in hooks and the statusline. */
  insideClaudeCode: boolean;
  reportedWindow: number | null;
  managedSettingsPath?: string;
};

function withoutThresholdEnv(env: Env): Record<string, string | undefined> {
  const rest: Record<string, string | undefined> = { ...env };
  for (const key of THRESHOLD_ENV_KEYS) delete rest[key];
  return rest;
}

export function getThresholdInputs(request: InputsRequest): ThresholdInputs {
  const where = {
    cwd: request.cwd,
    env: request.env,
    ...(request.managedSettingsPath ? { managedPath: request.managedSettingsPath } : {}),
  };
  if (request.insideClaudeCode) {
    return {
      env: request.env,
      settings: readCompactSettings(where).windows,
      reportedWindow: request.reportedWindow,
      source: 'inside',
      recorded: null,
    };
  }
  const recorded = request.sessionId ? loadRecordedInputs(request.home, request.sessionId) : null;
  if (recorded) {
    return {
      env: { ...withoutThresholdEnv(request.env), ...recorded.env },
      settings: recorded.settings,
      reportedWindow: request.reportedWindow ?? recorded.windowTokens,
      source: 'recorded',
      recorded,
    };
  }
  const files = readCompactSettings(where);
  return {
    // Claude Code applies the settings' env blocks over the environment it started in.
    env: { ...request.env, ...files.env },
    settings: files.windows,
    reportedWindow: request.reportedWindow,
    source: 'shell',
    recorded: null,
  };
}
