/**
 * Where the warm look lives and what passes through it (docs/hot-path.md, "The warm look").
 * PostToolUse's full look costs a fresh process ~14 ms above Node's own start — loading the
 * hook's bundle and running its code cold. A warm process (hook/warm-look/serve.ts) does the
 * look in ~1–2 ms; the hook only asks (hook/warm-look/ask.ts), through named pipes, which cost a client almost nothing (a Unix
 * socket's setup alone costs ~6 ms).
 *
 * One warm process per SHIM_HOME and build of the hook: its directory,
 * `SHIM_HOME/run/warm-look-<build>`, holds SLOTS pairs of pipes (`req-<k>`, `ans-<k>`) and a
 * lock file per slot in use (`slot-<k>.lock`, the asking process's pid). A slot is one caller's
 * at a time, so a request longer than a pipe's atomic write cannot interleave with another.
 * @module
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

/** Calls answered at once; more parallel hooks than this look in their own process. */
export const SLOTS = 8;

/** Bumped when a frame's shape changes: a caller never asks a process that speaks another. */
const PROTOCOL = 1;

/** The directory of the warm process for this build, or null where there is none to be had. */
export function warmLookDir(home: string, hookBundle: string): string | null {
  if (process.platform === 'win32') return null;
  try {
    // The build's size and time: a rebuilt or upgraded shim gets a process running its own code.
    const { size, mtimeMs } = statSync(hookBundle);
    return join(home, 'run', `warm-look-${PROTOCOL}-${size}-${Math.trunc(mtimeMs)}`);
  } catch {
    return null;
  }
}

/**
 * The directory for the hooks' build this code runs from: dist/hook.cjs beside the calling
 * bundle (every caller is one of dist/'s bundles); null from sources, which have no build.
 */
export function currentWarmLookDir(home: string): string | null {
  return globalThis.__SHIM_BUNDLE__ ? warmLookDir(home, join(__dirname, 'hook.cjs')) : null;
}

/**
 * The directory for this build when the hook may ask through it: SHIM_HOME, `run/` and the
 * directory itself are this user's and nobody else can write into them, and neither of the last
 * two is a link. Anything else could hold another process's pipes, which would read the hook's
 * request (its environment) and answer in its name (text the model reads).
 */
export function trustedWarmLookDir(home: string): string | null {
  const dir = currentWarmLookDir(home);
  if (!dir) return null;
  return (distrustDir(home, true) ?? distrustDir(dirname(dir)) ?? distrustDir(dir)) ? null : dir;
}

/**
 * Why the warm look may not use `path` as a directory of its own, or null when it may: it must be
 * a real directory (`follow`: a link is followed, for SHIM_HOME, which may be the user's link),
 * owned by this user, writable by nobody else.
 */
export function distrustDir(path: string, follow = false): string | null {
  let stat;
  try {
    stat = follow ? statSync(path) : lstatSync(path);
  } catch {
    return 'missing';
  }
  if (stat.isSymbolicLink()) return 'a symbolic link';
  if (!stat.isDirectory()) return 'not a directory';
  if (stat.uid !== process.getuid?.()) return `owned by uid ${stat.uid}, not by you`;
  if ((stat.mode & 0o022) !== 0)
    return `writable by others (mode ${(stat.mode & 0o777).toString(8)})`;
  return null;
}

/**
 * Whether a process holds `dir`'s pipes open: the sure sign one serves (a pid file's pid may have
 * been reused since). Opening a pipe to write without writing tells its reader nothing.
 */
export function isServing(dir: string): boolean {
  let fd: number;
  try {
    fd = openSync(
      requestPipe(dir, 0),
      constants.O_WRONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW,
    );
  } catch {
    return false; // ENXIO: no reader; ENOENT: no pipe
  }
  try {
    return fstatSync(fd).isFIFO();
  } finally {
    closeSync(fd);
  }
}

/** True for a pipe of this user's (opened, so it cannot be swapped after the check). */
export function isOwnPipe(fd: number): boolean {
  const stat = fstatSync(fd);
  return stat.isFIFO() && stat.uid === process.getuid?.();
}

