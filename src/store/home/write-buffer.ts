/**
 * Writes and background starts held back until their owner has answered. The warm look
 * (hook/warm-look/serve.ts) owns one: each look, and each read-ahead fold, runs inside it
 * ({@link WriteBuffer.hold}), so the small JSON files a look replaces (json-file.ts) and the shim
 * jobs it starts (app/run-in-background.ts) wait until the hook has its answer — replacing a file
 * costs ~0.2–0.7 ms on ext4 (the rename starts the new data's write-out), starting a process from
 * one of ~50 MB several ms. The owner then writes and starts them ({@link WriteBuffer.flush},
 * {@link WriteBuffer.startJobs}). Work outside a buffer, which is everything but the warm look's
 * looks, writes and starts at once.
 * @module
 */
import type { AsyncLocalStorage } from 'node:async_hooks';
import { writeFileSafely } from './safe-file.ts';

/**
 * The buffer of the work running now, through its awaits and callbacks. Made with the first
 * buffer: a process that holds nothing (every hook's own, every command) never loads it.
 */
let current: AsyncLocalStorage<WriteBuffer> | null = null;

/** The buffer the running work writes into, or undefined: it writes at once. */
export function heldBy(): WriteBuffer | undefined {
  return current?.getStore();
}

/**
 * Writes `text` to `path` (never through a symbolic link: safe-file.ts): at once, or, inside a
 * buffer, when its owner has answered.
 */
export function writeWhenAnswered(path: string, text: string): void {
  const buffer = heldBy();
  if (buffer) buffer.write(path, text);
  else writeFileSafely(path, text);
}

export class WriteBuffer {
  /** The newest text of each file written, by path. */
  private readonly files = new Map<string, string>();
  private readonly jobs: Array<() => Promise<void>> = [];
  private readonly scope: AsyncLocalStorage<WriteBuffer>;

  private constructor(scope: AsyncLocalStorage<WriteBuffer>) {
    this.scope = scope;
  }

  static async create(): Promise<WriteBuffer> {
    const { AsyncLocalStorage } = await import('node:async_hooks');
    current ??= new AsyncLocalStorage<WriteBuffer>();
    return new WriteBuffer(current);
  }

  /** Runs `work` with its writes and job starts held here (through every await it makes). */
  hold<T>(work: () => T): T {
    return this.scope.run(this, work);
  }

  /** What this buffer holds for `path` (a look reads what an earlier look wrote). */
  read(path: string): string | undefined {
    return this.files.get(path);
  }

  write(path: string, text: string): void {
    this.files.set(path, text);
  }

  /** A held write of `path` is not made (the file is being removed). */
  drop(path: string): void {
    this.files.delete(path);
  }

  holdJob(start: () => Promise<void>): void {
    this.jobs.push(start);
  }

  /** Writes what is held; the paths that could not be written, with why. */
  flush(): { path: string; error: string }[] {
    const failed: { path: string; error: string }[] = [];
    for (const [path, text] of this.files) {
      try {
        writeFileSafely(path, text);
      } catch (error) {
        failed.push({ path, error: String(error) });
      }
    }
    this.files.clear();
    return failed;
  }

  /** Starts the jobs held, in the order they were asked for. */
  async startJobs(): Promise<void> {
    for (const start of this.jobs.splice(0)) await start();
  }

  /** Forgets every held write and job (their SHIM_HOME is gone). */
  clear(): void {
    this.files.clear();
    this.jobs.length = 0;
  }
}
