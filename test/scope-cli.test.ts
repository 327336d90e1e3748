/** resume, handoff, list, show and search look at the current project unless told otherwise. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { runShim } from './helpers/cli.ts';
import { makeTempDir } from './helpers/fixtures.ts';
import { toJsonl, userPromptLine } from './helpers/transcript-builders.ts';

let root: string;
let home: string;
let projectA: string;
let projectB: string;
const ids: Record<'a' | 'b', string> = { a: '', b: '' };

function checkpointIn(project: string, session: string, request: string): string {
  const path = join(root, `${session}.jsonl`);
  writeFileSync(path, toJsonl([{ ...userPromptLine(request), sessionId: session, cwd: project }]));
  const run = runShim(home, ['checkpoint', '--transcript', path, '--no-snapshot', '--json']);
  assert.equal(run.status, 0, run.stderr);
  return (JSON.parse(run.stdout) as { checkpointId: string }).checkpointId;
}

before(() => {
  root = makeTempDir('shim-scope-');
  home = join(root, 'shim');
  projectA = join(root, 'alpha');
  projectB = join(root, 'beta');
  for (const p of [projectA, projectB]) {
    mkdirSync(join(p, 'src'), { recursive: true });
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: p });
  }
  ids.a = checkpointIn(join(projectA, 'src'), 'session-alpha', 'Port the ALPHA parser to streams.');
  ids.b = checkpointIn(projectB, 'session-beta', 'Rename the BETA exporter flags.');
});

describe('project scope', () => {
  test('list shows the current project (a subdirectory of its git root counts) and says so', () => {
    const run = runShim(home, ['list', '--json'], { cwd: projectA });
    assert.deepEqual(
      (JSON.parse(run.stdout) as Array<{ id: string }>).map((r) => r.id),
      [ids.a],
    );
    const text = runShim(home, ['list'], { cwd: join(projectA, 'src') });
    assert.match(text.stdout, new RegExp(`checkpoints of project ${projectA}`));
    assert.match(text.stdout, /--all: every project/);
    const all = runShim(home, ['list', '--all', '--json'], { cwd: projectA });
    assert.equal((JSON.parse(all.stdout) as unknown[]).length, 2);
  });

  test('--cwd takes a relative path', () => {
    const run = runShim(home, ['list', '--cwd', '../beta', '--json'], { cwd: projectA });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(
      (JSON.parse(run.stdout) as Array<{ id: string }>).map((r) => r.id),
      [ids.b],
    );
  });

  test("resume --print in an empty directory prints nothing of another project's work", () => {
    const empty = join(root, 'empty');
    mkdirSync(empty);
    const run = runShim(home, ['resume', '--print'], { cwd: empty });
    assert.equal(run.status, 1);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /no checkpoints in project .*empty/);
    assert.match(run.stderr, /--all/);
    const inB = runShim(home, ['resume', '--print'], { cwd: projectB });
    assert.match(inB.stdout, /Rename the BETA exporter flags/);
    assert.doesNotMatch(inB.stdout, /ALPHA/);
  });

  test("show by prefix stays in the project; --all or the full id reaches another's", () => {
    const prefix = ids.b.slice(0, 8);
    const run = runShim(home, ['show', prefix], { cwd: projectA });
    assert.equal(run.status, 1);
    assert.match(run.stderr, /no checkpoint .* in project .*alpha \(1 in other projects\)/);
    assert.equal(runShim(home, ['show', '--all', prefix], { cwd: projectA }).status, 0);
    assert.equal(runShim(home, ['show', ids.b], { cwd: projectA }).status, 0);
  });

  test('search is scoped the same way', () => {
    const here = runShim(home, ['search', 'exporter', '--json'], { cwd: projectA });
    assert.equal((JSON.parse(here.stdout) as { hits: unknown[] }).hits.length, 0);
    const all = runShim(home, ['search', 'exporter', '--all', '--json'], { cwd: projectA });
    assert.equal((JSON.parse(all.stdout) as { hits: unknown[] }).hits.length, 1);
  });

  test('handoff writes the newest checkpoint of this project and says the next session picks it up', () => {
    const run = runShim(home, ['handoff'], { cwd: projectB });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /the next session of any agent started in .*beta picks it up once/);
    assert.deepEqual(readdirSync(join(home, 'handoffs')), ['session-beta-001.md']);
  });
});
