/**
 * Which process is Claude Code, seen from a hook (its parent, or the parent of the `sh -c`
 * wrapper that runs shell-form hooks), and whether a recorded one still runs.
 * @module
 */
import { readFileSync } from 'node:fs';
import { isProcessAlive } from './process-tree.ts';

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh']);

function readProc(pid: number, file: string): string | null {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return null;
  }
}

/**
 * The Claude Code pid for a hook process whose parent is `parent` (this process's by default),
 * or null when it cannot be told.
 */
export function findAgentPid(parent: number = process.ppid): number | null {
  if (!parent || parent <= 1) return null;
  const comm = readProc(parent, 'comm')?.trim();
  if (comm && SHELLS.has(comm)) {
    // /proc/<pid>/stat: "pid (comm) state ppid …"; comm may contain spaces, so split after ')'.
    const stat = readProc(parent, 'stat');
    const grandparent = stat ? Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) : NaN;
    return Number.isInteger(grandparent) && grandparent > 1 ? grandparent : parent;
  }
  return parent;
}

/** true/false when it can be told, null when not (no pid recorded). */
export function isAgentAlive(pid: number | null): boolean | null {
  if (!pid) return null;
  if (!isProcessAlive(pid)) return false;
  // A reused pid belongs to some other program: only an agent CLI process counts.
  const cmdline = readProc(pid, 'cmdline');
  return cmdline === null ? true : /claude|gemini|codex/i.test(cmdline);
}
