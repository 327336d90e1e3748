/**
 * One project, one name on every machine: the repository's `origin` remote, normalised (no
 * scheme, user, port or `.git`; the host lower-cased; the owner and repository lower-cased too on
 * the hosts that ignore their case), plus the project's path inside the repository. Without a
 * remote, the project's path on this machine and the machine's name: two machines that both
 * keep their work in `/workspace` are two projects.
 * @module
 */

/**
 * Hosts whose owner and repository names ignore case (`github.com/Acme/Widget` is
 * `github.com/acme/widget`), each under the name its other spellings take. A server not listed
 * keeps the case of its paths: it may tell them apart.
 */
const CASE_BLIND_HOSTS: Readonly<Record<string, string>> = {
  'github.com': 'github.com',
  'www.github.com': 'github.com',
  'ssh.github.com': 'github.com',
  'gitlab.com': 'gitlab.com',
  'www.gitlab.com': 'gitlab.com',
  'altssh.gitlab.com': 'gitlab.com',
  'bitbucket.org': 'bitbucket.org',
  'www.bitbucket.org': 'bitbucket.org',
  'altssh.bitbucket.org': 'bitbucket.org',
  'codeberg.org': 'codeberg.org',
  'dev.azure.com': 'dev.azure.com',
  'ssh.dev.azure.com': 'dev.azure.com',
};

/**
 * Azure DevOps spells one repository `org/project/_git/repo` over HTTPS and `v3/org/project/repo`
 * over SSH (and `<org>.visualstudio.com/project/_git/repo` in its older form).
 */
function azurePath(host: string, path: string): { host: string; path: string } {
  const old = /^([^.]+)\.visualstudio\.com$/.exec(host);
  if (old) return { host: 'dev.azure.com', path: `${old[1]}/${path.replace('/_git/', '/')}` };
  if (host === 'ssh.dev.azure.com' || host === 'vs-ssh.visualstudio.com')
    return { host: 'dev.azure.com', path: path.replace(/^v3\//, '') };
  if (host === 'dev.azure.com') return { host, path: path.replace('/_git/', '/') };
  return { host, path };
}

/**
 * `git@github.com:Org/App.git`, `https://user@github.com/org/app`, `ssh://git@github.com:22/Org/App.git`
 * → `github.com/org/app`. Null for something that is not a remote address.
 */
export function normaliseGitRemote(remote: string): string | null {
  let text = remote.trim();
  if (text === '') return null;
  let host: string;
  let path: string;
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/\/)(.+)$/.exec(text);
  const url = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]+@)?(\[[^\]]+\]|[^/:]+)(?::\d*)?\/(.+)$/i.exec(text);
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
  const moved = azurePath(host.toLowerCase(), path);
  const known = CASE_BLIND_HOSTS[moved.host];
  return known ? `${known}/${moved.path.toLowerCase()}` : `${moved.host}/${moved.path}`;
}

export type ProjectIdentity = {
  /**
   * The name every machine uses: `github.com/org/app`, `github.com/org/app//packages/api`; without
   * a remote `path:<machine>:/home/ada/app`, which matches that machine only.
   */
  id: string;
  /** The project's path inside its repository ('' at the root). */
  pathInRepo: string;
};

/** The identity of the project at `projectRoot`, from its repository's root and remote. */
export function projectIdentity(input: {
  projectRoot: string;
  repoRoot: string | null;
  remote: string | null;
  /** This machine's name (SHIM_MACHINE, else the host name): part of a remote-less identity. */
  machine: string;
}): ProjectIdentity {
  const remote = input.remote === null ? null : normaliseGitRemote(input.remote);
  const root = input.projectRoot.replace(/\/+$/, '') || '/';
  if (remote === null || input.repoRoot === null)
    return { id: `path:${input.machine}:${root}`, pathInRepo: '' };
  const repoRoot = input.repoRoot.replace(/\/+$/, '');
  const inside =
    root === repoRoot ? '' : root.startsWith(`${repoRoot}/`) ? root.slice(repoRoot.length + 1) : '';
  return { id: inside ? `${remote}//${inside}` : remote, pathInRepo: inside };
}
