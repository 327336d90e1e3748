/**
 * Reaching a tracker: its token (GITHUB_TOKEN, GH_TOKEN or `gh auth token`; LINEAR_API_KEY),
 * read from the environment each time and never written anywhere, and the client for it.
 * Without a token nothing leaves the machine, and the answer says how to turn sync on.
 * @module
 */
import { spawnSync } from 'node:child_process';
import type { Tracker } from '../../core/sync/issue-ref.ts';
import { GitHubClient } from '../../tracker/github-client.ts';
import type { TrackerClient } from '../../tracker/tracker-client.ts';

type Env = Readonly<Record<string, string | undefined>>;

export type TrackerAccess =
  { ok: true; client: TrackerClient; tokenFrom: string } | { ok: false; why: string; fix: string };

/** The GitHub token: the environment's, else the GitHub CLI's (it may not be installed). */
function githubToken(env: Env): { token: string; from: string } | null {
  if (env.GITHUB_TOKEN) return { token: env.GITHUB_TOKEN, from: 'GITHUB_TOKEN' };
  if (env.GH_TOKEN) return { token: env.GH_TOKEN, from: 'GH_TOKEN' };
  const gh = spawnSync('gh', ['auth', 'token'], {
    env: env as NodeJS.ProcessEnv,
    encoding: 'utf8',
    timeout: 5_000,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const token = gh.status === 0 ? gh.stdout.trim() : '';
  return token ? { token, from: 'gh auth token' } : null;
}

/** Whether a token for `tracker` is at hand (no network; `gh auth token` at most). */
export function hasTrackerToken(tracker: Tracker, env: Env): boolean {
  if (tracker === 'github') return githubToken(env) !== null;
  if (tracker === 'linear') return Boolean(env.LINEAR_API_KEY);
  return true;
}

export async function getTrackerAccess(
  tracker: Tracker,
  env: Env,
  repo: string | null,
): Promise<TrackerAccess> {
  if (tracker === 'github') {
    const token = githubToken(env);
    if (!token)
      return {
        ok: false,
        why: 'no GitHub token',
        fix: 'set GITHUB_TOKEN (a token with issues: write) or run `gh auth login`; shim reads it from the environment and never stores it',
      };
    return {
      ok: true,
      client: new GitHubClient({ token: token.token, env, repo }),
      tokenFrom: token.from,
    };
  }
  if (tracker === 'claude-mem')
    return {
      ok: false,
      why: 'claude-mem is not an issue tracker',
      fix: 'its entries are sent by the worker directly',
    };
  const key = env.LINEAR_API_KEY;
  if (!key)
    return {
      ok: false,
      why: 'no Linear API key',
      fix: 'set LINEAR_API_KEY (Linear → Settings → API → personal API keys); shim reads it from the environment and never stores it',
    };
  const { LinearClientAdapter } = await import('../../tracker/linear-client.ts');
  return {
    ok: true,
    client: new LinearClientAdapter({ apiKey: key, env }),
    tokenFrom: 'LINEAR_API_KEY',
  };
}
