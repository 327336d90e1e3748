/**
 * `shim estimate` as the contract says (docs/estimates.md): at a line of a transcript, learning
 * only from the transcripts of --history, one JSON object.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runShim } from './helpers/cli.ts';
import { toJsonl, toolCallLines, twoTodos, userPromptLine } from './helpers/transcript-builders.ts';
import {
  fixturePath,
  listTrainingFixtures,
  makeTempDir,
  trainingFixturePath,
} from './helpers/fixtures.ts';

const SESSION = fixturePath('entire-9b04c3d92e38-auto-compact-167k-taskcreate-v2.1.39.jsonl');

function history(): string {
  const dir = join(makeTempDir('shim-estimate-'), 'history');
  mkdirSync(dir);
  for (const name of listTrainingFixtures())
    copyFileSync(trainingFixturePath(name), join(dir, name));
  return dir;
}

describe('shim estimate', () => {
  const dir = history();
  const home = join(dir, '..', 'shim');
  const estimate = (...args: string[]) =>
    runShim(home, ['estimate', '--transcript', SESSION, '--history', dir, ...args]);

  test('--json: the contract object at a line with open tasks', () => {
    const run = estimate('--until-line', '200', '--json');
    assert.equal(run.status, 0, run.stderr);
    const out = JSON.parse(run.stdout) as Record<string, unknown>;
    assert.deepEqual(Object.keys(out), [
      'openTasks',
      'tokens',
      'low',
      'high',
      'remainingContext',
      'fits',
    ]);
    assert.equal(out.openTasks, 2);
    const tokens = out.tokens as number;
    assert.ok((out.low as number) < tokens && tokens < (out.high as number));
    assert.ok(tokens > 2_000 && tokens < 200_000, String(tokens));
    assert.equal(out.fits, tokens <= (out.remainingContext as number));
  });

  test('no open tasks: tokens null', () => {
    const run = estimate('--until-line', '5', '--json');
    assert.equal(run.status, 0, run.stderr);
    const out = JSON.parse(run.stdout) as Record<string, unknown>;
    assert.equal(out.openTasks, 0);
    assert.equal(out.tokens, null);
    assert.equal(out.fits, true);
  });

  test('the text says the verdict, the range and what it learned from', () => {
    const run = estimate('--until-line', '200');
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /2 open tasks: ~[\d.]+k tokens \(80%: [\d.]+k–[\d.]+k\)/);
    assert.match(run.stdout, /→ (fits|tight|won't fit): /);
    assert.match(run.stdout, /learned from \d+ task points in \d+ sessions/);
  });

  test('a bad line number or a missing transcript is one clear error', () => {
    const bad = estimate('--until-line', 'abc');
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /--until-line.*expected a whole number/);
    const missing = runShim(home, ['estimate', '--transcript', join(dir, 'nope.jsonl')]);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /^shim: transcript not found: /);
  });

  test('--refresh learns what changed into the store and says what it holds', () => {
    const learn = () => runShim(home, ['estimate', '--refresh', '--history', dir, '--json']);
    const first = learn();
    assert.equal(first.status, 0, first.stderr);
    const held = JSON.parse(first.stdout) as { sessions: number; points: number };
    assert.ok(held.sessions >= 20 && held.points >= 200, first.stdout);
    assert.deepEqual(JSON.parse(learn().stdout), held);
  });
});

describe('shim estimate --accuracy', () => {
  test('records each estimate and, once its tasks are done, what they took beside it', () => {
    const root = makeTempDir('shim-accuracy-');
    const home = join(root, 'shim');
    const empty = join(root, 'no-history');
    mkdirSync(empty);
    const transcript = join(root, 'session.jsonl');
    const lines = [
      userPromptLine('Build the parser'),
      ...toolCallLines(1, 20_000, 'TodoWrite', twoTodos('pending', 'pending')),
      ...toolCallLines(2, 25_000, 'Read', { file_path: '/src/a.ts' }),
      ...toolCallLines(3, 30_000, 'TodoWrite', twoTodos('completed', 'in_progress')), // lines 6–7
      ...toolCallLines(4, 38_000, 'TodoWrite', twoTodos('completed', 'completed')), // +8k
    ];
    writeFileSync(transcript, toJsonl(lines.slice(0, 7)));
    const estimate = runShim(home, [
      'estimate',
      '--transcript',
      transcript,
      '--history',
      empty,
      '--json',
    ]);
    assert.equal(estimate.status, 0, estimate.stderr);
    assert.equal(
      (JSON.parse(estimate.stdout) as { tokens: number }).tokens,
      7_200,
      'the prior: 1 task',
    );
    const accuracy = () => {
      const run = runShim(home, ['estimate', '--accuracy', '--json']);
      assert.equal(run.status, 0, run.stderr);
      return JSON.parse(run.stdout) as Record<string, number | null>;
    };
    assert.deepEqual(accuracy(), {
      estimates: 1,
      resolved: 0,
      medianError: null,
      coverage: null,
      medianRatio: null,
    });
    writeFileSync(transcript, toJsonl(lines)); // the task got done: 8k more
    const after = accuracy();
    assert.equal(after.resolved, 1);
    assert.equal(after.coverage, 1);
    assert.ok(Math.abs(after.medianRatio! - 8_000 / 7_200) < 1e-9, String(after.medianRatio));
    assert.match(
      runShim(home, ['estimate', '--accuracy']).stdout,
      /1 estimates, 1 with their tasks done\n {2}typical miss: ×1\.11/,
    );
  });
});
