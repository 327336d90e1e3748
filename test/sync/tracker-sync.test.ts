/**
 * Tracker sync against a local server speaking GitHub's REST API (test/helpers/fake-github.ts),
 * through the official client: an L2 checkpoint becomes exactly one comment and the label; a
 * queued moment is queued once; the API down for a while then up delivers everything once; a
 * worker killed with SIGKILL after posting and before recording it does not post twice; no
 * token sends nothing; a bad token is one clear line in `shim doctor`, never a hook failure.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { drainOutbox } from '../../src/app/sync/drain-outbox.ts';
import { createStore } from '../../src/app/open-store.ts';
import { queueTrackerSync } from '../../src/app/sync/enqueue-sync.ts';
import { makeTypicalCheckpoint } from '../../src/core/checkpoint/checkpoint-fixture.test-helper.ts';
import type { Checkpoint } from '../../src/core/checkpoint/checkpoint.ts';
import { openDatabase, type Database } from '../../src/store/sqlite/database.ts';
import { SyncOutbox } from '../../src/store/sync/sync-outbox.ts';
import { BIN, runShim } from '../helpers/cli.ts';
import { startFakeGitHub, type FakeGitHub } from '../helpers/fake-github.ts';
import { fixturePath, makeTempDir } from '../helpers/fixtures.ts';

const REPO = 'acme/api';

function runShimAsync(
  home: string,
  args: string[],
  env: Record<string, string>,
  cwd?: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      ...(cwd ? { cwd } : {}),
      env: { ...env, SHIM_HOME: home, CLAUDE_CONFIG_DIR: join(home, 'no-claude'), NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('exit', () => resolve(out));
  });
}
const SYNC = { enabled: true, label: 'context-checkpointed', state: null, claudeMem: true };

describe('tracker sync (GitHub)', { timeout: 120_000 }, () => {
  let root: string;
  let home: string;
  let project: string;
  let github: FakeGitHub;
  let env: Record<string, string>;
  let db: Database;

  const l2 = (overrides: Partial<Checkpoint> = {}): Checkpoint => {
    const base = makeTypicalCheckpoint();
    return {
      ...base,
      // Now: an update for a moment long past is not sent (sync.staleAfterHours).
      createdAt: new Date().toISOString(),
      triggeredBy: 'danger_zone',
      ...overrides,
      source: {
        ...base.source,
        level: 'L2',
        cwd: project,
        contextTokens: 145_000,
        compactThreshold: 167_000,
      },
      fileState: { ...base.fileState, branch: '42-fix-backslash-paths', repoRoot: project },
    };
  };
  const queue = (checkpoint: Checkpoint) =>
    queueTrackerSync({ store: createStore(db), checkpoint, config: SYNC, home, env });
  const drain = (at = Date.now()) =>
    drainOutbox({
      store: createStore(db),
      home,
      env,
      now: () => new Date(at),
      backoffMs: () => 1_000,
    });

  before(async () => {
    root = makeTempDir('shim-sync-');
    project = join(root, 'project');
    mkdirSync(project);
    spawnSync('git', ['init', '-q', '-b', 'main'], { cwd: project });
    spawnSync('git', ['remote', 'add', 'origin', `git@github.com:${REPO}.git`], { cwd: project });
    github = await startFakeGitHub({ repo: REPO });
    env = {
      PATH: process.env.PATH ?? '',
      HOME: root,
      GITHUB_TOKEN: github.token,
      GITHUB_API_URL: github.url,
    };
  });
  after(async () => {
    await github.close();
    rmSync(root, { recursive: true, force: true });
  });
  beforeEach(() => {
    home = join(makeTempDir('shim-sync-home-'));
    db?.close();
    db = openDatabase(home);
    github.issues.clear();
    github.requests.length = 0;
    github.down = false;
    github.delayMs = 0;
    github.issues.set('42', {
      number: 42,
      title: 'Backslash paths',
      state: 'open',
      labels: [],
      comments: [],
    });
  });

  test('an L2 checkpoint: exactly one comment and the label; queued twice, sent once', async () => {
    const checkpoint = l2();
    assert.equal(await queue(checkpoint), 2, 'a comment and a label');
    assert.equal(await queue(checkpoint), 0, 'the same moment is queued once');
    const sent = await drain();
    assert.deepEqual(sent, { delivered: 2, retrying: 0, failed: 0, waitingForToken: 0, stale: 0 });
    const issue = github.issues.get('42')!;
    assert.equal(issue.comments.length, 1);
    assert.deepEqual(issue.labels, ['context-checkpointed']);
    const body = issue.comments[0]!.body;
    assert.match(
      body,
      /^### shim checkpoint #\d+: context at L2 \(87% of the auto-compact threshold\)/,
    );
    assert.match(body, /\*\*Open\*\*\n- Fix backslash paths in transcript lookup \(in progress\)/);
    assert.match(body, /\*\*Done\*\*\n- Add --json flag to shim status/);
    assert.match(body, /<!-- shim-sync github:acme\/api:42:L2:/);
    assert.ok(body.includes(`Handoff (local): \`${join(home, 'handoffs')}/`), body);
    assert.deepEqual(await drain(), {
      delivered: 0,
      retrying: 0,
      failed: 0,
      waitingForToken: 0,
      stale: 0,
    });
    // shim status shows the sync's state (from the drain's summary file, not the store).
    const status = runShim(home, ['status', fixturePath('spotter-short-v2.1.38.jsonl')]);
    assert.equal(status.status, 0, status.stderr);
    assert.match(status.stdout, /Sync +2 sent · 0 waiting · 0 failed/);
    // Its L3 is another moment: one more comment, the label not again.
    await queue({ ...l2(), source: { ...l2().source, level: 'L3' } });
    await drain();
    assert.equal(issue.comments.length, 2);
    assert.equal(
      github.requests.filter((r) => r.startsWith('POST') && r.endsWith('/labels')).length,
      1,
    );
  });

  test('the API down for a while, then up: everything arrives, once', async () => {
    await queue(l2());
    github.down = true;
    const failed = await drain();
    assert.equal(failed.delivered, 0);
    assert.equal(failed.retrying, 1);
    // The label was not tried yet: the next drain tries it, and it waits too.
    assert.equal((await drain()).delivered, 0);
    assert.equal((await drain()).retrying, 0, 'nothing is due before its backoff');
    github.down = false;
    const later = await drain(Date.now() + 60_000);
    assert.equal(later.delivered, 2);
    assert.equal(github.issues.get('42')!.comments.length, 1);
    assert.deepEqual(github.issues.get('42')!.labels, ['context-checkpointed']);
    const counts = new SyncOutbox(db).counts();
    assert.equal(counts.delivered, 2);
    assert.equal(counts.pending, 0);
  });

  test('a worker killed with SIGKILL after posting: the retry finds the comment, posts nothing', async () => {
    await queue(l2());
    db.close();
    github.delayMs = 3_000;
    const worker = spawn(process.execPath, [BIN, 'sync', '--drain'], {
      env: { ...env, SHIM_HOME: home },
      stdio: 'ignore',
    });
    const deadline = Date.now() + 20_000;
    while (!github.requests.some((r) => r.startsWith('POST') && r.endsWith('/comments'))) {
      assert.ok(Date.now() < deadline, `no comment posted: ${github.requests.join(', ')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    worker.kill('SIGKILL');
    await new Promise((r) => worker.once('exit', r));
    github.delayMs = 0;
    assert.equal(github.issues.get('42')!.comments.length, 1, 'the comment landed');
    db = openDatabase(home);
    assert.equal(new SyncOutbox(db).counts().pending, 2, 'but was not recorded as sent');
    // Its lease still runs: nobody takes the comment over yet (the label was not the worker's).
    assert.equal((await drain()).delivered, 1);
    assert.equal(new SyncOutbox(db).counts().pending, 1);
    const posts = github.requests.filter(
      (r) => r.startsWith('POST') && r.endsWith('/comments'),
    ).length;
    const retried = await drain(Date.now() + 10 * 60_000);
    assert.equal(retried.delivered, 1);
    assert.equal(github.issues.get('42')!.comments.length, 1, 'not posted twice');
    assert.equal(
      github.requests.filter((r) => r.startsWith('POST') && r.endsWith('/comments')).length,
      posts,
    );
  });

  test('no token: nothing leaves the machine, and the status says how to turn it on', async () => {
    await queue(l2());
    const bare = { PATH: '/nonexistent', HOME: root, GITHUB_API_URL: github.url };
    const sent = await drainOutbox({ store: createStore(db), home, env: bare });
    assert.equal(sent.waitingForToken, 2);
    assert.deepEqual(github.requests, []);
    db.close();
    const status = runShim(home, ['sync', '--status'], { env: { ...bare, GITHUB_TOKEN: '' } });
    assert.equal(status.status, 0, status.stderr);
    assert.match(status.stdout, /0 sent, 2 waiting/);
    assert.match(status.stdout, /github: no GitHub token — set GITHUB_TOKEN/);
    db = openDatabase(home);
  });

  test('only where the user meant it: a key quoted in a prompt queues nothing unless configured', async () => {
    const base = l2();
    const onMain = {
      ...base,
      fileState: { ...base.fileState, branch: 'main' },
      conversationState: {
        ...base.conversationState,
        userRequests: ['format the ids like TXT-88 in the export'],
      },
    };
    assert.equal(await queue(onMain), 0);
    assert.equal(new SyncOutbox(db).counts().pending, 0);
    const added = await queueTrackerSync({
      store: createStore(db),
      checkpoint: { ...onMain, id: 'other-id' },
      config: { ...SYNC, fromRequests: true },
      home,
      env: { ...env, LINEAR_API_KEY: 'lin_api_test' },
    });
    assert.equal(added, 2, 'with sync.fromRequests the request names the issue');
  });

  test('no token when the moment comes: nothing is queued to be posted later', async () => {
    const bare = { PATH: '/nonexistent', HOME: root, GITHUB_API_URL: github.url };
    const added = await queueTrackerSync({
      store: createStore(db),
      checkpoint: l2(),
      config: SYNC,
      home,
      env: bare,
    });
    assert.equal(added, 0);
    assert.equal(new SyncOutbox(db).counts().pending, 0);
  });

  test('a token set after entries waited for one: the next shim sync sends them, and the error is gone', async () => {
    await queue(l2());
    const bare = { PATH: '/nonexistent', HOME: root, GITHUB_API_URL: github.url };
    assert.equal(
      (await drainOutbox({ store: createStore(db), home, env: bare })).waitingForToken,
      2,
    );
    assert.match(new SyncOutbox(db).counts().lastError ?? '', /no GitHub token/);
    const sent = await drainOutbox({ store: createStore(db), home, env });
    assert.equal(sent.delivered, 2, 'not 6 hours later');
    assert.equal(github.issues.get('42')!.comments.length, 1);
    assert.equal(new SyncOutbox(db).counts().lastError, null);
  });

  test('an update that waited past its moment is not posted, and sync --status says so', async () => {
    await queue(l2());
    const sent = await drainOutbox({
      store: createStore(db),
      home,
      env,
      now: () => new Date(Date.now() + 25 * 3_600_000),
    });
    assert.equal(sent.stale, 2);
    assert.equal(sent.delivered, 0);
    assert.deepEqual(github.requests, []);
    db.close();
    const status = runShim(home, ['sync', '--status'], { env });
    assert.equal(status.status, 0, status.stderr);
    assert.match(status.stdout, /2 not sent \(stale: they waited past their moment\)/);
    assert.match(status.stdout, /stale +comment/);
    db = openDatabase(home);
  });

  test("shards become sub-issues of the plan's issue, ticked off as their steps are done", async () => {
    const plan = join(project, 'plan.md');
    const steps = [
      'Rewrite the parser',
      'Handle BOM input',
      'Update the tests',
      'Add a 1 GB fixture',
    ];
    writeFileSync(
      plan,
      `# Importer rewrite\n\nGoal: stream files.\n\n${steps.map((x) => `- [ ] ${x}`).join('\n')}\n`,
    );
    const history = join(project, 'no-history');
    mkdirSync(history, { recursive: true });
    const shard = await runShimAsync(
      home,
      [
        'shard',
        'plan.md',
        '--issues',
        '--parent',
        '42',
        '--budget',
        '9000',
        '--agent',
        'claude',
        '--history',
        history,
        '--json',
      ],
      env,
      project,
    );
    const out = JSON.parse(shard) as {
      written: string[];
      issues: Array<{ issue: string; created: boolean }>;
    };
    assert.ok(out.written.length >= 2, shard);
    assert.equal(out.issues.length, out.written.length);
    assert.ok(out.issues.every((i) => i.created && /^acme\/api#\d+$/.test(i.issue)));
    const parent = github.issues.get('42')!;
    assert.equal(parent.subIssues?.length, out.written.length);
    const firstShard = github.issues.get(String(parent.subIssues![0]))!;
    assert.match(firstShard.title, /^Importer rewrite: shard 1 of \d+, Rewrite the parser/);
    assert.match(firstShard.body ?? '', /- \[ \] Rewrite the parser/);

    // The first shard's steps ticked in the plan: its sub-issue is ticked off, the rest stay open.
    const firstSteps = firstShard.body!.match(/- \[ \] (.+)/g)!.map((l) => l.slice(6));
    writeFileSync(
      plan,
      readFileSync(plan, 'utf8').replace(/- \[ \] (.+)/g, (line, title: string) =>
        firstSteps.includes(title) ? `- [x] ${title}` : line,
      ),
    );
    await runShimAsync(home, ['shard', 'plan.md', '--status', '--json'], env, project);
    assert.equal(firstShard.state, 'closed');
    assert.equal(firstShard.stateReason, 'completed');
    assert.ok(
      parent.subIssues!.slice(1).every((n) => github.issues.get(String(n))!.state === 'open'),
    );
    assert.equal(parent.state, 'open', "the user's issue is never closed");
    const doneNotes = parent.comments.filter((c) => /^### shim: shard .* is done/.test(c.body));
    assert.equal(doneNotes.length, 1);
    assert.match(
      doneNotes[0]!.body,
      new RegExp(`acme/api#${firstShard.number} is closed as completed`),
    );
    const again = await runShimAsync(
      home,
      ['shard', 'plan.md', '--status', '--json'],
      env,
      project,
    );
    assert.ok(again.length > 0);
    assert.equal(github.requests.filter((r) => r.startsWith('PATCH')).length, 1, 'ticked off once');
  });

  test('a bad token: one clear line in shim doctor; sends wait rather than fail the hook', async () => {
    await queue(l2());
    const bad = { ...env, GITHUB_TOKEN: 'ghp_notTheRightOne000000000000000000000000' };
    const sent = await drainOutbox({ store: createStore(db), home, env: bad });
    assert.equal(sent.failed, 2, '401 will not change by retrying the same token');
    db.close();
    // Not spawnSync: the fake GitHub answering doctor's probe runs in this process.
    const doctor = await runShimAsync(home, ['doctor', '--json'], bad);
    const report = JSON.parse(doctor) as {
      checks: Array<{ id: string; status: string; detail: string }>;
    };
    const sync = report.checks.find((c) => c.id === 'sync')!;
    assert.equal(sync.status, 'warn');
    assert.match(sync.detail, /GitHub rejected the token \(401 Bad credentials\)/);
    db = openDatabase(home);
  });
});
