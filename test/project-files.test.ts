/**
 * The project's own files (issue 43 item 6, docs/project-files.md), through the built binary on a
 * real transcript in a real git repository: off by default nothing lands in the project; on,
 * `.claude/checkpoint-state.json` and `.claude/handoffs/YYYY-MM-DD-HHMM.md` are written redacted
 * and kept out of git unless `track` is set.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { runShim } from './helpers/cli.ts';
import { fixturePath, makeTempDir } from './helpers/fixtures.ts';
import { makeWarmHome } from './helpers/shared-code-cache.ts';

const SHORT = 'spotter-short-v2.1.38.jsonl';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8' });

// A generated-looking key (a typed one is spared as made up), never in any fixture.
const B62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const BODY = Array.from({ length: 93 }, (_, i) => B62[(i * 41 + 7) % 62]).join('');
const SECRET = `sk-ant-api03-${BODY}AA`;
const RAW = BODY.slice(20, 44);

/** A repository with one commit and one uncommitted change. */
function makeRepo(): string {
  const repo = join(makeTempDir(), 'app');
  mkdirSync(repo, { recursive: true });
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'config', 'user.email', 't@example.com');
  git(repo, 'config', 'user.name', 'T');
  writeFileSync(join(repo, 'index.ts'), 'export const a = 1;\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '-qm', 'init');
  writeFileSync(join(repo, 'index.ts'), 'export const a = 2;\n');
  return repo;
}

/** The real short session, moved into `repo`, with the secret typed into its first prompt. */
function sessionIn(repo: string, dir: string): string {
  const lines = readFileSync(fixturePath(SHORT), 'utf8').split('\n');
  const index = lines.findIndex(
    (l) =>
      l.includes('"type":"user"') && !l.includes('tool_result') && !l.includes('"isMeta":true'),
  );
  const entry = JSON.parse(lines[index]!) as { message: { content: unknown } };
  entry.message.content = `deploy with ${SECRET} then fix the build`;
  lines[index] = JSON.stringify(entry);
  const moved = lines.map((l) =>
    l.trim() ? l.replace(/"cwd":"[^"]*"/g, `"cwd":${JSON.stringify(repo)}`) : l,
  );
  const path = join(dir, 'session.jsonl');
  writeFileSync(path, moved.join('\n'));
  return path;
}

/** Every file of the work tree (not .git), and the clone's exclude list. */
function projectListing(repo: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === '.git' && dir === repo) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.push(`${relative(repo, path)}:${readFileSync(path, 'utf8')}`);
    }
  };
  walk(repo);
  const exclude = join(repo, '.git', 'info', 'exclude');
  out.push(`exclude:${existsSync(exclude) ? readFileSync(exclude, 'utf8') : ''}`);
  return out.sort();
}

function checkpointAndHandoff(home: string, repo: string, transcript: string): void {
  const saved = runShim(
    home,
    ['checkpoint', '--transcript', transcript, '--reason', `rotate ${SECRET}`, '--json'],
    { cwd: repo },
  );
  assert.equal(saved.status, 0, saved.stderr);
  const handoff = runShim(home, ['handoff'], { cwd: repo });
  assert.equal(handoff.status, 0, handoff.stderr);
}

describe('project files (opt-in)', () => {
  test('off by default: a checkpoint and a handoff leave the project as it was', () => {
    const home = makeWarmHome();
    const repo = makeRepo();
    const before = projectListing(repo);
    checkpointAndHandoff(home, repo, sessionIn(repo, home));
    assert.deepEqual(projectListing(repo), before);
    assert.equal(existsSync(join(repo, '.claude')), false);
  });

  test('on: the state file and the handoff are written redacted, and git does not see them', () => {
    const home = makeWarmHome();
    writeFileSync(join(home, 'config.json'), JSON.stringify({ projectFiles: { enabled: true } }));
    const repo = makeRepo();
    checkpointAndHandoff(home, repo, sessionIn(repo, home));

    const statePath = join(repo, '.claude', 'checkpoint-state.json');
    const text = readFileSync(statePath, 'utf8');
    assert.ok(!text.includes(RAW), 'the secret reached the state file');
    const state = JSON.parse(text) as {
      version: string;
      agent: string;
      currentLevel: string;
      contextTrend: string;
      lastCheckpoint: { reason: string; handoffFile: string | null };
      modifiedFiles: string[];
      uncommittedChanges: boolean;
    };
    assert.equal(state.version, '1.0.0');
    assert.equal(state.agent, 'claude');
    assert.match(state.currentLevel, /^L[0-3]$/);
    assert.match(state.lastCheckpoint.reason, /^rotate \[REDACTED:[a-z-]+\]$/);
    assert.deepEqual(state.modifiedFiles, ['index.ts']);
    assert.equal(state.uncommittedChanges, true);

    const handoffs = readdirSync(join(repo, '.claude', 'handoffs'));
    assert.equal(handoffs.length, 1);
    assert.match(handoffs[0]!, /^\d{4}-\d{2}-\d{2}-\d{4}\.md$/);
    const handoff = readFileSync(join(repo, '.claude', 'handoffs', handoffs[0]!), 'utf8');
    assert.match(handoff, /then fix the build/);
    assert.ok(!handoff.includes(RAW), 'the secret reached the project handoff');
    // The handoff written after the checkpoint is named in its state.
    assert.equal(state.lastCheckpoint.handoffFile, `.claude/handoffs/${handoffs[0]}`);

    // Only the user's own change is offered to git.
    assert.equal(git(repo, 'status', '--porcelain').trim(), 'M index.ts');
  });

  test('track: true leaves the files to git; dir puts them where the team keeps them', () => {
    const home = makeWarmHome();
    writeFileSync(
      join(home, 'config.json'),
      JSON.stringify({ projectFiles: { enabled: true, dir: '.shim', track: true } }),
    );
    const repo = makeRepo();
    checkpointAndHandoff(home, repo, sessionIn(repo, home));
    assert.equal(existsSync(join(repo, '.claude')), false);
    assert.ok(existsSync(join(repo, '.shim', 'checkpoint-state.json')));
    assert.match(
      git(repo, 'status', '--porcelain', '-uall'),
      /\?\? \.shim\/checkpoint-state\.json/,
    );
    assert.match(git(repo, 'status', '--porcelain', '-uall'), /\?\? \.shim\/handoffs\/.*\.md/);
  });

  test('a directory outside the project is refused with the fix', () => {
    const home = makeWarmHome();
    writeFileSync(join(home, 'config.json'), JSON.stringify({ projectFiles: { dir: '../x' } }));
    const run = runShim(home, ['config'], { cwd: home });
    assert.equal(run.status, 1);
    assert.match(run.stdout, /problem: .*projectFiles\.dir: a directory inside the project/);
  });
});
