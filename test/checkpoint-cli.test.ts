/** End-to-end: checkpoint, list, show, resume, handoff, gc and restore-files through the built binary. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runShim } from './helpers/cli.ts';
import { fixturePath, makeTempDir } from './helpers/fixtures.ts';
import { makeWarmHome } from './helpers/shared-code-cache.ts';

const TASKS = 'entire-9b04c3d92e38-auto-compact-167k-taskcreate-v2.1.39.jsonl';

const shim = (home: string, args: string[], cwd?: string) =>
  runShim(home, args, cwd ? { cwd } : {});

function json<T>(run: { status: number | null; stdout: string; stderr: string }): T {
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as T;
}

type Saved = {
  checkpointId: string;
  sessionId: string;
  checkpointNumber: number;
  size: { uncompressed: number; compressed: number };
  snapshotRef: string | null;
};

describe('shim checkpoint', () => {
  test('--json prints the contract fields and numbers checkpoints per session', () => {
    const home = makeWarmHome();
    const first = json<Saved>(
      shim(home, ['checkpoint', '--transcript', fixturePath(TASKS), '--json']),
    );
    const second = json<Saved>(
      shim(home, ['checkpoint', '--transcript', fixturePath(TASKS), '--json']),
    );
    assert.match(first.checkpointId, /^[0-9a-f-]{36}$/);
    assert.equal(first.sessionId, '4f8c1176-7025-4530-a860-c6fc4c63a150');
    assert.equal(first.checkpointNumber, 1);
    assert.equal(second.checkpointNumber, 2);
    assert.ok(first.size.compressed > 0 && first.size.compressed < first.size.uncompressed);
    assert.ok(first.size.compressed < 100 * 1024);
  });

  test('--until-line builds the state as it was at that line', () => {
    const home = makeWarmHome();
    const early = json<Saved>(
      shim(home, [
        'checkpoint',
        '--transcript',
        fixturePath(TASKS),
        '--until-line',
        '60',
        '--json',
      ]),
    );
    const late = json<Saved>(
      shim(home, ['checkpoint', '--transcript', fixturePath(TASKS), '--json']),
    );
    type Shown = {
      taskState: { items: unknown[]; completedSteps: string[] };
      source: { transcriptLine: number };
    };
    const a = json<Shown>(shim(home, ['show', early.checkpointId, '--json']));
    const b = json<Shown>(shim(home, ['show', late.checkpointId, '--json']));
    assert.equal(a.source.transcriptLine, 60);
    assert.equal(b.source.transcriptLine, 362);
    assert.ok(a.taskState.completedSteps.length < b.taskState.completedSteps.length);
  });

  test('secrets in the conversation are redacted before they are stored', () => {
    const home = makeWarmHome();
    // A generated-looking key: a typed one (`Zq9Zq9…`) is spared as made up.
    const b62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    const body = Array.from({ length: 93 }, (_, i) => b62[(i * 37 + 11) % 62]).join('');
    const secret = `sk-ant-api03-${body}AA`;
    const raw = new RegExp(body.slice(20, 40));
    const lines = readFileSync(fixturePath('spotter-short-v2.1.38.jsonl'), 'utf8').split('\n');
    const index = lines.findIndex(
      (l) =>
        l.includes('"type":"user"') && !l.includes('tool_result') && !l.includes('"isMeta":true'),
    );
    const entry = JSON.parse(lines[index]!) as { message: { content: unknown } };
    entry.message.content = `use this key: ${secret} and fix the build`;
    lines[index] = JSON.stringify(entry);
    const path = join(home, 'secret.jsonl');
    writeFileSync(path, lines.join('\n'));
    const saved = json<Saved>(shim(home, ['checkpoint', '--transcript', path, '--json']));
    const shown = shim(home, ['show', saved.checkpointId, '--json']);
    assert.doesNotMatch(shown.stdout, raw);
    assert.match(shown.stdout, /\[REDACTED:[a-z-]+\] and fix the build/);
    const prompt = shim(home, ['resume', '--all', '--print']);
    assert.doesNotMatch(prompt.stdout, raw);
  });

  test('an unknown trigger and a bad --until-line are usage errors', () => {
    const home = makeWarmHome();
    const bad = shim(home, [
      'checkpoint',
      '--transcript',
      fixturePath(TASKS),
      '--trigger',
      'whenever',
    ]);
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /unknown trigger "whenever"/);
    const line = shim(home, [
      'checkpoint',
      '--transcript',
      fixturePath(TASKS),
      '--until-line',
      'zero',
    ]);
    assert.equal(line.status, 1);
    assert.match(line.stderr, /--until-line must be a line number/);
  });
});

describe('list, show, resume, handoff, gc', () => {
  test('list and show find checkpoints by id prefix; show renders the restore, --handoff the handoff', () => {
    const home = makeWarmHome();
    const saved = json<Saved>(
      shim(home, [
        'checkpoint',
        '--transcript',
        fixturePath(TASKS),
        '--json',
        '--reason',
        'before lunch',
      ]),
    );
    const list = json<Array<{ id: string; checkpointNumber: number }>>(
      shim(home, ['list', '--all', '--json']),
    );
    assert.deepEqual(
      list.map((c) => c.id),
      [saved.checkpointId],
    );
    const text = shim(home, ['list', '--all']);
    assert.match(text.stdout, new RegExp(saved.checkpointId.slice(0, 8)));
    // Context is shown as the share of the auto-compact threshold, as everywhere else.
    const [row] = json<Array<{ contextPercent: number | null }>>(
      shim(home, ['list', '--all', '--json']),
    );
    assert.equal(typeof row!.contextPercent, 'number');
    assert.match(text.stdout, new RegExp(` ${Math.round(row!.contextPercent!)}% `));
    // Each row names its agent, in the table and in --json.
    assert.match(text.stdout, / agent +#/);
    assert.match(text.stdout, / Claude Code /);
    assert.equal(
      json<Array<{ agent: string }>>(shim(home, ['list', '--all', '--json']))[0]?.agent,
      'claude',
    );
    assert.match(text.stdout, /share of the auto-compact threshold/);
    const bad = shim(home, ['list', '-n', 'abc']);
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /abc/);
    const shown = shim(home, ['show', '--all', saved.checkpointId.slice(0, 6)]);
    assert.equal(shown.status, 0, shown.stderr);
    assert.match(
      shown.stdout,
      /^# .*\(shim checkpoint #1\)\n/,
      'the restore, as the agent gets it',
    );
    assert.match(shown.stdout, /Run fmt, lint, and tests/);
    assert.match(shown.stderr, /the restore a session would be given now/);
    const handoff = shim(home, ['show', '--all', '--handoff', saved.checkpointId.slice(0, 6)]);
    assert.match(handoff.stdout, /^---\n/);
    assert.match(handoff.stdout, /Run fmt, lint, and tests/);
    const missing = shim(home, ['show', 'ffffffff']);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /no checkpoint ffffffff/);
  });

  test('resume --print carries the requests, the exact task list and the instruction to continue', () => {
    const home = makeWarmHome();
    shim(home, ['checkpoint', '--transcript', fixturePath(TASKS)]);
    const prompt = shim(home, ['resume', '--all', '--print']);
    assert.equal(prompt.status, 0, prompt.stderr);
    assert.match(prompt.stdout, /Implement the following plan:/);
    assert.match(prompt.stdout, /\[x\] #1 Add StartedAt to CommittedMetadata/);
    assert.match(prompt.stdout, /\[ \] #5 Run fmt, lint, and tests/);
    assert.match(prompt.stdout, /do not start over/);
    assert.ok(prompt.stdout.length <= 9_500, `${prompt.stdout.length} characters`);
    const decision = json<{ detection: { shouldResume: boolean; interruptionReason: string } }>(
      shim(home, ['resume', '--all', '--json']),
    );
    assert.equal(typeof decision.detection.shouldResume, 'boolean');
  });

  test('resume --print --for another agent says where the work comes from and names its task tool', () => {
    const home = makeWarmHome();
    shim(home, ['checkpoint', '--transcript', fixturePath(TASKS)]);
    const codex = shim(home, ['resume', '--all', '--print', '--for', 'codex']);
    assert.equal(codex.status, 0, codex.stderr);
    assert.match(codex.stdout, /\nContinued in Codex CLI from a Claude Code session/);
    assert.match(codex.stdout, /update_plan/);
    const same = shim(home, ['resume', '--all', '--print', '--for', 'claude']);
    assert.doesNotMatch(same.stdout, /Continued in/);
    const bad = shim(home, ['resume', '--all', '--print', '--for', 'cursor']);
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /unknown agent "cursor"/);
  });

  test('resume with an empty store says there is nothing to resume', () => {
    const run = shim(makeWarmHome(), ['resume', '--print']);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /there are no checkpoints yet/);
  });

  test('handoff writes the document under SHIM_HOME and to --out', () => {
    const home = makeWarmHome();
    shim(home, ['checkpoint', '--transcript', fixturePath(TASKS)]);
    const out = join(home, 'HANDOFF.md');
    const run = shim(home, ['handoff', '--all', '--out', out]);
    assert.equal(run.status, 0, run.stderr);
    const written = readdirSync(join(home, 'handoffs'));
    assert.deepEqual(written, ['4f8c1176-7025-4530-a860-c6fc4c63a150-001.md']);
    const document = readFileSync(out, 'utf8');
    assert.match(document, /^---\n/);
    assert.match(document, /\ncheckpoint_id: "?[0-9a-f-]{36}"?\n/);
    assert.match(document, /\n---\n/);
  });

  test('gc keeps the newest checkpoint of each session', () => {
    const home = makeWarmHome();
    for (let i = 0; i < 3; i++) shim(home, ['checkpoint', '--transcript', fixturePath(TASKS)]);
    const result = json<{ deletedCheckpoints: number }>(
      shim(home, ['gc', '--retention-days', '0', '--json']),
    );
    assert.equal(result.deletedCheckpoints, 2);
    assert.equal(json<unknown[]>(shim(home, ['list', '--all', '--json'])).length, 1);
    const bad = shim(home, ['gc', '--retention-days', 'soon']);
    assert.equal(bad.status, 1);
  });
});

describe('git snapshot and restore-files', () => {
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8' });

  test('a checkpoint snapshots uncommitted work that restore-files brings back in a new branch', () => {
    const home = makeWarmHome();
    const repo = makeTempDir('shim-repo-');
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'config', 'user.email', 't@example.com');
    git(repo, 'config', 'user.name', 'T');
    writeFileSync(join(repo, 'app.txt'), 'v1\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '-qm', 'init');
    writeFileSync(join(repo, 'app.txt'), 'v2 uncommitted\n');
    writeFileSync(join(repo, 'new.txt'), 'brand new\n');
    // A real transcript, moved into this repository.
    const transcript = readFileSync(fixturePath('spotter-short-v2.1.38.jsonl'), 'utf8').replace(
      /"cwd":"[^"]*"/g,
      `"cwd":${JSON.stringify(repo)}`,
    );
    const path = join(home, 'session.jsonl');
    writeFileSync(path, transcript);
    const statusBefore = git(repo, 'status', '--porcelain');

    const saved = json<Saved>(shim(home, ['checkpoint', '--transcript', path, '--json']));
    assert.match(saved.snapshotRef ?? '', /^refs\/shim\/snapshots\//);
    assert.equal(
      git(repo, 'status', '--porcelain'),
      statusBefore,
      'the working tree and index are untouched',
    );
    assert.equal(git(repo, 'rev-parse', '--abbrev-ref', 'HEAD').trim(), 'main');

    git(repo, 'checkout', '-q', '--', 'app.txt');
    const restored = json<{ branch: string }>(
      shim(home, [
        'restore-files',
        saved.checkpointId.slice(0, 8),
        '--branch',
        'rescued',
        '--json',
      ]),
    );
    assert.equal(restored.branch, 'rescued');
    assert.equal(git(repo, 'show', 'rescued:app.txt'), 'v2 uncommitted\n');
    assert.equal(git(repo, 'show', 'rescued:new.txt'), 'brand new\n');
    assert.equal(
      readFileSync(join(repo, 'app.txt'), 'utf8'),
      'v1\n',
      'restore never writes over the working tree',
    );
    const again = shim(home, ['restore-files', saved.checkpointId, '--branch', 'rescued']);
    assert.equal(again.status, 1, 'an existing branch is never overwritten');

    const worktree = join(makeTempDir(), 'wt');
    const inWorktree = shim(home, ['restore-files', saved.checkpointId, '--worktree', worktree]);
    assert.equal(inWorktree.status, 0, inWorktree.stderr);
    assert.equal(readFileSync(join(worktree, 'app.txt'), 'utf8'), 'v2 uncommitted\n');
  });

  test('outside a repository the transcript alone is enough', () => {
    const home = makeWarmHome();
    const dir = makeTempDir('shim-plain-');
    mkdirSync(join(dir, 'sub'));
    const transcript = readFileSync(fixturePath('spotter-short-v2.1.38.jsonl'), 'utf8').replace(
      /"cwd":"[^"]*"/g,
      `"cwd":${JSON.stringify(dir)}`,
    );
    const path = join(home, 'session.jsonl');
    writeFileSync(path, transcript);
    const saved = json<Saved>(shim(home, ['checkpoint', '--transcript', path, '--json']));
    assert.equal(saved.snapshotRef, null);
    const run = shim(home, ['restore-files', saved.checkpointId]);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /has no git snapshot/);
    assert.ok(existsSync(join(home, 'shim.db')));
  });
});

test('resume --record marks the checkpoint restored so it is not offered again', () => {
  const home = makeWarmHome();
  shim(home, ['checkpoint', '--transcript', fixturePath(TASKS)]);
  const recorded = shim(home, ['resume', '--all', '--print', '--record']);
  assert.equal(recorded.status, 0, recorded.stderr);
  const after = json<{ detection: { shouldResume: boolean } }>(
    shim(home, ['resume', '--all', '--json']),
  );
  assert.equal(after.detection.shouldResume, false);
  const list = json<Array<{ restoredAt: string | null }>>(shim(home, ['list', '--all', '--json']));
  assert.ok(list[0]!.restoredAt);
});

test('--wip-commit commits the work to the current branch (opt-in)', () => {
  const home = makeWarmHome();
  const repo = makeTempDir('shim-wip-');
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 't@example.com');
  git('config', 'user.name', 'T');
  writeFileSync(join(repo, 'a.txt'), '1\n');
  git('add', '.');
  git('commit', '-qm', 'init');
  writeFileSync(join(repo, 'a.txt'), '2\n');
  const path = join(home, 'session.jsonl');
  writeFileSync(
    path,
    readFileSync(fixturePath('spotter-short-v2.1.38.jsonl'), 'utf8').replace(
      /"cwd":"[^"]*"/g,
      `"cwd":${JSON.stringify(repo)}`,
    ),
  );
  const saved = json<{ wipCommit: string | null }>(
    shim(home, ['checkpoint', '--transcript', path, '--wip-commit', '--json']),
  );
  assert.match(saved.wipCommit ?? '', /^[0-9a-f]{40}$/);
  assert.equal(git('status', '--porcelain'), '');
  assert.match(git('log', '-1', '--format=%s'), /^WIP: shim checkpoint/);
});
