/**
 * The warm look reads ahead: Claude Code writes a response to the transcript before it runs the
 * response's tool, and PostToolUse comes once the tool is done. Folding the response's bytes
 * as soon as they are written (app/session/read-session.ts, the same cursor a hook's look starts from)
 * leaves the hook's look only the decision — and leaves the cursor on disk current for the
 * statusline. Follows the transcripts the hooks asked about (at most FOLLOWED at once), each
 * until it has been quiet for the process's idle time.
 * @module
 */
import { unwatchFile, watch, watchFile, type Stats } from 'node:fs';
import { loadSessionStateAt } from '../../app/session/read-session.ts';
import { appendLog } from '../../store/home/log.ts';
import type { WriteBuffer } from '../../store/home/write-buffer.ts';
import type { Agent } from '../../agents/agent.ts';

/** Transcripts followed at once (the sessions of a few agents side by side). */
const FOLLOWED = 16;

/** Writes come in bursts (a response's lines): one fold once they stop for this long. */
const SETTLE_MS = 3;

/**
 * How often a transcript is looked at when it cannot be watched: inotify's instances are per
 * user (128 by default), and editors, agents and their tools on a busy machine take them all.
 */
const POLL_MS = 50;

type Followed = {
  /** Stops the watch (or the polling). */
  close: () => void;
  timer: NodeJS.Timeout | null;
  lastChange: number;
  agent: Agent;
};

export class ReadAhead {
  private readonly followed = new Map<string, Followed>();
  private readonly home: string;
  private readonly buffer: WriteBuffer;
  private readonly onFolded: () => void;
  private readonly watchFor: typeof watch;

  /**
   * Folds inside `buffer`, the looks' own; `onFolded`: a fold held a new cursor (the caller
   * saves it). `watchFor`: node:fs's watch, given by a test to stand for one that has no
   * instance to spare.
   */
  constructor(
    home: string,
    buffer: WriteBuffer,
    onFolded: () => void,
    watchFor: typeof watch = watch,
  ) {
    this.home = home;
    this.buffer = buffer;
    this.onFolded = onFolded;
    this.watchFor = watchFor;
  }

  /** Starts following the log a hook named, its agent's (a no-op when already followed). */
  follow(path: string, agent: Agent): void {
    if (this.followed.has(path) || agent.log.isCompressed(path)) return;
    if (this.followed.size >= FOLLOWED) this.forgetOldest();
    const close = this.watchOrPoll(path);
    if (close === null) return;
    this.followed.set(path, { close, timer: null, lastChange: Date.now(), agent });
    // Bytes written between the hook's answer and the watch would wait for the next write.
    this.changed(path);
  }

  /**
   * Watches `path` (inotify); where no watch is to be had, looks at it every POLL_MS (a stat, no
   * inotify) and says so. Null when it is gone.
   */
  private watchOrPoll(path: string): (() => void) | null {
    try {
      const watcher = this.watchFor(path, { persistent: false }, (event) => {
        if (event === 'rename') this.forget(path);
        else this.changed(path);
      });
      watcher.on('error', () => this.forget(path));
      return () => watcher.close();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      appendLog(this.home, 'info', 'warm look: follows a transcript by polling', {
        path,
        error: String(error),
      });
    }
    const listener = (now: Stats, before: Stats): void => {
      if (now.nlink === 0 || now.ino !== before.ino) this.forget(path);
      else if (now.size !== before.size || now.mtimeMs !== before.mtimeMs) this.changed(path);
    };
    watchFile(path, { persistent: false, interval: POLL_MS }, listener);
    return () => unwatchFile(path, listener);
  }

  /** Stops following transcripts unchanged for `idleMs`. */
  sweep(idleMs: number, now = Date.now()): void {
    for (const [path, entry] of this.followed)
      if (now - entry.lastChange > idleMs) this.forget(path);
  }

  close(): void {
    for (const path of [...this.followed.keys()]) this.forget(path);
  }

  private changed(path: string): void {
    const entry = this.followed.get(path);
    if (!entry) return;
    entry.lastChange = Date.now();
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      entry.timer = null;
      void this.fold(path, entry);
    }, SETTLE_MS);
  }

  private async fold(path: string, entry: Followed): Promise<void> {
    try {
      await this.buffer.hold(() => loadSessionStateAt(path, this.home, entry.agent));
      this.onFolded();
    } catch (error) {
      // The hook's own look meets the same problem and reports it: only noted here.
      appendLog(this.home, 'debug', 'warm look: reading ahead failed', {
        path,
        error: String(error),
      });
    }
  }

  private forget(path: string): void {
    const entry = this.followed.get(path);
    if (!entry) return;
    if (entry.timer) clearTimeout(entry.timer);
    entry.close();
    this.followed.delete(path);
  }

  private forgetOldest(): void {
    let oldest: [string, number] | null = null;
    for (const [path, entry] of this.followed)
      if (!oldest || entry.lastChange < oldest[1]) oldest = [path, entry.lastChange];
    if (oldest) this.forget(oldest[0]);
  }
}
