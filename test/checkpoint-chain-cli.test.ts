/**
 * Incremental checkpoints and their chains through the built binary (issue 43 items 1 and 2):
 * `shim checkpoint --json`'s size.stored, `shim show`'s "What led here", a broken chain read
 * around and reported by `shim doctor`, and every reader getting the whole state (export).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { openDatabase } from '../src/store/sqlite/database.ts';
import { runShim, type Run } from './helpers/cli.ts';
import { FIXTURES_MISSING, fixturePath } from './helpers/fixtures.ts';
import { makeWarmHome } from './helpers/shared-code-cache.ts';

const TASKS = 'entire-9b04c3d92e38-auto-compact-167k-taskcreate-v2.1.39.jsonl';

type Saved = {
  checkpointId: string;
  size: { uncompressed: number; compressed: number; stored: number };
};

function json<T>(run: Run): T {
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as T;
}

/** `shim checkpoint` of the task fixture read up to `line`. */
function checkpointAt(home: string, line: number): Saved {
  return json<Saved>(
    runShim(home, [
      'checkpoint',
      '--transcript',
      fixturePath(TASKS),
      '--until-line',
      String(line),
      '--json',
      '--no-snapshot',
    ]),
  );
}

describe('incremental checkpoints through the CLI', { skip: FIXTURES_MISSING }, () => {
  test('each checkpoint stores what changed; show tells what led to it; a broken chain is read around and reported', () => {
    const home = makeWarmHome('shim-chain-cli-');
    const shim = (args: string[]) => runShim(home, args);
    const saved = [100, 200, 300, 300].map((line) => checkpointAt(home, line));
    assert.equal(saved[0]!.size.stored, saved[0]!.size.compressed, 'the first is whole');
    for (const s of saved.slice(1))
      assert.ok(s.size.stored < s.size.compressed, JSON.stringify(s.size));
    assert.ok(
      saved[3]!.size.stored < 200,
      `an unchanged state adds ${saved[3]!.size.stored} bytes`,
    );

    const shown = json<{ id: string; chain: { steps: Array<{ id: string; changes: string[] }> } }>(
      shim(['show', saved[2]!.checkpointId, '--all', '--json']),
    );
    assert.equal(shown.id, saved[2]!.checkpointId);
    assert.deepEqual(
      shown.chain.steps.map((s) => s.id),
      [saved[2]!.checkpointId, saved[1]!.checkpointId, saved[0]!.checkpointId],
    );
    assert.ok(shown.chain.steps[0]!.changes.some((c) => /tool calls/.test(c)));
    const text = shim(['show', saved[2]!.checkpointId, '--all']);
    assert.match(text.stdout, /## What led here/);
    assert.match(text.stdout, /stored as its change since/);

    // Every reader gets the whole state: an export holds every checkpoint whole, and an import
    // into another store reads back the same requests and tasks.
    const session = sessionOf(home);
    const file = join(home, 'session.json');
    assert.equal(shim(['export', session, '-o', file]).status, 0);
    const rows = (
      JSON.parse(readFileSync(file, 'utf8')) as {
        rows: {
          checkpoints: Array<{ checkpoint: { id: string; taskState: { items: unknown[] } } }>;
        };
      }
    ).rows.checkpoints;
    assert.equal(rows.length, 4);
    assert.ok(rows.every((r) => r.checkpoint.taskState.items.length > 0));
    const other = makeWarmHome('shim-chain-cli-import-');
    assert.equal(runShim(other, ['import', file]).status, 0);
    const there = json<{ id: string; taskState: unknown }>(
      runShim(other, ['show', saved[3]!.checkpointId, '--all', '--json']),
    );
    const here = json<{ id: string; taskState: unknown }>(
      shim(['show', saved[3]!.checkpointId, '--all', '--json']),
    );
    assert.deepEqual(there.taskState, here.taskState);

    // Someone deletes the second checkpoint's row by hand: the third and fourth lose their base.
    const db = openDatabase(home);
    db.prepare('DELETE FROM checkpoints WHERE id = ?').run(saved[1]!.checkpointId);
    db.close();
    const broken = shim(['show', saved[3]!.checkpointId, '--all']);
    assert.equal(broken.status, 0, broken.stderr);
    assert.match(broken.stdout, /is broken \(missing link/);
    assert.match(broken.stdout, new RegExp(`this is ${saved[0]!.checkpointId.slice(0, 8)}`));
    const doctor = JSON.parse(shim(['doctor', '--json']).stdout) as {
      checks: Array<{ id: string; status: string; detail: string }>;
    };
    const chains = doctor.checks.find((c) => c.id === 'checkpoint-chains');
    assert.equal(chains?.status, 'warn');
    assert.match(chains!.detail, /broken: .*missing link/);
    const resumed = shim(['resume', '--print', '--session', session]);
    assert.equal(resumed.status, 0, resumed.stderr);
  });
});

describe("the seed's switches for chains", { skip: FIXTURES_MISSING }, () => {
  test('continuous false stores every checkpoint whole; restoreMaxContexts and restoreContextHours bound what show reads back', () => {
    const home = makeWarmHome('shim-chain-switches-');
    const config = (settings: object) =>
      writeFileSync(join(home, 'config.json'), JSON.stringify(settings));
    config({ checkpoints: { continuous: false }, restoreMaxContexts: 2 });
    const shim = (args: string[]) => runShim(home, args);
    const saved = [100, 200, 300].map((line) => checkpointAt(home, line));
    for (const s of saved)
      assert.equal(s.size.stored, s.size.compressed, `stored whole: ${JSON.stringify(s.size)}`);
    type Shown = { chain: { steps: Array<{ id: string }>; more: boolean } };
    const newest = saved[2]!.checkpointId;
    const two = json<Shown>(shim(['show', newest, '--all', '--json'])).chain;
    assert.deepEqual(
      two.steps.map((s) => s.id),
      [newest, saved[1]!.checkpointId],
    );
    assert.equal(two.more, true);
    assert.match(
      shim(['show', newest, '--all']).stdout,
      /earlier checkpoints \(restoreContextHours/,
    );
    // No hours back: only the checkpoint itself (its parent was taken before it).
    config({ restoreContextHours: 0 });
    const none = json<Shown>(shim(['show', newest, '--all', '--json'])).chain;
    assert.deepEqual(
      none.steps.map((s) => s.id),
      [newest],
    );
    assert.equal(none.more, true);
    config({});
    const all = json<Shown>(shim(['show', newest, '--all', '--json'])).chain;
    assert.equal(all.steps.length, 3);
    assert.equal(all.more, false);
  });
});

function sessionOf(home: string): string {
  const db = openDatabase(home);
  try {
    return (
      db.prepare('SELECT session_id FROM checkpoints LIMIT 1').get() as { session_id: string }
    ).session_id;
  } finally {
    db.close();
  }
}
