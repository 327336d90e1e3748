/**
 * The project's identity on every machine (core/team/project-identity.ts) read from its git
 * config: `remote "origin"`'s url, without a git process (the SessionStart hook asks for it).
 * A worktree's `.git` file points at its git directory, whose `commondir` holds the config.
 * @module
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { projectIdentity, type ProjectIdentity } from '../core/team/project-identity.ts';
import { machineName } from './machine.ts';
import { findProjectRoot } from './project.ts';

function gitDirOf(root: string): string | null {
  const dotGit = resolve(root, '.git');
  try {
    if (statSync(dotGit).isDirectory()) return dotGit;
    const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
    if (!pointer) return null;
    const gitDir = resolve(root, pointer);
    const common = resolve(gitDir, 'commondir');
    return existsSync(common) ? resolve(gitDir, readFileSync(common, 'utf8').trim()) : gitDir;
  } catch {
    return null;
  }
}

/** The url of `remote "origin"` (else the first remote) in the repository at `root`. */
export function readOriginRemote(root: string): string | null {
  const gitDir = gitDirOf(root);
  if (gitDir === null) return null;
  let text: string;
  try {
    text = readFileSync(resolve(gitDir, 'config'), 'utf8');
  } catch {
    return null;
  }
  const remotes = new Map<string, string>();
  let section: string | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const header = /^\[remote\s+"([^"]+)"\]$/.exec(line);
    if (header) section = header[1]!;
    else if (line.startsWith('[')) section = null;
    else if (section !== null) {
      const url = /^url\s*=\s*(.+)$/.exec(line)?.[1];
      if (url && !remotes.has(section)) remotes.set(section, url.trim());
    }
  }
  return remotes.get('origin') ?? remotes.values().next().value ?? null;
}

/** The identity of the project `cwd` belongs to (`env` names the machine: capture/machine.ts). */
export function identifyProject(
  cwd: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ProjectIdentity & { root: string } {
  const root = findProjectRoot(cwd);
  const repoRoot = existsSync(resolve(root, '.git')) ? root : null;
  const remote = repoRoot === null ? null : readOriginRemote(repoRoot);
  return {
    ...projectIdentity({ projectRoot: root, repoRoot, remote, machine: machineName(env) }),
    root,
  };
}
