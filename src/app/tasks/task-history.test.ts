import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fixturePath, makeTempDir } from '../../../test/helpers/fixtures.ts';
import { openDatabase } from '../../store/sqlite/database.ts';
import { historyLogs, learnTaskHistory, storedTaskHistory } from './task-history.ts';
import { testAgents } from '../../../test/helpers/agents.ts';

const WITH_TASKS = [
  'entire-2372de7ea2ff-auto-compact-155k-todowrite-v2.1.5.jsonl',
  'entire-ed51f6581660-auto-compact-v2.1.42.jsonl',
];

function learnedAt(home: string): Record<string, string> {
  const db = openDatabase(home);
  try {
    const rows = db.prepare('SELECT path, learned_at FROM task_transcripts').all() as Array<{
      path: string;
      learned_at: string;
    }>;
    return Object.fromEntries(rows.map((r) => [r.path.split('/').pop()!, r.learned_at]));
  } finally {
    db.close();
  }
}

describe('learnTaskHistory', () => {
  test('reads each transcript once, again only when it changed; a hook reads the store only', async () => {
    const root = makeTempDir('shim-task-history-');
    const dir = join(root, 'projects', '-work');
    mkdirSync(dir, { recursive: true });
    for (const name of WITH_TASKS) copyFileSync(fixturePath(name), join(dir, name));
    const home = join(root, 'shim');
    // The folder as `--history <dir>` names it: each log read by the agent it is told to be.
    const logs = () => historyLogs({ agents: testAgents, dir: join(root, 'projects'), env: {} });
    const first = await learnTaskHistory({ ...(await logs()), home, now: 1_000 });
    assert.equal(first.sessions, 2);
    assert.ok(first.points.length >= 10, String(first.points.length));
    assert.deepEqual(
      [...new Set(first.points.map((p) => p.project))].sort(),
      ['/Users/alex/workspace/cli/.worktrees/3', '/Users/soph/Work/entire/devenv/cli'],
      "each point keeps its session's project, and the stored ones too",
    );
    assert.deepEqual(
      storedTaskHistory(home).points.map((p) => p.project),
      first.points.map((p) => p.project),
    );
    const stamped = learnedAt(home);
    assert.equal(Object.keys(stamped).length, 2);

    const second = await learnTaskHistory({ ...(await logs()), home, now: 2_000 });
    assert.deepEqual(learnedAt(home), stamped, 'unchanged transcripts are not read again');
    assert.equal(second.points.length, first.points.length);

    appendFileSync(join(dir, WITH_TASKS[0]!), '\n');
    await learnTaskHistory({ ...(await logs()), home, now: 3_000 });
    const after = learnedAt(home);
    assert.notEqual(after[WITH_TASKS[0]!], stamped[WITH_TASKS[0]!], 'a changed one is');
    assert.equal(after[WITH_TASKS[1]!], stamped[WITH_TASKS[1]!]);

    const without = await learnTaskHistory({
      ...(await logs()),
      home,
      now: 4_000,
      exclude: join(dir, WITH_TASKS[0]!),
    });
    assert.equal(without.sessions, 1, 'the session being estimated is left out');
    assert.equal(storedTaskHistory(home).points.length, first.points.length);
  });
});
