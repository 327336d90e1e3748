/**
 * How this user's sessions grow (SHIM_HOME/cache/growth-profile.json): the newest growth steps
 * (tokens per response) of their recent sessions. The forecast's interval mixes them in where a
 * session has few steps of its own, so a session's first window already knows that this user's
 * context grows in bursts. Written at checkpoints (off the per-call path), read by every door.
 * @module
 */
import { join } from 'node:path';
import { ensureDir } from '../home/home.ts';
import { readJsonFile, writeJsonFileAtomic } from '../home/json-file.ts';

/** Steps kept per session: its newest ones, where its current way of working shows. */
export const STEPS_PER_SESSION = 60;
/** Windows kept: the newest by their last update. */
export const PROFILE_SESSIONS = 20;

type SessionSteps = { at: number; steps: number[] };
/** Keyed `<session>#<compactions before the window>`. */
type ProfileFile = { v: 1; sessions: Record<string, SessionSteps> };

function getPath(home: string): string {
  return join(home, 'cache', 'growth-profile.json');
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function readProfile(home: string): ProfileFile {
  const value = readJsonFile(getPath(home));
  if (!isObject(value) || value.v !== 1 || !isObject(value.sessions)) return { v: 1, sessions: {} };
  const sessions: Record<string, SessionSteps> = {};
  for (const [id, entry] of Object.entries(value.sessions)) {
    if (!isObject(entry) || typeof entry.at !== 'number' || !Array.isArray(entry.steps)) continue;
    const steps = entry.steps.filter(
      (s): s is number => typeof s === 'number' && Number.isFinite(s),
    );
    sessions[id] = { at: entry.at, steps };
  }
  return { v: 1, sessions };
}

/** One entry per context window: a session's earlier windows stay when it compacts. */
const windowKey = (sessionId: string, compactions: number) => `${sessionId}#${compactions}`;
const sessionOf = (key: string) => key.slice(0, key.lastIndexOf('#'));

/** The other sessions' steps: the session's own are already the forecast's first source. */
export function loadGrowthProfile(home: string, exceptSessionId: string | null): number[] {
  const { sessions } = readProfile(home);
  const steps: number[] = [];
  for (const [key, entry] of Object.entries(sessions))
    if (sessionOf(key) !== exceptSessionId) steps.push(...entry.steps);
  return steps;
}

/** Replaces the window's steps with its newest ones; keeps the newest windows. */
export function recordGrowthSteps(
  home: string,
  window: { sessionId: string; compactions: number },
  steps: readonly number[],
  now: number,
): void {
  if (steps.length === 0) return;
  const profile = readProfile(home);
  profile.sessions[windowKey(window.sessionId, window.compactions)] = {
    at: now,
    steps: steps.slice(-STEPS_PER_SESSION).map((s) => Math.round(s)),
  };
  const newest = Object.entries(profile.sessions)
    .sort((a, b) => b[1].at - a[1].at)
    .slice(0, PROFILE_SESSIONS);
  ensureDir(home, 'cache');
  writeJsonFileAtomic(getPath(home), { v: 1, sessions: Object.fromEntries(newest) });
}

/** Drops every window of a session (`shim forget`); how many there were. */
export function forgetGrowthSteps(home: string, sessionId: string): number {
  const profile = readProfile(home);
  const gone = Object.keys(profile.sessions).filter((key) => sessionOf(key) === sessionId);
  if (gone.length === 0) return 0;
  for (const key of gone) delete profile.sessions[key];
  writeJsonFileAtomic(getPath(home), profile);
  return gone.length;
}
