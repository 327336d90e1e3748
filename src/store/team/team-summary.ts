/**
 * The team store as the worker last found it (SHIM_HOME/cache/team-summary.json): when it last
 * reached the server, and the error when it could not. `shim team status` and doctor show it.
 * @module
 */
import { join } from 'node:path';
import { ensureDir } from '../home/home.ts';
import { readJsonFile, writeJsonFileAtomic } from '../home/json-file.ts';

export type TeamSummary = {
  at: string;
  reached: boolean;
  error: string | null;
  sent: number;
  pulled: number;
};

const path = (home: string) => join(home, 'cache', 'team-summary.json');

export function saveTeamSummary(home: string, summary: TeamSummary): void {
  ensureDir(home, 'cache');
  writeJsonFileAtomic(path(home), summary);
}

export function loadTeamSummary(home: string): TeamSummary | null {
  const value = readJsonFile(path(home)) as Partial<TeamSummary> | null;
  return value && typeof value.at === 'string' && typeof value.reached === 'boolean'
    ? (value as TeamSummary)
    : null;
}
