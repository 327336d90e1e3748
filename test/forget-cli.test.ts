/**
 * `shim forget` through the built binary, on a real store: what it removes leaves no trace in
 * any table (search index included), no handoff file, no cache file; everything else — every
 * other row of every table, every other file under SHIM_HOME — is exactly as before.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { DatabaseSync } from '@photostructure/sqlite';
import { runShim } from './helpers/cli.ts';
import { fixturePath } from './helpers/fixtures.ts';
import { makeWarmHome } from './helpers/shared-code-cache.ts';
import { dumpFiles, dumpStore } from './helpers/store-dump.ts';

const A = 'entire-9b04c3d92e38-auto-compact-167k-taskcreate-v2.1.39.jsonl';
const B = 'spotter-short-v2.1.38.jsonl';

type Saved = { checkpointId: string; sessionId: string };

function json<T>(run: { status: number | null; stdout: string; stderr: string }): T {
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as T;
}

/** FTS rows of a checkpoint (matched through checkpoint_search_ids). */
function searchRowsOf(home: string, checkpointIds: string[]): number {
  const db = new DatabaseSync(join(home, 'shim.db'), { readOnly: true });
  try {
    const docs = db.prepare('SELECT doc, checkpoint_id FROM checkpoint_search_ids').all() as Array<{
      doc: number;
      checkpoint_id: string;
    }>;
    return docs.filter((d) => checkpointIds.includes(d.checkpoint_id)).length;
  } finally {
    db.close();
  }
}

function setupStore() {
  const home = makeWarmHome('shim-forget-');
  const a1 = json<Saved>(runShim(home, ['checkpoint', '--transcript', fixturePath(A), '--json']));
  const a2 = json<Saved>(runShim(home, ['checkpoint', '--transcript', fixturePath(A), '--json']));
  const b1 = json<Saved>(runShim(home, ['checkpoint', '--transcript', fixturePath(B), '--json']));
  // Index every checkpoint for search, and write a handoff of each session.
  assert.equal(runShim(home, ['search', 'the', '--all', '--json']).status, 0);
  assert.equal(runShim(home, ['handoff', '--session', a2.sessionId]).status, 0);
  assert.equal(runShim(home, ['handoff', '--session', b1.sessionId]).status, 0);
  return { home, a1, a2, b1 };
}

/** Asserts `after` is `before` minus exactly the rows and files that mention `gone`. */
function assertOnlyRemoved(
  before: { rows: Map<string, string[]>; files: Map<string, string> },
  after: { rows: Map<string, string[]>; files: Map<string, string> },
  gone: string[],
  removedSearchRows: number,
): void {
  const mentions = (text: string) => gone.some((id) => text.includes(id));
  for (const [table, rows] of before.rows) {
    const now = after.rows.get(table) ?? [];
    assert.deepEqual(now.filter(mentions), [], `no row of ${table} mentions what was forgotten`);
    if (table === 'learned_secrets') {
      // A learned secret stays (a hash keeps other copies redacted), named by no session.
      const unnamed = rows
        .map((r) => (mentions(r) ? JSON.stringify({ ...JSON.parse(r), session_id: '' }) : r))
        .sort();
      assert.deepEqual(now, unnamed, 'learned_secrets: its entries stay, unnamed');
      continue;
    }
    if (table === 'checkpoint_search') {
      assert.equal(now.length, rows.length - removedSearchRows, 'search rows of it went');
      for (const row of now) assert.ok(rows.includes(row), 'other search rows are unchanged');
      continue;
    }
    assert.deepEqual(
      now,
      rows.filter((r) => !mentions(r)),
      `${table}: nothing else changed`,
    );
  }
  for (const [path, content] of before.files) {
    if (mentions(path) || mentions(content)) {
      assert.equal(after.files.has(path), false, `${path} went`);
    } else {
      assert.equal(after.files.get(path), content, `${path} is unchanged`);
    }
  }
  for (const path of after.files.keys()) assert.ok(before.files.has(path), `no new file ${path}`);
}

