/**
 * With a team store (and `team.resume`), a project's `resume` and `handoff` ask it first, within
 * the same budget as a session start (app/team/pull-at-start.ts): the team's newer unfinished
 * work is what a new session here would get, so it is what they show or hand on. A server that
 * does not answer in time costs one line on stderr; the team's work as last pulled stands.
 * @module
 */
import { resolve } from 'node:path';
import type { Scope } from '../../app/project-scope.ts';
import { pullTeamWithin } from '../../app/team/pull-at-start.ts';
import { isTeamConfigured } from '../../app/team/team-settings.ts';
import { loadConfig } from '../../store/config/config.ts';
import { dim } from '../format/text.ts';

/** Null where the team's work does not apply: a session named, every project, no team store. */
export async function pullTeamForRead(
  home: string,
  scope: Scope,
  options: { session?: string; cwd?: string },
): Promise<{ cwd: string; resumeWindowDays: number } | null> {
  if (options.session || scope.kind === 'all') return null;
  const config = await loadConfig(home, { lenient: true });
  if (!isTeamConfigured(config, process.env) || !config.team.resume) return null;
  const cwd = resolve(process.cwd(), options.cwd ?? '.');
  const pull = await pullTeamWithin({ cwd, env: process.env, home });
  if (pull.outcome === 'late' || pull.outcome === 'failed')
    process.stderr.write(
      dim(
        `team store: ${pull.outcome === 'late' ? `no answer within ${(pull.budget / 1000).toFixed(1)} s` : 'not reached (shim team status)'}; the team's work as last pulled\n`,
      ),
    );
  return { cwd, resumeWindowDays: config.resumeWindowDays };
}
