/**
 * A child process for the store's crash-safety, concurrency and migration tests (spawnWriter in
 * store.ts starts it compiled: script-process.ts). Run by hand with
 * `node --import tsx test/helpers/checkpoint-writer.ts <mode> <SHIM_HOME> [draft.json]`:
 *
 * - `loop <home> <draft.json>`: prints `ready` (start-up done), opens the store once and saves
 *   copies of the draft (each with a fresh id) until killed; after each save returns, prints the
 *   id on stdout (the acknowledgement).
 * - `loop-reopen <home> <draft.json>`: the same, but opens and closes the database around every
 *   save, the way hook processes do (so kills also land in open, recovery and close).
 * - `once <home> <draft.json>`: prints `ready`, waits for a line on stdin, opens the store, saves
 *   one copy, closes, prints the id and exits 0.
 * - `open <home>`: prints `ready`, waits for a line on stdin, opens (and so migrates) the
 *   database, closes it, prints `opened` and exits 0.
 *
 * Acknowledgements are written synchronously to fd 1, one complete line per write, so whatever
 * the parent has read was printed after the commit returned.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, writeSync } from 'node:fs';
import type { CheckpointDraft } from '../../src/core/checkpoint/checkpoint.ts';
import { CheckpointRepository } from '../../src/store/checkpoints/checkpoint-repository.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';

function printLine(text: string): void {
  const bytes = Buffer.from(`${text}\n`, 'utf8');
  let written = 0;
  while (written < bytes.length) {
    try {
      written += writeSync(1, bytes, written);
    } catch (error) {
      // stdout is a pipe the parent drains; if it is momentarily full, try again.
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
    }
  }
}

function waitForGo(): Promise<void> {
  printLine('ready');
  return new Promise((resolve) => {
    process.stdin.once('data', () => {
      process.stdin.pause();
      resolve();
    });
  });
}

function readDraft(path: string | undefined): CheckpointDraft {
  if (!path) throw new Error('missing draft.json argument');
  return JSON.parse(readFileSync(path, 'utf8')) as CheckpointDraft;
}

function saveCopy(repository: CheckpointRepository, draft: CheckpointDraft): string {
  const id = randomUUID();
  repository.save({ ...draft, id });
  return id;
}

async function main(): Promise<void> {
  const [mode, home, draftPath] = process.argv.slice(2);
  if (!home) throw new Error('usage: checkpoint-writer <mode> <home> [draft.json]');
  switch (mode) {
    case 'loop': {
      const draft = readDraft(draftPath);
      printLine('ready');
      const repository = new CheckpointRepository(openDatabase(home));
      for (;;) printLine(saveCopy(repository, draft));
    }
    case 'loop-reopen': {
      const draft = readDraft(draftPath);
      printLine('ready');
      for (;;) {
        const db = openDatabase(home);
        // Acknowledged before close: the commit alone must make it durable.
        printLine(saveCopy(new CheckpointRepository(db), draft));
        db.close();
      }
    }
    case 'once': {
      const draft = readDraft(draftPath);
      await waitForGo();
      const db = openDatabase(home);
      const id = saveCopy(new CheckpointRepository(db), draft);
      db.close();
      printLine(id);
      return;
    }
    case 'open': {
      await waitForGo();
      openDatabase(home).close();
      printLine('opened');
      return;
    }
    default:
      throw new Error(`unknown mode ${mode}`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
