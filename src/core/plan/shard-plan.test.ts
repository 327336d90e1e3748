import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parsePlan, type PlanStep } from './plan.ts';
import {
  readShardMark,
  renderShard,
  shardFileName,
  shardPlan,
  shardProgress,
} from './shard-plan.ts';

const PLAN = parsePlan(
  [
    '# Importer rewrite',
    '',
    'Goal: stream ZEBRA-42 files.',
    '',
    '## Parser',
    '- [x] Read the current importer',
    '- [ ] Stream the parser',
    '  - keep the error messages',
    '- [ ] Handle `BOM` input',
    '## Tests',
    '- [ ] Update the parser tests',
    '- [ ] Add a 1 GB fixture test',
    '- [ ] Run the whole suite',
  ].join('\n'),
);

describe('shardPlan', () => {
  test('open steps in order, as few shards as fit, shared context counted in each', () => {
    const tokens: Record<string, number> = {
      'Stream the parser': 40_000,
      'Handle `BOM` input': 20_000,
      'Update the parser tests': 30_000,
      'Add a 1 GB fixture test': 50_000,
      'Run the whole suite': 10_000,
    };
    const shards = shardPlan({
      plan: PLAN,
      tokensOf: (s) => tokens[s.title]!,
      sharedTokens: 5_000,
      budget: 100_000,
    });
    assert.deepEqual(
      shards.map((s) => [s.number, s.steps.map((x) => x.index), s.tokens, s.oversize]),
      [
        [1, [2, 3, 4], 95_000, false],
        [2, [5, 6], 65_000, false],
      ],
    );
  });

  test('never splits a step, and every shard fits unless one step alone cannot', () => {
    let seed = 3;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let round = 0; round < 200; round++) {
      const sizes = new Map<PlanStep, number>();
      for (const step of PLAN.steps) sizes.set(step, Math.floor(random() * 120_000));
      const budget = 50_000 + Math.floor(random() * 100_000);
      const shared = Math.floor(random() * 10_000);
      const shards = shardPlan({
        plan: PLAN,
        tokensOf: (s) => sizes.get(s)!,
        sharedTokens: shared,
        budget,
      });
      const placed = shards.flatMap((s) => s.steps.map((x) => x.index));
      assert.deepEqual(placed, [2, 3, 4, 5, 6], 'every open step once, in order');
      for (const shard of shards) {
        const sum = shared + shard.steps.reduce((a, s) => a + sizes.get(s)!, 0);
        assert.equal(shard.tokens, sum);
        if (shard.oversize) assert.equal(shard.steps.length, 1, 'only a single step is oversize');
        else assert.ok(sum <= budget, `shard ${shard.number}: ${sum} > ${budget}`);
      }
    }
  });
});

describe('renderShard', () => {
  test('a document a fresh session can work from: context, its steps whole, what came before', () => {
    const shards = shardPlan({
      plan: PLAN,
      tokensOf: () => 40_000,
      sharedTokens: 1_000,
      budget: 90_000,
    });
    assert.deepEqual(
      shards.map((s) => s.steps.map((x) => x.index)),
      [[2, 3], [4, 5], [6]],
    );
    const second = renderShard(PLAN, shards, shards[1]!, 'docs/plan.md');
    assert.match(second, /^# Importer rewrite — shard 2 of 3\n/);
    assert.match(second, /<!-- shim shard: docs\/plan\.md, steps 4–5 -->/);
    assert.match(
      second,
      /## Shared context\n\n# Importer rewrite\n\nGoal: stream ZEBRA-42 files\.\n\n## Steps/,
    );
    assert.match(
      second,
      /## Steps in this shard\n\n### Tests\n\n- \[ \] Update the parser tests\n\n- \[ \] Add a 1 GB fixture test\n/,
    );
    assert.match(
      second,
      /## Before this shard\n\n- 1\. Read the current importer\n- 2\. Stream the parser\n- 3\./,
    );
    assert.match(second, /## After this shard\n\n- 6\. Run the whole suite\n$/);
    assert.match(
      renderShard(PLAN, shards, shards[0]!, 'docs/plan.md'),
      /### Parser\n\n- \[ \] Stream the parser\n {2}- keep the error messages\n\n- \[ \] Handle `BOM` input/,
    );
    assert.deepEqual(
      shards.map((s) => shardFileName(s, shards.length)),
      ['01-stream-the-parser.md', '02-update-the-parser-tests.md', '03-run-the-whole-suite.md'],
    );
  });
});

describe('shard progress', () => {
  test('each shard: its steps ticked in the plan as it is now', () => {
    const shards = shardPlan({
      plan: PLAN,
      tokensOf: () => 40_000,
      sharedTokens: 1_000,
      budget: 90_000,
    });
    const marks = shards.map((s) => ({
      file: shardFileName(s, shards.length),
      mark: readShardMark(renderShard(PLAN, shards, s, '../plan.md'))!,
    }));
    assert.deepEqual(marks[2]!.mark, { source: '../plan.md', first: 6, last: 6 });
    const later = parsePlan(
      PLAN.steps.map((s) => (s.index <= 4 ? s.body.replace('- [ ]', '- [x]') : s.body)).join('\n'),
    );
    assert.deepEqual(
      shardProgress(later, marks).map((p) => [p.first, p.last, p.done, p.steps]),
      [
        [2, 3, 2, 2],
        [4, 5, 1, 2],
        [6, 6, 0, 1],
      ],
    );
    assert.equal(readShardMark('# just notes'), null);
  });
});

test('shard file names keep whole words', async () => {
  const { shardFileName } = await import('./shard-plan.ts');
  const step = (title: string) =>
    ({ index: 1, title, body: title, sections: [], kind: 'bullet', done: null, line: 1 }) as const;
  const name = shardFileName(
    {
      number: 1,
      steps: [step('Rewrite the streaming parser for extraordinarily large inputs')],
      tokens: 1,
      oversize: false,
    } as never,
    3,
  );
  assert.equal(name, '01-rewrite-the-streaming-parser-for.md');
  assert.ok(name.length <= 43 + 3);
});
