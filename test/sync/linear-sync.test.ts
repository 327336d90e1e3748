/**
 * Tracker sync against a local server speaking Linear's GraphQL API (test/helpers/fake-linear.ts),
 * through @linear/sdk: an L2 checkpoint on a branch named for TST-42 becomes one comment, the
 * label (created once) and the configured state; a retry does not post twice; a state that would
 * close the issue is refused.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { drainOutbox } from '../../src/app/sync/drain-outbox.ts';
import { createStore } from '../../src/app/open-store.ts';
import { queueTrackerSync } from '../../src/app/sync/enqueue-sync.ts';
import { makeTypicalCheckpoint } from '../../src/core/checkpoint/checkpoint-fixture.test-helper.ts';
import type { Checkpoint } from '../../src/core/checkpoint/checkpoint.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import { SyncOutbox } from '../../src/store/sync/sync-outbox.ts';
import { startFakeLinear, type FakeLinear } from '../helpers/fake-linear.ts';
import { makeTempDir } from '../helpers/fixtures.ts';

let linear: FakeLinear;
let root: string;
before(async () => {
  linear = await startFakeLinear();
  root = makeTempDir('shim-linear-');
});
after(async () => {
  await linear.close();
  rmSync(root, { recursive: true, force: true });
});

const checkpointOn = (branch: string, level: string): Checkpoint => {
  const base = makeTypicalCheckpoint();
  return {
    ...base,
    createdAt: new Date().toISOString(),
    triggeredBy: 'danger_zone',
    source: { ...base.source, level, cwd: null },
    fileState: { ...base.fileState, branch, repoRoot: null },
  };
};

test('Linear: one comment, the label created once, the configured state; no second post', async () => {
  linear.issues.push({
    id: 'issue-42',
    identifier: 'TST-42',
    title: 'Reach L2',
    stateId: 'st-todo',
    labelIds: [],
    comments: [],
  });
  const home = join(root, 'a');
  const db = openDatabase(home);
  const env = { LINEAR_API_KEY: linear.apiKey, LINEAR_API_URL: linear.url };
  try {
    const config = {
      enabled: true,
      label: 'context-checkpointed',
      state: 'In Progress',
      claudeMem: false,
    };
    const queued = await queueTrackerSync({
      store: createStore(db),
      checkpoint: checkpointOn('feature/TST-42-reach-l2', 'L2'),
      config,
      home,
      env,
    });
    assert.equal(queued, 3);
    const sent = await drainOutbox({ store: createStore(db), home, env });
    assert.deepEqual(sent, { delivered: 3, retrying: 0, failed: 0, waitingForToken: 0, stale: 0 });
    const issue = linear.issues.find((i) => i.identifier === 'TST-42')!;
    assert.equal(issue.comments.length, 1);
    assert.match(issue.comments[0]!.body, /^### shim checkpoint #\d+: context at L2/);
    assert.match(issue.comments[0]!.body, /^TST-42 · session/m);
    assert.deepEqual(
      linear.labels.map((l) => l.name),
      ['context-checkpointed'],
    );
    assert.deepEqual(issue.labelIds, [linear.labels[0]!.id]);
    assert.equal(issue.stateId, 'st-progress');

    // The same comment queued again under a new key would be a new moment; a retry of this one
    // (its entry made due again) finds the comment and posts nothing.
    db.prepare(
      "UPDATE sync_outbox SET status = 'pending', next_attempt_at = '2000-01-01' WHERE action = 'comment'",
    ).run();
    assert.equal((await drainOutbox({ store: createStore(db), home, env })).delivered, 1);
    assert.equal(issue.comments.length, 1);
    assert.ok(linear.operations.includes('issue_comments'), linear.operations.join(' '));
  } finally {
    db.close();
  }
});

test('Linear: a state that would close the issue is refused, once, as a failure that says why', async () => {
  linear.issues.push({
    id: 'issue-43',
    identifier: 'TST-43',
    title: 'Done?',
    stateId: 'st-todo',
    labelIds: [],
    comments: [],
  });
  const home = join(root, 'b');
  const db = openDatabase(home);
  const env = { LINEAR_API_KEY: linear.apiKey, LINEAR_API_URL: linear.url };
  try {
    const config = { enabled: true, label: null, state: 'Done', claudeMem: false };
    await queueTrackerSync({
      store: createStore(db),
      checkpoint: checkpointOn('TST-43-close', 'L3'),
      config,
      home,
      env,
    });
    const sent = await drainOutbox({ store: createStore(db), home, env });
    assert.equal(sent.delivered, 1);
    assert.equal(sent.failed, 1);
    assert.match(
      new SyncOutbox(db).counts().lastError ?? '',
      /"Done" would close TST-43; shim never closes an issue/,
    );
    assert.equal(linear.issues.find((i) => i.identifier === 'TST-43')!.stateId, 'st-todo');
  } finally {
    db.close();
  }
});

test('Linear: a bad key is a clear answer from the auth check', async () => {
  const { LinearClientAdapter } = await import('../../src/tracker/linear-client.ts');
  const client = new LinearClientAdapter({
    apiKey: 'lin_api_wrong',
    env: { LINEAR_API_URL: linear.url },
  });
  const auth = await client.checkAuth();
  assert.equal(auth.ok, false);
  assert.match(auth.ok ? '' : auth.message, /Linear rejected the API key/);
  const good = new LinearClientAdapter({
    apiKey: linear.apiKey,
    env: { LINEAR_API_URL: linear.url },
  });
  assert.deepEqual(await good.checkAuth(), { ok: true, who: 'tester@example.com' });
});

test('Linear: shards become sub-issues (parentId), moved to the completed state when done', async () => {
  linear.issues.push({
    id: 'issue-44',
    identifier: 'TST-44',
    title: 'Importer plan',
    stateId: 'st-progress',
    labelIds: [],
    comments: [],
  });
  const home = join(root, 'c');
  const env = { LINEAR_API_KEY: linear.apiKey, LINEAR_API_URL: linear.url };
  const { createShardIssues, completeFinishedShards } =
    await import('../../src/app/sync/shard-issues.ts');
  const made = await createShardIssues({
    home,
    env,
    parent: { tracker: 'linear', key: 'TST-44' },
    shards: [
      { file: '/p/shards/01-parser.md', title: 'Plan: shard 1 of 2, Parser', body: '- [ ] Parser' },
      { file: '/p/shards/02-tests.md', title: 'Plan: shard 2 of 2, Tests', body: '- [ ] Tests' },
    ],
    now: '2026-11-25T10:00:00.000Z',
  });
  assert.deepEqual(
    made.map((m) => m.created),
    [true, true],
  );
  const children = linear.issues.filter((i) => i.parentId === 'issue-44');
  assert.deepEqual(
    children.map((c) => c.title),
    ['Plan: shard 1 of 2, Parser', 'Plan: shard 2 of 2, Tests'],
  );
  const again = await createShardIssues({
    home,
    env,
    parent: { tracker: 'linear', key: 'TST-44' },
    shards: [{ file: '/p/shards/01-parser.md', title: 'x', body: 'x' }],
    now: '2026-11-25T10:01:00.000Z',
  });
  assert.equal(again[0]!.created, false, 'not made twice');
  const ticked = await completeFinishedShards({
    home,
    env,
    progress: [
      { file: '/p/shards/01-parser.md', first: 1, last: 1, done: 1, steps: 1 },
      { file: '/p/shards/02-tests.md', first: 2, last: 2, done: 0, steps: 1 },
    ],
    now: '2026-11-25T11:00:00.000Z',
  });
  assert.deepEqual(ticked, { ticked: [children[0]!.identifier], failed: [] });
  assert.equal(children[0]!.stateId, 'st-done');
  assert.equal(children[1]!.stateId, 'st-todo');
  assert.equal(
    linear.issues.find((i) => i.identifier === 'TST-44')!.stateId,
    'st-progress',
    'the parent is never closed',
  );
  assert.equal(
    linear.issues.find((i) => i.identifier === 'TST-44')!.comments.length,
    1,
    'the parent hears of it once',
  );
});
