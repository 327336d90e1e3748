/**
 * The warm look's pipes (store/home/warm-look-place.ts) as its process holds them: made in a
 * directory of its own and moved into place whole (a hook never finds half a set), a directory
 * left by a process that died taken over, both ends of every pipe held open, and the tidying up
 * between calls (slots whose caller died, answers nobody read, directories hooks retired).
 * @module
 */
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { Socket } from 'node:net';
import { isProcessAlive } from '../../capture/process-tree.ts';
import { appendLog } from '../../store/home/log.ts';
import {
  answerPipe,
  distrustDir,
  isServing,
  pidFile,
  readWarmLookOwner,
  requestPipe,
  SLOTS,
  slotLock,
} from '../../store/home/warm-look-place.ts';
import { prepareRunDir } from './start.ts';

const { O_RDWR, O_NONBLOCK } = constants;

/** A slot's pipes, what came of its current line, and the id of the call that holds it now. */
export type Slot = { socket: Socket; answers: number; buffered: string; latest: string | null };

/** The pipes made and opened, the directory in place; null when another process serves. */
export function openPipes(dir: string, home: string): Slot[] | null {
  prepareRunDir(home);
  const staging = `${dir}.new-${process.pid}`;
  mkdirSync(staging, { mode: 0o700 });
  const paths: string[] = [];
  for (let slot = 0; slot < SLOTS; slot++)
    paths.push(requestPipe(staging, slot), answerPipe(staging, slot));
  try {
    execFileSync('mkfifo', ['-m', '600', ...paths], { stdio: 'ignore' });
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`mkfifo could not make the warm look's pipes: ${String(error)}`, {
      cause: error,
    });
  }
  // Both ends held: a pipe with this process's writer never reads as closed for the callers, and
  // its reader keeps the callers' writes going until this process dies.
  const slots: Slot[] = [];
  for (let slot = 0; slot < SLOTS; slot++) {
    const requests = openSync(requestPipe(staging, slot), O_RDWR | O_NONBLOCK);
    const answers = openSync(answerPipe(staging, slot), O_RDWR | O_NONBLOCK);
    const socket = new Socket({ fd: requests, readable: true, writable: false });
    slots.push({ socket, answers, buffered: '', latest: null });
  }
  writeFileSync(pidFile(staging), String(process.pid), { mode: 0o600 });
  if (moveIntoPlace(staging, dir, home)) return slots;
  for (const slot of slots) closeSlot(slot);
  rmSync(staging, { recursive: true, force: true });
  return null;
}

function moveIntoPlace(staging: string, dir: string, home: string): boolean {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      renameSync(staging, dir);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'ENOTDIR') throw error;
      // Not shim's (a link, another user's, open to others): moved aside unread, never used.
      const foreign = distrustDir(dir);
      if (foreign) {
        appendLog(home, 'warn', "warm look: moved aside what is not shim's own in run/", {
          path: dir,
          why: foreign,
        });
        try {
          renameSync(dir, `${dir}.foreign-${process.pid}`);
        } catch {
          // Moved by another starter meanwhile.
        }
        continue;
      }
      // A process holding its pipes serves; a pid file alone may name a pid reused since.
      if (isServing(dir)) return false;
      // The pipes of a process that died (killed, the machine restarted): taken over.
      const owner = readWarmLookOwner(dir);
      appendLog(home, 'info', 'warm look: replacing the pipes of a process that is gone', {
        pid: owner,
        ...(owner !== null && isProcessAlive(owner) ? { pidReused: true } : {}),
      });
      const dead = `${dir}.dead-${process.pid}`;
      try {
        renameSync(dir, dead);
        rmSync(dead, { recursive: true, force: true });
      } catch {
        // Another starter took it over first: try once more, then leave it to them.
      }
    }
  }
  return false;
}

export function closeSlot(slot: Slot): void {
  slot.socket.destroy();
  try {
    closeSync(slot.answers);
  } catch {
    // Closed already.
  }
}

/** The directories of this build that hooks retired: their processes may be gone. */
export function retiredCopies(dir: string): string[] {
  const parent = dir.slice(0, dir.lastIndexOf('/'));
  const name = dir.slice(dir.lastIndexOf('/') + 1);
  try {
    return readdirSync(parent)
      .filter((entry) => entry.startsWith(`${name}.retired-`))
      .map((entry) => `${parent}/${entry}`);
  } catch {
    return [];
  }
}

/** Frees the slots of callers that died holding them. */
export function freeAbandonedSlots(dir: string): void {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (let slot = 0; slot < SLOTS; slot++) {
    const lock = slotLock(dir, slot);
    if (!entries.includes(`slot-${slot}.lock`)) continue;
    let owner: number;
    try {
      owner = Number(readFileSync(lock, 'utf8'));
    } catch {
      continue;
    }
    // An empty lock is one being written this instant: left for the next look.
    if (owner > 0 && !isProcessAlive(owner)) {
      try {
        unlinkSync(lock);
      } catch {
        // Freed by its caller meanwhile.
      }
    }
  }
}

export function drain(fd: number): void {
  const buffer = Buffer.alloc(64 * 1024);
  for (;;) {
    try {
      if (readSync(fd, buffer, 0, buffer.length, null) <= 0) return;
    } catch {
      return; // EAGAIN: empty
    }
  }
}
