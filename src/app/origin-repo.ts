/**
 * The GitHub repository of a project: its `origin` remote, when that is a GitHub-style URL.
 * @module
 */
import { runGit } from '../capture/git-run.ts';
import { parseGitHubRemote } from '../core/sync/issue-ref.ts';

export function originRepo(cwd: string | null): string | null {
  if (!cwd) return null;
  const remote = runGit(cwd, ['remote', 'get-url', 'origin']);
  return remote.ok ? parseGitHubRemote(remote.stdout.toString('utf8')) : null;
}
