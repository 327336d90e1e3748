/**
 * Shared set-up for the team store's tests: a project clone with an `origin` remote, a local
 * store holding sessions and checkpoints in it, and a team repository on the test server.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckpointDraft } from '../../src/core/checkpoint/checkpoint.ts';
import { makeTempDir } from '../helpers/fixtures.ts';
import { makeDraft } from '../helpers/store.ts';

export const REMOTE = 'git@github.com:acme/app.git';

/** A git clone stand-in at a fresh path: `git init` plus the shared origin remote. */
export function makeClone(name: string, remote = REMOTE): string {
  const dir = join(makeTempDir('shim-team-clone-'), name);
  mkdirSync(dir, { recursive: true });
  execFileSync('git', ['init', '-q', dir]);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', remote]);
  return dir;
}

/** A checkpoint draft taken in `cwd` for `sessionId` at `createdAt`. */
export function draftIn(
  cwd: string,
  sessionId: string,
  createdAt: string,
  overrides: Partial<CheckpointDraft> = {},
): CheckpointDraft {
  const base = makeDraft();
  return {
    ...base,
    id: randomUUID(),
    sessionId,
    createdAt,
    source: { ...base.source, cwd, transcriptPath: null },
    fileState: { ...base.fileState, repoRoot: cwd, snapshot: null },
    ...overrides,
  };
}