describe('shim forget', () => {
  test('a checkpoint: its rows, search entries and handoff go; nothing else changes', () => {
    const { home, a2 } = setupStore();
    const before = { rows: dumpStore(home), files: dumpFiles(home) };
    const searchRows = searchRowsOf(home, [a2.checkpointId]);
    assert.equal(searchRows, 1, 'the checkpoint was indexed for search');

    const dry = json<{ dryRun: boolean; checkpoints: string[]; handoffFiles: string[] }>(
      runShim(home, ['forget', a2.checkpointId.slice(0, 8), '--dry-run', '--json']),
    );
    assert.equal(dry.dryRun, true);
    assert.deepEqual(dry.checkpoints, [a2.checkpointId]);
    assert.equal(dry.handoffFiles.length, 1);
    assert.deepEqual(dumpStore(home), before.rows, 'a dry run changes nothing');

    const run = runShim(home, ['forget', a2.checkpointId.slice(0, 8)]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /removed 1 checkpoint, 1 handoff document/);
    const after = { rows: dumpStore(home), files: dumpFiles(home) };
    assertOnlyRemoved(before, after, [a2.checkpointId], 1);
    assert.ok(!existsSync(dry.handoffFiles[0]!));
  });

  test('a session, by the 8 characters `shim list` prints: every checkpoint, handoff and cache of it goes; the other session is untouched', () => {
    const { home, b1, a1, a2 } = setupStore();
    const before = { rows: dumpStore(home), files: dumpFiles(home) };
    // The session as `shim list` prints it: its first 8 characters.
    const short = a1.sessionId.slice(0, 8);
    assert.match(runShim(home, ['list', '--all']).stdout, new RegExp(`\\b${short}\\b`));
    const run = json<{ checkpoints: string[]; rows: Record<string, number> }>(
      runShim(home, ['forget', short, '--json']),
    );
    assert.deepEqual(run.checkpoints.sort(), [a1.checkpointId, a2.checkpointId].sort());
    assert.ok((run.rows.sessions ?? 0) >= 1);
    const after = { rows: dumpStore(home), files: dumpFiles(home) };
    assertOnlyRemoved(before, after, [a1.sessionId, a1.checkpointId, a2.checkpointId], 2);
    assert.ok(after.rows.get('checkpoints')!.some((r) => r.includes(b1.checkpointId)));
  });

  test('sessions restored from it are named, kept without --with-restored, forgotten with it (and said in --json)', () => {
    const { home, a1, b1 } = setupStore();
    // B's session was restored from A's.
    const db = new DatabaseSync(join(home, 'shim.db'));
    try {
      db.prepare('UPDATE sessions SET resumed_from_session = ? WHERE session_id = ?').run(
        a1.sessionId,
        b1.sessionId,
      );
    } finally {
      db.close();
    }
    const dry = json<{ restoredInto: string[]; alsoForgotten?: unknown }>(
      runShim(home, ['forget', a1.sessionId, '--dry-run', '--json']),
    );
    assert.deepEqual(dry.restoredInto, [b1.sessionId]);
    assert.equal(dry.alsoForgotten, undefined, 'nothing else without the option');
    const told = runShim(home, ['forget', a1.sessionId, '--dry-run']);
    assert.match(told.stdout, new RegExp(`restored from it .*${b1.sessionId}.*--with-restored`));
    const run = json<{ restoredInto: string[]; alsoForgotten: Array<{ checkpoints: string[] }> }>(
      runShim(home, ['forget', a1.sessionId, '--with-restored', '--json']),
    );
    assert.deepEqual(run.restoredInto, [b1.sessionId]);
    assert.deepEqual(run.alsoForgotten[0]?.checkpoints, [b1.checkpointId]);
    const after = dumpStore(home);
    for (const table of ['checkpoints', 'sessions'])
      assert.deepEqual(
        (after.get(table) ?? []).filter(
          (r) => r.includes(a1.sessionId) || r.includes(b1.sessionId),
        ),
        [],
        `no row of ${table} of either session`,
      );
  });

  test('something the store does not hold: one clear line, exit 1', () => {
    const home = makeWarmHome('shim-forget-');
    runShim(home, ['checkpoint', '--transcript', fixturePath(B), '--json']);
    const run = runShim(home, ['forget', 'deadbeef-no-such']);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /no checkpoint or session "deadbeef-no-such"/);
  });
});
