/**
 * What a session's hooks saw when they resolved its threshold (SHIM_HOME/cache/inputs/<session>.json):
 * Claude Code's environment and settings, the model and the window it reported. Hooks and the
 * statusline run inside Claude Code's environment; `shim status`, `replay` and MCP usually do
 * not, so they read these instead of guessing from their own shell (one truth for every door).
 * @module
 */
import { join } from 'node:path';
import type { SettingsWindows } from './compact-window.ts';
import { safeFileName } from '../../../core/fnv-hash.ts';
import { ensureDir } from '../../../store/home/home.ts';
import { readJsonFile, writeJsonFileAtomic } from '../../../store/home/json-file.ts';

export type RecordedInputs = {
  v: 1;
  sessionId: string;
  /** Epoch ms of the first recording of these values. */
  recordedAt: number;
  by: 'hook' | 'statusline';
  /** The threshold variables Claude Code's environment held. */
  env: Record<string, string>;
  settings: SettingsWindows[];
  model: string | null;
  /** The window Claude Code reported (statusline), when known. */
  windowTokens: number | null;
  compactThreshold: number;
};

function getPath(home: string, sessionId: string): string {
  return join(home, 'cache', 'inputs', `${safeFileName(sessionId)}.json`);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function loadRecordedInputs(home: string, sessionId: string): RecordedInputs | null {
  const value = readJsonFile(getPath(home, sessionId));
  if (!isObject(value) || value.v !== 1 || value.sessionId !== sessionId) return null;
  if (!isObject(value.env) || !Array.isArray(value.settings)) return null;
  return value as RecordedInputs;
}

/** The part that decides the threshold: a change in it is a new recording. */
const identity = (r: Omit<RecordedInputs, 'recordedAt' | 'by' | 'v'>) =>
  JSON.stringify([r.env, r.settings, r.model, r.windowTokens, r.compactThreshold]);

/** Records the inputs when they differ from the last recording; returns whether it wrote. */
export function recordInputs(
  home: string,
  inputs: Omit<RecordedInputs, 'v' | 'recordedAt'>,
  now: number,
): boolean {
  const previous = loadRecordedInputs(home, inputs.sessionId);
  // A statusline without a window figure does not erase the one a hook or render saw.
  const merged = {
    ...inputs,
    windowTokens: inputs.windowTokens ?? previous?.windowTokens ?? null,
  };
  if (previous && identity(previous) === identity(merged)) return false;
  ensureDir(home, 'cache', 'inputs');
  writeJsonFileAtomic(getPath(home, inputs.sessionId), { v: 1, recordedAt: now, ...merged });
  return true;
}
