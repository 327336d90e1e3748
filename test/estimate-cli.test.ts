/**
 * `shim estimate` as the contract says (docs/estimates.md): at a line of a transcript, learning
 * only from the transcripts of --history, one JSON object.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runShim } from './helpers/cli.ts';
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