export const requestPipe = (dir: string, slot: number): string => join(dir, `req-${slot}`);
export const answerPipe = (dir: string, slot: number): string => join(dir, `ans-${slot}`);
export const slotLock = (dir: string, slot: number): string => join(dir, `slot-${slot}.lock`);
export const pidFile = (dir: string): string => join(dir, 'pid');
export const statsFile = (dir: string): string => join(dir, 'stats.json');

/** What the process says of itself, at most once a second (for `shim doctor` and the tests). */
export type WarmLookStats = { pid: number; answered: number; startedAt: string };

/** What the hook hands over: its event and input as it read them, and what only it knows. */
export type WarmRequest = {
  id: string;
  event: string;
  input: string;
  env: Record<string, string | undefined>;
  /** The hook's parent (Claude Code, or the shell that ran the hook): the agent's pid. */
  parentPid: number;
  cwd: string;
  /** The agent whose hook asks, by id (the process's own agent when absent: Claude Code's). */
  agent?: string;
};

/**
 * The hook's stdout as the in-process look would have written it (possibly empty); `lookHere`:
 * the hook answers itself (its project's config turns the warm look off).
 */
export type WarmAnswer = { id: string; out: string; lookHere?: boolean };

/**
 * One frame per line (JSON escapes newlines). A request starts with a newline too: what a caller
 * killed mid-write left in the pipe then ends as a line of its own, not glued to the next one.
 */
export function encodeRequest(request: WarmRequest): string {
  return `\n${JSON.stringify(request)}\n`;
}

export function encodeAnswer(answer: WarmAnswer): string {
  return `${JSON.stringify(answer)}\n`;
}

/** A line read from a pipe, or null when it is not a frame of this protocol. */
export function decodeRequest(line: string): WarmRequest | null {
  const frame = parseObject(line);
  if (
    !frame ||
    typeof frame.id !== 'string' ||
    typeof frame.event !== 'string' ||
    typeof frame.input !== 'string' ||
    typeof frame.env !== 'object' ||
    frame.env === null ||
    typeof frame.parentPid !== 'number' ||
    typeof frame.cwd !== 'string' ||
    (frame.agent !== undefined && typeof frame.agent !== 'string')
  )
    return null;
  return frame as WarmRequest;
}

export function decodeAnswer(line: string): WarmAnswer | null {
  const frame = parseObject(line);
  return frame && typeof frame.id === 'string' && typeof frame.out === 'string'
    ? (frame as WarmAnswer)
    : null;
}

function parseObject(line: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(line) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * The warm looks' directories under `home` (one per build that ran lately), with what they said:
 * `distrust` says which path may not be used and why (then nothing is read from it), `serving` whether a
 * process holds its pipes.
 */
export function listWarmLooks(home: string): {
  dir: string;
  pid: number | null;
  stats: WarmLookStats | null;
  serving: boolean;
  distrust: { path: string; why: string } | null;
}[] {
  let names: string[];
  try {
    names = readdirSync(join(home, 'run'));
  } catch {
    return [];
  }
  return names
    .filter((name) => /^warm-look-\d+-\d+-\d+$/.test(name))
    .map((name) => {
      const dir = join(home, 'run', name);
      const distrust = untrusted(join(home, 'run')) ?? untrusted(dir);
      if (distrust) return { dir, pid: null, stats: null, serving: false, distrust };
      const stats = parseObject(readText(statsFile(dir)) ?? '') as WarmLookStats | null;
      return { dir, pid: readWarmLookOwner(dir), stats, serving: isServing(dir), distrust };
    });
}

function untrusted(path: string): { path: string; why: string } | null {
  const why = distrustDir(path);
  return why ? { path, why } : null;
}

/** The pid its pid file names, or null (none, or not a pid). */
export function readWarmLookOwner(dir: string): number | null {
  const pid = Number(readText(pidFile(dir))?.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
