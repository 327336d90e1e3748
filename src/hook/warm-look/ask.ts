/**
 * The hook's side of the warm look (store/home/warm-look-place.ts): claim a slot, write the request
 * into its pipe, wait for the answer. Synchronous and small: it runs inside dist/hook-ask.cjs,
 * first after every tool call. Every way this can fail ends in "look here" (the hook loads the full
 * look itself), never in a hook that hangs: a process that died closes its end of the pipes and
 * the wait sees it at once; one that is alive but does not answer is given `waitMs`.
 * @module
 */
import {
  closeSync,
  constants,
  openSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import {
  answerPipe,
  decodeAnswer,
  encodeRequest,
  isOwnPipe,
  requestPipe,
  SLOTS,
  slotLock,
  type WarmRequest,
} from '../../store/home/warm-look-place.ts';

/**
 * The hook's stdout, or why it must look itself: `none` (no warm process here), `busy` (every
 * slot in use), `gone` (the process died: start another), `slow` (alive, no answer in time:
 * retired, so the next call starts a fresh one), `declined` (the project turns it off).
 */
export type AskOutcome = { out: string } | { out: null; why: WhyLookHere };

export type WhyLookHere = 'none' | 'busy' | 'gone' | 'slow' | 'declined';

const { O_RDONLY, O_WRONLY, O_NONBLOCK, O_NOFOLLOW } = constants;

export function askWarmLook(dir: string, request: WarmRequest, waitMs: number): AskOutcome {
  const slot = claimSlot(dir);
  if (typeof slot === 'string') return { out: null, why: slot };
  const fds: number[] = [];
  try {
    // The answer's pipe first: the process holds its other end open, so a read that finds no
    // writer left means it died (0 bytes), and one that finds nothing yet says EAGAIN.
    const answers = openSync(answerPipe(dir, slot), O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
    fds.push(answers);
    // No reader on the request's pipe (ENXIO): the process is gone.
    const requests = openSync(requestPipe(dir, slot), O_WRONLY | O_NONBLOCK | O_NOFOLLOW);
    fds.push(requests);
    // The request holds the hook's environment: it goes into a pipe of this user's, never into a
    // file; an answer is read from nothing else either.
    if (!isOwnPipe(requests) || !isOwnPipe(answers)) return { out: null, why: 'none' };
    const deadline = Date.now() + waitMs;
    if (!writeWhole(requests, Buffer.from(encodeRequest(request)), deadline))
      return { out: null, why: 'slow' };
    return readAnswer(answers, request.id, deadline);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { out: null, why: code === 'ENXIO' || code === 'EPIPE' ? 'gone' : 'none' };
  } finally {
    for (const fd of fds) closeSync(fd);
    try {
      unlinkSync(slotLock(dir, slot));
    } catch {
      // Removed by the process's sweep, or the directory was retired meanwhile.
    }
  }
}

/**
 * Takes the warm process out of service (it sees its directory gone and exits once its calls are
 * answered); the next call starts a fresh one.
 */
export function retireWarmLook(dir: string): void {
  try {
    renameSync(dir, `${dir}.retired-${process.pid}`);
  } catch {
    // Already retired by another call, or by the process itself.
  }
}

/** A free slot (its lock made with our pid), or why there is none. */
function claimSlot(dir: string): number | 'none' | 'busy' {
  for (let i = 0; i < SLOTS; i++) {
    const slot = (process.pid + i) % SLOTS;
    try {
      // Exclusive create: one caller per slot, and never through a planted link.
      const fd = openSync(slotLock(dir, slot), 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return slot;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return 'none';
    }
  }
  return 'busy';
}

function writeWhole(fd: number, data: Buffer, deadline: number): boolean {
  let written = 0;
  const wait = new Pause();
  while (written < data.length) {
    try {
      written += writeSync(fd, data, written);
    } catch (error) {
      // The pipe is full until the process reads: a request larger than the pipe's buffer.
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      if (Date.now() > deadline) return false;
      wait.next();
    }
  }
  return true;
}

function readAnswer(fd: number, id: string, deadline: number): AskOutcome {
  const buffer = Buffer.alloc(64 * 1024);
  const wait = new Pause();
  let text = '';
  for (;;) {
    let read: number;
    try {
      read = readSync(fd, buffer, 0, buffer.length, null);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      if (Date.now() > deadline) return { out: null, why: 'slow' };
      wait.next();
      continue;
    }
    if (read === 0) return { out: null, why: 'gone' };
    text += buffer.toString('utf8', 0, read);
    let end: number;
    while ((end = text.indexOf('\n')) !== -1) {
      // An answer left by a caller that gave up on this slot is skipped: only ours counts.
      const answer = decodeAnswer(text.slice(0, end));
      text = text.slice(end + 1);
      if (answer?.id === id)
        return answer.lookHere ? { out: null, why: 'declined' } : { out: answer.out };
    }
  }
}

/**
 * Sleeps between looks at a pipe: a tenth of a millisecond while an answer is due (a look takes
 * ~1–5 ms), then ever longer, so a wait costs wake-ups too short to notice, never a spinning core
 * and never more than ~5% of the time waited on top of the answer.
 */
class Pause {
  private readonly cell = new Int32Array(new SharedArrayBuffer(4));
  private readonly started = Date.now();

  next(): void {
    Atomics.wait(this.cell, 0, 0, Math.min(0.1 + (Date.now() - this.started) / 20, 5));
  }
}
