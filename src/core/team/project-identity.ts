/**
 * One project, one name on every machine: the repository's `origin` remote, normalised (no
 * scheme, user, port or `.git`; host lower-cased), plus the project's path inside the
 * repository; without a remote, the project's path on this machine (it then matches only here).
 * @module
 */

/**
 * `git@github.com:Org/App.git`, `https://user@github.com/Org/App`, `ssh://git@github.com:22/Org/App.git`
 * → `github.com/Org/App`. Null for something that is not a remote address.
 */
export function normaliseGitRemote(remote: string): string | null {
  let text = remote.trim();
  if (text === '') return null;
  let host: string;
  let path: string;
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/)(.+)$/.exec(text);
  const url = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]+@)?([^/:]+)(?::\d+)?\/(.+)$/i.exec(text);
  if (url) {
    host = url[1]!;
    path = url[2]!;
  } else if (scp && !text.startsWith('/')) {
    host = scp[1]!;
    path = scp[2]!;
  } else {
    // A local path used as a remote: the same path names the same repository on this machine.
    text = text.replace(/^file:\/\//, '');
    return text.startsWith('/') ? `file:${text.replace(/\/+$/, '').replace(/\.git$/, '')}` : null;
  }
  path = path
    .replace(/\/+$/, '')
    .replace(/\.git$/, '')
    .replace(/^\/+/, '');
  if (path === '') return null;
  return `${host.toLowerCase()}/${path}`;
}

export type ProjectIdentity = {
  /** The name every machine uses: `github.com/org/app`, `github.com/org/app//packages/api`, `path:/x`. */
  id: string;
  /** The project's path inside its repository ('' at the root). */
  pathInRepo: string;
};

/** The identity of the project at `projectRoot`, from its repository's root and remote. */
export function projectIdentity(input: {
  projectRoot: string;
  repoRoot: string | null;
  remote: string | null;
}): ProjectIdentity {
  const remote = input.remote === null ? null : normaliseGitRemote(input.remote);
  const root = input.projectRoot.replace(/\/+$/, '') || '/';
  if (remote === null || input.repoRoot === null) return { id: `path:${root}`, pathInRepo: '' };
  const repoRoot = input.repoRoot.replace(/\/+$/, '');
  const inside =
    root === repoRoot ? '' : root.startsWith(`${repoRoot}/`) ? root.slice(repoRoot.length + 1) : '';
  return { id: inside ? `${remote}//${inside}` : remote, pathInRepo: inside };
}
