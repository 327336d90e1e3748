/**
 * claude-mem through the outbox: when it is installed, a checkpoint at L2 becomes one observation
 * in its worker (a local server speaking its API), with the predictable title and the
 * `checkpoint` concept; while its worker is down the observation waits, and arrives once it is up.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { drainOutbox } from '../../src/app/sync/drain-outbox.ts';
import { createStore } from '../../src/app/open-store.ts';
import { queueTrackerSync } from '../../src/app/sync/enqueue-sync.ts';
import { makeTypicalCheckpoint } from '../../src/core/checkpoint/checkpoint-fixture.test-helper.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import { startFakeClaudeMem } from '../helpers/fake-claude-mem.ts';
import { makeTempDir } from '../helpers/fixtures.ts';

test('claude-mem: an L2 checkpoint is one observation, waiting while the worker is down', async () => {
  const root = makeTempDir('shim-claude-mem-');
  const memDir = join(root, '.claude-mem');
  mkdirSync(memDir);
  const worker = await startFakeClaudeMem();
  const port = worker.port;
  await worker.close();
  writeFileSync(
    join(memDir, 'settings.json'),
    JSON.stringify({ CLAUDE_MEM_WORKER_PORT: String(port) }),
  );
  const env = { HOME: root, CLAUDE_MEM_DATA_DIR: memDir, PATH: '/nonexistent' };
  const home = join(root, 'shim');
  const db = openDatabase(home);
  try {
    const base = makeTypicalCheckpoint();
    const checkpoint = {
      ...base,
      createdAt: new Date().toISOString(),
      triggeredBy: 'danger_zone' as const,
      source: { ...base.source, level: 'L2', contextTokens: 145_000, compactThreshold: 167_000 },
      fileState: {
        ...base.fileState,
        branch: 'feature/ANV-123-status-json',
        repoRoot: join(root, 'spotter'),
      },
    };
    const config = { enabled: true, label: null, state: null, claudeMem: true };
    const queued = await queueTrackerSync({
      store: createStore(db),
      checkpoint,
      config,
      home,
      env,
    });
    // No Linear key: the comment is not queued (it would post late when one is set).
    assert.equal(queued, 1, 'the observation');
    assert.equal(
      await queueTrackerSync({ store: createStore(db), checkpoint, config, home, env }),
      0,
    );

    const down = await drainOutbox({ store: createStore(db), home, env, backoffMs: () => 1_000 });
    assert.equal(down.retrying, 1, 'the worker is not running: the observation waits');

    const up = await startFakeClaudeMem(port);
    try {
      const later = await drainOutbox({
        store: createStore(db),
        home,
        env,
        now: () => new Date(Date.now() + 60_000),
      });
      assert.equal(later.delivered, 1);
      assert.equal(up.saved.length, 1);
      const [observation] = up.saved;
      assert.equal(observation!.title, 'Context Checkpoint L2 at 87% — ANV-123');
      assert.equal(observation!.project, 'spotter');
      assert.deepEqual(observation!.metadata?.concepts, ['checkpoint']);
      assert.equal(observation!.metadata?.checkpointId, checkpoint.id);
      assert.match(observation!.text, /\*\*Open\*\*\n- Fix backslash paths/);
      assert.doesNotMatch(observation!.text, /shim-sync/);
    } finally {
      await up.close();
    }
  } finally {
    db.close();
    rmSync(root, { recursive: true, force: true });
  }
});

test('claude-mem not installed, or turned off: nothing is queued for it', async () => {
  const root = makeTempDir('shim-no-claude-mem-');
  const home = join(root, 'shim');
  const db = openDatabase(home);
  try {
    const base = makeTypicalCheckpoint();
    const checkpoint = {
      ...base,
      triggeredBy: 'pre_compact' as const,
      fileState: { ...base.fileState, branch: 'main' },
    };
    const config = { enabled: true, label: null, state: null, claudeMem: true };
    assert.equal(
      await queueTrackerSync({
        store: createStore(db),
        checkpoint,
        config,
        home,
        env: { HOME: root },
      }),
      0,
    );
    mkdirSync(join(root, '.claude-mem'));
    const off = { ...config, claudeMem: false };
    assert.equal(
      await queueTrackerSync({
        store: createStore(db),
        checkpoint,
        config: off,
        home,
        env: { HOME: root },
      }),
      0,
    );
    assert.equal(
      await queueTrackerSync({
        store: createStore(db),
        checkpoint,
        config,
        home,
        env: { HOME: root },
      }),
      1,
    );
  } finally {
    db.close();
    rmSync(root, { recursive: true, force: true });
  }
});
