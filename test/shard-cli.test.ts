/** `shim estimate <plan>` and `shim shard <plan>` on a plan in a repository, as a user runs them. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runShim } from './helpers/cli.ts';
import { makeTempDir } from './helpers/fixtures.ts';

const PLAN = `# Importer rewrite

Goal: stream ZEBRA-42 files. Constraints: Node 20, no new dependencies.

## Parser
- [x] Read the current importer
- [ ] Rewrite \`src/parser.ts\` to stream
- [ ] Handle BOM input
## Tests
- [ ] Update the parser tests
- [ ] Add a 1 GB fixture test
- [ ] Run the whole suite
`;

function repo() {
  const root = makeTempDir('shim-shard-');
  mkdirSync(join(root, '.git'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'parser.ts'), 'x'.repeat(80_000)); // ~20k tokens to read
  writeFileSync(join(root, 'plan.md'), PLAN);
  const history = join(root, 'no-history');
  mkdirSync(history);
  // No session in the project to tell the agent: the plan is sized for the one named.
  const shim = (...args: string[]) =>
    runShim(join(root, 'shim-home'), [...args, '--agent', 'claude', '--history', history], {
      cwd: root,
    });
  return { root, shim };
}

describe('shim estimate <plan>', () => {
  test('the open steps, the files they name counted, the room left', () => {
    const { shim } = repo();
    const run = shim('estimate', 'plan.md', '--json');
    assert.equal(run.status, 0, run.stderr);
    const out = JSON.parse(run.stdout) as {
      openSteps: number;
      tokens: number;
      steps: Array<{ index: number; done: boolean | null; tokens: number }>;
      verdict: string;
      freshContext: number;
      compactThreshold: number;
      windowTokens: number;
      sessionPlan: { now: number[]; cut: unknown; reorder: unknown[]; laterSessions: number };
    };
    assert.equal(out.openSteps, 5);
    // What the room was measured against (it was missing from --json).
    assert.ok(out.compactThreshold > out.freshContext, `${out.compactThreshold}`);
    assert.ok(out.windowTokens >= out.compactThreshold, `${out.windowTokens}`);
    // Every open step is placed: in this session (none here) or in the fresh ones after it.
    assert.equal(out.sessionPlan.now.length, 0);
    assert.ok(out.sessionPlan.laterSessions >= 1);
    assert.deepEqual(
      out.steps.map((s) => [s.index, s.done]),
      [
        [1, true],
        [2, false],
        [3, false],
        [4, false],
        [5, false],
        [6, false],
      ],
    );
    const [done, parser, bom] = out.steps;
    assert.equal(done!.tokens, 0);
    assert.ok(parser!.tokens - bom!.tokens >= 20_000, 'reading src/parser.ts is counted');
    assert.ok(
      out.tokens >= out.steps.reduce((a, s) => a + s.tokens, 0),
      'steps and shared context',
    );
    assert.ok(['fits', 'tight', 'fresh-session', 'shard'].includes(out.verdict));
  });

  test('says what it knows: the built-in prior is labelled, an empty plan is an error, --budget is named as given', () => {
    const { root, shim } = repo();
    const text = shim('estimate', 'plan.md');
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /2\. Rewrite `src\/parser\.ts` to stream ~[\d.]+k \(prior\)/);
    assert.match(text.stdout, /\(prior\): the built-in 7\.2k per step/);
    // No Claude Code session in the project: the window is a guess, and the line says so.
    assert.match(
      text.stdout,
      /a fresh session: [\d.]+k \(approximate: no Claude Code session here that names its model, so its default window for an unknown model, [\d.]+k\)/,
    );
    const json = JSON.parse(shim('estimate', 'plan.md', '--json').stdout) as {
      basis: string;
      windowFrom: string;
      agent: string;
    };
    assert.equal(json.basis, 'prior');
    assert.deepEqual([json.windowFrom, json.agent], ['agent-default', 'claude']);

    writeFileSync(join(root, 'empty.md'), '# Plan\n');
    const empty = shim('estimate', 'empty.md');
    assert.equal(empty.status, 1);
    assert.match(empty.stdout, /nothing to estimate: no steps found/);
    assert.doesNotMatch(empty.stdout, /every step is ticked/);
    const shardEmpty = shim('shard', 'empty.md');
    assert.equal(shardEmpty.status, 1);
    assert.match(shardEmpty.stderr, /has no steps to shard/);

    const budget = shim('shard', 'plan.md', '--budget', '30000', '--dry-run');
    assert.equal(budget.status, 0, budget.stderr);
    assert.match(budget.stdout, /a shard may take 30k \(--budget\)/);
    assert.doesNotMatch(budget.stdout, /60% of/);
  });

  test('/checkpoint --estimate with words estimates the task they describe', () => {
    const { root } = repo();
    // A slash command runs inside a session: a Claude Code one of this project (its agent).
    const projects = join(
      root,
      'shim-home',
      'no-claude',
      'projects',
      root.replace(/[^a-zA-Z0-9]/g, '-'),
    );
    mkdirSync(projects, { recursive: true });
    const sessionId = randomUUID();
    writeFileSync(
      join(projects, `${sessionId}.jsonl`),
      `${JSON.stringify({ type: 'user', sessionId, cwd: root, timestamp: new Date().toISOString(), uuid: randomUUID(), parentUuid: null, message: { role: 'user', content: 'add a flag' } })}\n`,
    );
    const run = runShim(
      join(root, 'shim-home'),
      [
        'slash',
        'checkpoint',
        '--estimate',
        'add',
        'a',
        '--json',
        'flag',
        'to',
        'status,',
        'then',
        'update',
        'the',
        'docs',
      ],
      { cwd: root },
    );
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /shim estimate · your request/);
    assert.match(run.stdout, /2 open steps of 2/);
    assert.match(run.stdout, /1\. add a --json flag to status/);
    assert.match(run.stdout, /2\. update the docs/);
    // The session here has not answered yet: it names no model, so the window is still a guess.
    assert.match(run.stdout, /approximate: no Claude Code session here that names its model/);
  });
});

describe('shim shard <plan>', () => {
  test('writes shards that hold every open step once, whole, each within the budget', () => {
    const { root, shim } = repo();
    const run = shim('shard', 'plan.md', '--budget', '40000', '--json');
    assert.equal(run.status, 0, run.stderr);
    const out = JSON.parse(run.stdout) as {
      shards: Array<{ steps: number[]; tokens: number; oversize: boolean }>;
      written: string[];
    };
    assert.ok(out.shards.length >= 2);
    assert.deepEqual(
      out.shards.flatMap((s) => s.steps),
      [2, 3, 4, 5, 6],
    );
    for (const s of out.shards) assert.ok(s.oversize || s.tokens <= 40_000);
    const files = readdirSync(join(root, 'shards')).sort();
    assert.equal(files.length, out.shards.length);
    const texts = files.map((f) => readFileSync(join(root, 'shards', f), 'utf8'));
    for (const text of texts) assert.match(text, /Goal: stream ZEBRA-42 files/);
    assert.equal(texts.filter((t) => t.includes('- [ ] Handle BOM input\n')).length, 1);
  });

  test('never writes over ticked shards or files that are not shards, unless asked', () => {
    const { root, shim } = repo();
    assert.equal(shim('shard', 'plan.md', '--budget', '40000').status, 0);
    const again = shim('shard', 'plan.md', '--budget', '40000');
    assert.equal(again.status, 1);
    assert.match(again.stderr, /already holds \d+ shards .*\n.*--force/);
    assert.equal(shim('shard', 'plan.md', '--budget', '40000', '--force').status, 0);
    writeFileSync(join(root, 'shards', 'notes.md'), 'mine');
    const foreign = shim('shard', 'plan.md', '--budget', '40000', '--force');
    assert.equal(foreign.status, 1);
    assert.match(foreign.stderr, /not shim's shards \(notes\.md\)/);
    assert.equal(readFileSync(join(root, 'shards', 'notes.md'), 'utf8'), 'mine');
  });

  test('--dry-run writes nothing; a plan that fits is not split; a missing plan is one error', () => {
    const { root, shim } = repo();
    const dry = shim('shard', 'plan.md', '--budget', '40000', '--dry-run');
    assert.equal(dry.status, 0, dry.stderr);
    assert.match(dry.stdout, /dry run: nothing written/);
    assert.equal(existsSync(join(root, 'shards')), false);
    const whole = shim('shard', 'plan.md', '--budget', '500000');
    assert.match(whole.stdout, /fits in one session: nothing to split/);
    assert.equal(existsSync(join(root, 'shards')), false);
    const missing = shim('shard', 'nope.md');
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /^shim: plan not found: /);
  });

  test("--status: each shard's steps ticked in the plan, and the next one", () => {
    const { root, shim } = repo();
    assert.equal(shim('shard', 'plan.md', '--budget', '40000').status, 0);
    const ticked = PLAN.replace('- [ ] Rewrite', '- [x] Rewrite').replace(
      '- [ ] Handle',
      '- [x] Handle',
    );
    writeFileSync(join(root, 'plan.md'), ticked);
    const run = shim('shard', 'plan.md', '--status', '--json');
    assert.equal(run.status, 0, run.stderr);
    const { shards } = JSON.parse(run.stdout) as {
      shards: Array<{ first: number; last: number; done: number; steps: number }>;
    };
    assert.equal(shards[0]!.done, shards[0]!.steps, 'the first shard is done');
    assert.ok(shards.slice(1).every((s) => s.done === 0));
    assert.match(
      shim('shard', 'plan.md', '--status').stdout,
      /1\. 01-[\w-]+\.md · steps 2–3 · 2\/2 done ✓\n.*\n {2}next: /s,
    );
  });
});
