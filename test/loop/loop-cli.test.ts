/** `shim loop` as a user runs it: clear refusals, progress, and the list / status / logs views. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { BIN } from '../helpers/cli.ts';
import { createLoopWorld, done, respond, FAKE_CLAUDE, type LoopWorld } from './loop-harness.ts';

function shim(world: LoopWorld, args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: world.project,
    env: { ...world.env, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('shim loop (CLI)', () => {
  let world: LoopWorld;
  before(() => {
    world = createLoopWorld();
  });
  after(() => world.cleanup());

  test('refuses bad input with one line and a hint, before starting anything', () => {
    const cases: Array<[string[], RegExp]> = [
      [['loop'], /the loop needs a goal/],
      // No agent is assumed: nothing here (no flag, no executable named, no session) says one.
      [['loop', '--goal', 'x'], /shim loop needs --agent: no session of .* says which agent/],
      [['loop', '--goal', 'x', '--prompt-file', 'p.md'], /either --goal or --prompt-file/],
      [
        ['loop', '--goal', 'x', '--max-restarts', '6', '--claude-bin', FAKE_CLAUDE],
        /--max-restarts must be a whole number from 0 to 5/,
      ],
      [
        ['loop', '--goal', 'x', '--threshold', '150', '--claude-bin', FAKE_CLAUDE],
        /--threshold must be/,
      ],
      [
        ['loop', '--goal', 'x', '--iteration-timeout', 'soon', '--claude-bin', FAKE_CLAUDE],
        /duration like 90s/,
      ],
      [
        ['loop', '--goal', 'x', '--claude-bin', '/nonexistent/claude'],
        /cannot find the Claude Code CLI/,
      ],
      [
        ['loop', '--goal', 'x', '--claude-bin', FAKE_CLAUDE, '--', '--resume', 'abc'],
        /--resume is set by shim loop itself/,
      ],
      [
        ['loop', '--prompt-file', 'missing.md', '--claude-bin', FAKE_CLAUDE],
        /cannot read the prompt file/,
      ],
      [
        ['loop', '--goal', 'x', '--agent', 'cursor'],
        /--agent must be one of claude, codex, gemini/,
      ],
      [
        ['loop', '--goal', 'x', '--agent', 'claude', '--fallback-agent', 'claude'],
        /--fallback-agent claude is the agent the run starts with/,
      ],
      [
        ['loop', '--goal', 'x', '--claude-bin', FAKE_CLAUDE, '--fallback-arg', '--full-auto'],
        /--fallback-arg needs --fallback-agent/,
      ],
      [
        [
          'loop',
          '--goal',
          'x',
          '--claude-bin',
          FAKE_CLAUDE,
          '--fallback-agent',
          'codex',
          '--codex-bin',
          '/nonexistent/codex',
        ],
        /cannot find the Codex CLI/,
      ],
      [
        ['loop', '--goal', 'x', '--agent', 'codex', '--codex-bin', FAKE_CLAUDE, '--', '--json'],
        /--json is set by shim loop itself/,
      ],
      [['loop', '--resume'], /no unfinished loop run/],
      [['loop', 'status', 'zzzz'], /no loop run zzzz/],
    ];
    for (const [args, message] of cases) {
      const result = shim(world, args);
      assert.equal(result.status, 1, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message, args.join(' '));
      assert.equal(result.stdout, '', 'nothing on stdout');
    }
    assert.equal(world.invocations().length, 0, 'no agent was started');
  });

  test('SHIM_CLAUDE_BIN picks the agent; progress goes to stderr; the views show the run', () => {
    world.script([
      { actions: [respond(30_000, { text: 'Half way.' })] },
      { actions: [{ write: { path: 'a.txt', content: 'a' } }, done()] },
    ]);
    writeFileSync(join(world.project, 'PROMPT.md'), 'Write a.txt.\n');
    const run = shim(world, ['loop', '--prompt-file', 'PROMPT.md'], {
      SHIM_CLAUDE_BIN: FAKE_CLAUDE,
    });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, '');
    // Before the first iteration: the plan's open steps against where the loop restarts.
    assert.match(
      run.stderr,
      /plan: 1 open step ≈ \d+k tokens in ~1 session \(restart at \d+k\); 1 fits in one session/,
    );
    assert.ok(
      run.stderr.indexOf('plan: ') < run.stderr.indexOf('[1] fresh Claude Code session'),
      'the plan comes before the first iteration',
    );
    assert.match(run.stderr, /\[1\] fresh Claude Code session/);
    assert.match(run.stderr, /\[2\] continuing Claude Code session/);
    assert.match(run.stderr, /completed \(2 iterations, 0 restarts/);

    const list = shim(world, ['loop', 'list']);
    assert.equal(list.status, 0, list.stderr);
    assert.match(list.stdout, /run\s+status\s+agent\s+iter/);
    assert.match(list.stdout, /completed\s+claude\s+2\s+0\s+\$0\.00/);

    const status = shim(world, ['loop', 'status']);
    assert.equal(status.status, 0, status.stderr);
    assert.match(status.stdout, /iteration\s+2 of 20/);
    assert.match(status.stdout, /agent\s+Claude Code\n/);
    assert.match(
      status.stdout,
      /context\s+\S+ \d+% of the auto-compact threshold \(restart at 70%\)/,
    );
    assert.match(status.stdout, /1\s+fresh/);
    assert.match(status.stdout, /2\s+continue/);

    const json = JSON.parse(shim(world, ['loop', 'status', '--json']).stdout) as {
      run: { status: string; goal: string };
      iterations: unknown[];
    };
    assert.equal(json.run.status, 'completed');
    assert.equal(json.run.goal, 'Write a.txt.');
    assert.equal(json.iterations.length, 2);

    const logs = shim(world, ['loop', 'logs']);
    assert.match(logs.stdout, /started: Write a\.txt\./);
    assert.doesNotMatch(
      logs.stdout,
      /context ▓|context ░/,
      'per-response readings only with --context',
    );
    assert.match(shim(world, ['loop', 'logs', '--context']).stdout, /\d+k tokens/);
    const events = shim(world, ['loop', 'logs', '--json'])
      .stdout.trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { seq: number; name: string });
    assert.equal(events[0]!.name, 'loop.started');
    assert.equal(events[1]!.name, 'loop.plan');
    // Each iteration's session is told its run and number: what its /loop command reads.
    const runId = (
      JSON.parse(shim(world, ['loop', 'status', '--json']).stdout) as {
        run: { runId: string };
      }
    ).run.runId;
    assert.deepEqual(
      world.invocations().map((i) => i.loop),
      [
        { runId, iteration: '1' },
        { runId, iteration: '2' },
      ],
    );
    assert.equal(events.at(-1)!.name, 'loop.completed');

    const follow = shim(world, ['loop', 'logs', '--follow']);
    assert.equal(follow.status, 0, 'following a finished run returns at once');
  });

  test('inside an iteration: /loop shows its run, /loop checkpoint and /handoff save this session now', () => {
    const runId = (
      JSON.parse(shim(world, ['loop', 'status', '--json']).stdout) as { run: { runId: string } }
    ).run.runId;
    const inLoop = { SHIM_LOOP_RUN_ID: runId, SHIM_LOOP_ITERATION: '2' };
    const status = shim(world, ['slash', 'loop'], inLoop);
    assert.equal(status.status, 0, status.stderr);
    assert.match(status.stdout, new RegExp(`loop ${runId}`));
    assert.match(status.stdout, /context\s+\S+ \d+% of the auto-compact threshold/);
    // The agent runs `shim loop status` in its shell: the same run, without its id.
    assert.match(shim(world, ['loop', 'status'], inLoop).stdout, new RegExp(`loop ${runId}`));

    const outside = shim(world, ['slash', 'loop', 'checkpoint']);
    assert.equal(outside.status, 1);
    assert.match(outside.stderr, /not an iteration of a shim loop/);
    assert.match(outside.stderr, /\/checkpoint/);
    const saved = shim(world, ['slash', 'loop', 'checkpoint'], inLoop);
    assert.equal(saved.status, 0, saved.stderr);
    assert.match(saved.stdout, /saved/);
    assert.match(saved.stdout, new RegExp(`loop ${runId}`));
    const newest = JSON.parse(shim(world, ['list', '--json']).stdout) as Array<{
      triggeredBy: string;
    }>;
    assert.equal(newest[0]?.triggeredBy, 'user_requested');

    const handoff = shim(world, ['slash', 'handoff']);
    assert.equal(handoff.status, 0, handoff.stderr);
    assert.match(
      handoff.stdout,
      /checkpoint #\d+ saved\nhandoff for checkpoint #\d+ .* written to /,
    );
    const bad = shim(world, ['slash', 'loop', 'now']);
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /\/loop does not take "now"/);
  });

  test("the seed's CONTEXT_WINDOW_TOKENS / CONTEXT_EXHAUSTION_THRESHOLD set where the loop restarts", () => {
    // 50% of a 60,000-token window is 30,000 tokens: the first response (40,000) crosses it,
    // where shim's own default (70% of the 167k threshold, 117k) would carry on in the session.
    world.script([
      { actions: [respond(40_000, { text: 'Half way.' })] },
      { actions: [{ write: { path: 'w.txt', content: 'w' } }, done()] },
    ]);
    const env = {
      SHIM_CLAUDE_BIN: FAKE_CLAUDE,
      CONTEXT_WINDOW_TOKENS: '60000',
      CONTEXT_EXHAUSTION_THRESHOLD: '50',
    };
    const run = shim(world, ['loop', '--goal', 'Write w.txt.'], env);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /restart at 50% of a 60000-token window/);
    assert.match(run.stderr, /\[2\] fresh Claude Code session/, 'restarted fresh, not continued');
    assert.match(shim(world, ['loop', 'status']).stdout, /\(50% of a 60000-token window\)/);
    const bad = shim(world, ['loop', '--goal', 'x'], { ...env, CONTEXT_WINDOW_TOKENS: '0' });
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /CONTEXT_WINDOW_TOKENS must be a whole number of tokens/);
  });

  test('--shards runs each shard of a plan in order, skipping those whose steps are done', () => {
    const plan =
      '# Plan\n\nGoal: three files.\n\n- [x] Write a.txt\n- [ ] Write b.txt\n- [ ] Write c.txt\n';
    writeFileSync(join(world.project, 'plan.md'), plan);
    mkdirSync(join(world.project, 'no-history'), { recursive: true });
    const split = shim(world, [
      'shard',
      'plan.md',
      '--budget',
      '1000',
      '--history',
      'no-history',
      '--force',
    ]);
    assert.equal(split.status, 0, split.stderr);
    // One shard a step (each over the tiny budget); the first step is ticked already.
    writeFileSync(
      join(world.project, 'plan.md'),
      plan.replace('- [ ] Write b.txt', '- [x] Write b.txt'),
    );
    world.script([{ actions: [{ write: { path: 'c.txt', content: 'c' } }, done()] }]);
    const run = shim(world, ['loop', '--shards', 'shards'], { SHIM_CLAUDE_BIN: FAKE_CLAUDE });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /shard 1\/2 shards\/01-write-b-txt\.md: its steps are done, skipped/);
    assert.match(run.stderr, /shard 2\/2 shards\/02-write-c-txt\.md\n/);
    assert.match(run.stderr, /✔ every shard of shards ran to completion/);
    const refused = shim(world, ['loop', '--shards', 'nowhere']);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /no shards in .*nowhere/);
  });

  test('--json prints the finished run; a stopped run exits 1 with its reason', () => {
    world.script([], { actions: [respond(5_000, { text: 'nothing changes' })] });
    const result = shim(world, [
      'loop',
      '--goal',
      'never done',
      '--claude-bin',
      FAKE_CLAUDE,
      '--max-iterations',
      '2',
      '--json',
      '--quiet',
    ]);
    assert.equal(result.status, 1);
    assert.equal(result.stderr, '');
    const output = JSON.parse(result.stdout) as {
      run: { status: string; stopReason: string };
      exitCode: number;
    };
    assert.equal(output.run.status, 'stopped');
    assert.match(output.run.stopReason, /max_iterations/);
  });

  test('shim gc reports loop runs too', () => {
    const result = shim(world, ['gc', '--json']);
    assert.equal(result.status, 0, result.stderr);
    const output = JSON.parse(result.stdout) as {
      loops: { compacted: string[]; deleted: string[] };
    };
    assert.deepEqual(output.loops, { ...output.loops, compacted: [], deleted: [] });
  });

  test('--help teaches the loop', () => {
    const help = shim(world, ['loop', '--help']);
    assert.match(help.stdout, /Previous|fresh session/);
    assert.match(help.stdout, /--threshold <percent>/);
    assert.match(help.stdout, /shim loop --resume/);
    assert.match(help.stdout, /list.*\n.*status/);
  });
});
