/**
 * Helpers for the store's tests: checkpoint drafts (hand-made or built from a real transcript),
 * a store on a real SQLite file in a temp dir, and the checkpoint-writer child process.
 * @module
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { assessSession } from '../../src/core/context/assess.ts';
import { buildCheckpoint } from '../../src/core/checkpoint/build-checkpoint.ts';
import type { CheckpointDraft } from '../../src/core/checkpoint/checkpoint.ts';
import {
  makeHugeCheckpoint,
  makeTypicalCheckpoint,
} from '../../src/core/checkpoint/checkpoint-fixture.test-helper.ts';
import { CheckpointRepository } from '../../src/store/checkpoints/checkpoint-repository.ts';
import { openDatabase, type Database } from '../../src/store/sqlite/database.ts';
import { HandoffRepository } from '../../src/store/checkpoints/handoff-repository.ts';
import { ResumeRepository } from '../../src/store/checkpoints/resume-repository.ts';
import { SessionRepository } from '../../src/store/checkpoints/session-repository.ts';
import { readCompressedTranscript } from '../../src/agents/claude/transcript-reader.ts';
import { fixturePath, gzFixturePath, makeTempDir } from './fixtures.ts';
import { compiledScript } from './script-process.ts';
import { claudeRuleFor } from '../../src/agents/claude/threshold.test-helper.ts';

export const REPO_ROOT = join(import.meta.dirname, '..', '..');
export const WRITER_SCRIPT = join(import.meta.dirname, 'checkpoint-writer.ts');

function withoutNumber({
  checkpointNumber: _,
  ...draft
}: CheckpointDraft & { checkpointNumber?: number }): CheckpointDraft {
  return draft;
}

/** The typical hand-made checkpoint (about 5 KB of JSON) as a draft with a fresh id. */
export function makeDraft(overrides: Partial<CheckpointDraft> = {}): CheckpointDraft {
  return withoutNumber({ ...makeTypicalCheckpoint(), id: randomUUID(), ...overrides });
}

/** Every list at its limit (about 146 KB of JSON) as a draft with a fresh id. */
export function makeHugeDraft(overrides: Partial<CheckpointDraft> = {}): CheckpointDraft {
  return withoutNumber({ ...makeHugeCheckpoint(), id: randomUUID(), ...overrides });
}

/** A draft built by the real pipeline (reader → assess → buildCheckpoint) from a fixture. */
export async function buildFixtureDraft(
  name = 'entire-ed51f6581660-auto-compact-v2.1.42.jsonl',
): Promise<CheckpointDraft> {
  const state = await readCompressedTranscript(gzFixturePath(name));
  const now = state.lastActivityAt ?? Date.parse('2026-02-12T04:10:00.000Z');
  const assessment = assessSession(state, { threshold: claudeRuleFor(state), now });
  return buildCheckpoint({
    id: randomUUID(),
    sessionId: state.sessionId ?? 'fixture-session',
    createdAt: new Date(now).toISOString(),
    trigger: 'user_requested',
    reason: null,
    state,
    agent: { id: 'claude', name: 'Claude Code' },
    assessment,
    git: null,
    transcriptPath: fixturePath(name),
  });
}

export type TempStore = {
  home: string;
  db: Database;
  checkpoints: CheckpointRepository;
  sessions: SessionRepository;
  resumes: ResumeRepository;
  handoffs: HandoffRepository;
  /** Closes the database and deletes the temp dir. */
  dispose(): void;
};

/** A migrated store in a fresh SHIM_HOME under the temp dir. */
export function openTempStore(): TempStore {
  const root = makeTempDir('shim-store-');
  const home = join(root, 'home');
  const db = openDatabase(home);
  return {
    home,
    db,
    checkpoints: new CheckpointRepository(db),
    sessions: new SessionRepository(db),
    resumes: new ResumeRepository(db),
    handoffs: new HandoffRepository(db),
    dispose() {
      if (db.isOpen) db.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Starts test/helpers/checkpoint-writer.ts (see there for the modes), compiled once. */
export function spawnWriter(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [compiledScript(WRITER_SCRIPT), ...args], {
    cwd: REPO_ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

export type WriterResult = {
  /** Complete lines printed on stdout (acknowledged ids, or `ready`). */
  lines: string[];
  stderr: string;
  code: number | null;
  signal: NodeJS.Signals | null;
};

/**
 * Collects a writer's complete stdout lines and waits for it to exit. `onLine` sees each line as
 * it arrives (e.g. to wait for `ready`).
 */
export function collectWriter(
  child: ChildProcessWithoutNullStreams,
  onLine: (line: string) => void = () => {},
): Promise<WriterResult> {
  const lines: string[] = [];
  let pending = '';
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    pending += chunk;
    let newline: number;
    while ((newline = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      lines.push(line);
      onLine(line);
    }
  });
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    // 'close' (not 'exit'): stdout has been fully read by then. A torn last line is dropped.
    child.on('close', (code, signal) => resolve({ lines, stderr, code, signal }));
  });
}
