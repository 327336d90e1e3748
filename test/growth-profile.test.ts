// The user's growth profile: a checkpoint of one session teaches the forecast of another.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runShim } from './helpers/cli.ts';
import { makeTempDir } from './helpers/fixtures.ts';
import { assistantLine, toJsonl, userPromptLine } from './helpers/transcript-builders.ts';

function transcript(dir: string, sessionId: string, contexts: readonly number[]): string {
  const extra = { sessionId, cwd: dir, version: '2.1.330' };
  const path = join(dir, `${sessionId}.jsonl`);
  writeFileSync(
    path,
    toJsonl([
      userPromptLine('Migrate the billing jobs to the new queue.', { extra }),
      ...contexts.map((context, i) =>
        assistantLine({
          id: `msg_${sessionId}_${i}`,
          model: 'claude-opus-4-6',
          extra,
          usage: { input: 10, cacheRead: context, output: 20 },
        }),
      ),
    ]),
  );
  return path;
}

type Status = {
  assessment: { forecast: { turnsToCompactLow: number | null; turnsToCompactHigh: number | null } };
};

describe('growth profile across sessions', () => {
  test("another session's bursts widen a new session's interval toward fewer turns", () => {
    const root = makeTempDir('shim-profile-');
    const project = join(root, 'project');
    mkdirSync(project);
    const home = join(root, 'shim');
    // Earlier session: long calm stretches broken by 25k file reads.
    const bursty: number[] = [];
    for (let i = 0, c = 20_000; i < 40; i++)
      bursty.push((c += i % 5 === 4 ? 25_000 : 300) % 150_000);
    const earlier = transcript(project, 'sess-earlier', bursty);
    // New session: six calm responses so far, at 100k of a 167k threshold.
    const fresh = transcript(
      project,
      'sess-fresh',
      [100_000, 100_400, 100_800, 101_200, 101_600, 102_000],
    );

    const status = (args: string[]) => {
      const run = runShim(home, ['status', fresh, '--json', ...args], { cwd: project });
      assert.equal(run.status, 0, run.stderr);
      return (JSON.parse(run.stdout) as Status).assessment;
    };
    const before = status([]);
    const saved = runShim(home, ['checkpoint', '--transcript', earlier, '--no-snapshot'], {
      cwd: project,
    });
    assert.equal(saved.status, 0, saved.stderr);
    const after = status([]);
    const without = status(['--no-history']);

    assert.ok(
      before.forecast.turnsToCompactLow !== null && after.forecast.turnsToCompactLow !== null,
    );
    assert.ok(
      after.forecast.turnsToCompactLow < before.forecast.turnsToCompactLow,
      `low ${after.forecast.turnsToCompactLow} < ${before.forecast.turnsToCompactLow}`,
    );
    assert.deepEqual(without.forecast, {
      ...without.forecast,
      turnsToCompactLow: before.forecast.turnsToCompactLow,
    });
  });
});
