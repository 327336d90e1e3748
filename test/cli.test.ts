/** End-to-end: the built `shim` binary on real transcripts, as a user or script would run it. */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import type { ReplayCompact, ReplayTurn } from '../src/app/session/replay.ts';
import { runShim, type Run } from './helpers/cli.ts';
import {
  AUTO_COMPACT_FIXTURES,
  gzFixturePath,
  fixturePath,
  listFixtures,
  makeTempDir,
} from './helpers/fixtures.ts';
import { makeWarmHome } from './helpers/shared-code-cache.ts';
import { buildLongSession, toJsonl } from './helpers/transcript-builders.ts';

function shim(args: string[], env: Record<string, string> = {}, cwd?: string): Run {
  return runShim(makeWarmHome('shim-home-'), args, { env, ...(cwd ? { cwd } : {}) });
}

type Turn = ReplayTurn;
type Compact = ReplayCompact;

const replays = new Map<string, Run>();

/**
 * `shim replay <fixture> --json` in a fresh SHIM_HOME, run once per fixture for the whole file
 * (several tests read the same replay; each is a fold of up to 4 MB of transcript).
 */
function replayRun(name: string): Run {
  let run = replays.get(name);
  if (!run) {
    run = shim(['replay', fixturePath(name), '--json']);
    replays.set(name, run);
  }
  return run;
}

function replay(name: string): Array<Turn | Compact> {
  const run = replayRun(name);
  assert.equal(run.status, 0, run.stderr);
  return run.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Turn | Compact);
}

/** The usage formula, computed straight from the transcript line. */
function usageAt(name: string, line: number): number {
  const text = readFileSync(fixturePath(name), 'utf8').split('\n')[line - 1]!;
  const usage = (JSON.parse(text) as { message: { usage: Record<string, number> } }).message.usage;
  return (
    (usage.input_tokens ?? 0) +
    (usage.cache_creation_input_tokens ?? 0) +
    (usage.cache_read_input_tokens ?? 0)
  );
}

describe('shim replay --json', () => {
  test('prints exactly the contract fields for every turn and compaction', () => {
    const events = replay('entire-b02936744f3b-2x-auto-compact-api-errors-v2.1.5.jsonl');
    const turnKeys = [
      'compactThreshold',
      'contextTokens',
      'kind',
      'level',
      'line',
      'percent',
      'risk',
      'turn',
      'turnsToCompact',
      'turnsToCompactHigh',
      'turnsToCompactLow',
      'windowTokens',
    ];
    for (const e of events) {
      assert.deepEqual(
        Object.keys(e).sort(),
        e.kind === 'turn'
          ? turnKeys
          : ['compactionKind', 'kind', 'lastContextTokens', 'line', 'preTokens', 'trigger'],
      );
    }
    assert.equal(events.filter((e) => e.kind === 'compact').length, 2);
    const lines = events.map((e) => e.line);
    assert.deepEqual(
      lines,
      [...lines].sort((a, b) => a - b),
      'events come in file order',
    );
  });

  for (const name of AUTO_COMPACT_FIXTURES) {
    test(`${name}: threshold within 3% of preTokens, L2+ for the 3 responses before, exact context`, () => {
      const events = replay(name);
      const compactions = events.filter(
        (e): e is Compact => e.kind === 'compact' && e.trigger === 'auto',
      );
      assert.ok(compactions.length > 0);
      for (const compaction of compactions) {
        const before = events.filter(
          (e): e is Turn => e.kind === 'turn' && e.line < compaction.line,
        );
        const sinceLast = before.slice(-3);
        const last = sinceLast[sinceLast.length - 1]!;
        const error =
          Math.abs(last.compactThreshold - compaction.preTokens!) / compaction.preTokens!;
        assert.ok(
          error <= 0.03,
          `threshold ${last.compactThreshold} vs preTokens ${compaction.preTokens}: ${(error * 100).toFixed(1)}%`,
        );
        assert.equal(sinceLast.length, 3);
        for (const t of sinceLast)
          assert.ok(
            ['L2', 'L3'].includes(t.level),
            `turn ${t.turn} at line ${t.line} is ${t.level}`,
          );
      }
      for (const t of events.filter((e): e is Turn => e.kind === 'turn')) {
        assert.equal(t.contextTokens, usageAt(name, t.line), `line ${t.line}`);
        assert.equal(t.percent, Math.round((t.contextTokens / t.compactThreshold) * 1000) / 10);
      }
    });
  }

  test('--evaluate reports risk accuracy above 90% and the forecast error', () => {
    const run = shim([
      'replay',
      fixturePath('spotter-4d5611e5-auto-compact-v2.1.39.jsonl'),
      '--json',
      '--evaluate',
    ]);
    const evaluation = JSON.parse(run.stdout.trim().split('\n').pop()!) as {
      kind: string;
      accuracy: number;
      forecast: { samples: number };
    };
    assert.equal(evaluation.kind, 'evaluation');
    assert.ok(evaluation.accuracy > 0.9, `accuracy ${evaluation.accuracy}`);
    assert.equal(evaluation.forecast.samples, 10);
  });

  test('the readable timeline marks compactions', () => {
    const run = shim([
      'replay',
      fixturePath('entire-9b04c3d92e38-auto-compact-167k-taskcreate-v2.1.39.jsonl'),
    ]);
    assert.equal(run.status, 0);
    assert.match(run.stdout, /── auto compaction at 167,361 tokens ──/);
  });
});

describe('shim status', () => {
  test('--json describes the session, its threshold, level, risk and forecast', () => {
    const run = shim([
      'status',
      fixturePath('entire-ed51f6581660-auto-compact-v2.1.42.jsonl'),
      '--json',
    ]);
    assert.equal(run.status, 0, run.stderr);
    const status = JSON.parse(run.stdout) as {
      sessionId: string;
      cliVersion: string;
      assessment: {
        contextTokens: number;
        compactThreshold: number;
        thresholdSource: string;
        level: string;
        signals: Record<string, unknown>;
        forecast: { growthPerTurn: number };
      };
      activity: { compactions: unknown[]; tasks: { total: number } };
    };
    assert.equal(status.cliVersion, '2.1.42');
    // Its own compaction (last response 167,543, preTokens 170,485) confirms the 2.1.42 rule.
    assert.equal(status.assessment.thresholdSource, 'default');
    assert.equal(status.assessment.compactThreshold, 167000);
    assert.equal(status.activity.compactions.length, 1);
    assert.ok(status.activity.tasks.total > 0);
    for (const field of [
      'estimatedTotalTokens',
      'tokensPerMessage',
      'contextWindowUsage',
      'contextWindowRemaining',
      'messageCount',
      'toolCallCount',
      'toolCallsSinceCheckpoint',
      'messagesPerMinute',
      'sessionDuration',
      'avgResponseLatency',
      'timeSinceLastResponse',
      'latencyTrend',
      'toolFailureRate',
      'consecutiveToolFailures',
      'responseLatencyTrend',
      'errorPatterns',
      'crashRisk',
      'riskFactors',
    ]) {
      assert.ok(field in status.assessment.signals, `signals.${field}`);
    }
  });

  test('reads gzip-compressed transcripts', () => {
    const run = shim(['status', gzFixturePath('spotter-short-v2.1.38.jsonl')]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /session 7f0c0f3e|Context/);
  });

  test('with no argument it finds the latest session of the current directory', () => {
    const home = makeTempDir();
    const project = makeTempDir('shim-project-');
    const dir = join(home, 'claude', 'projects', resolve(project).replace(/[^a-zA-Z0-9]/g, '-'));
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'aaaaaaaa-0000-0000-0000-000000000000.jsonl'),
      readFileSync(fixturePath('spotter-short-v2.1.38.jsonl')),
    );
    const run = shim(['status', '--json'], { CLAUDE_CONFIG_DIR: join(home, 'claude') }, project);
    assert.equal(run.status, 0, run.stderr);
    assert.match(
      (JSON.parse(run.stdout) as { transcriptPath: string }).transcriptPath,
      /aaaaaaaa-0000/,
    );
    const byId = shim(['status', '--session', 'aaaaaaaa-0000-0000-0000-000000000000', '--json'], {
      CLAUDE_CONFIG_DIR: join(home, 'claude'),
    });
    assert.equal(byId.status, 0, byId.stderr);
  });

  test("learns the threshold from the compactions in the user's other transcripts", () => {
    const home = makeTempDir();
    const dir = join(home, 'claude', 'projects', '-some-other-project');
    mkdirSync(dir, { recursive: true });
    // Another session of this user compacted at 146k (a lowered threshold): that is evidence
    // against the 167k rule, so it is learned.
    writeFileSync(
      join(dir, 'other.jsonl'),
      toJsonl(buildLongSession({ requests: 15, compactEvery: 14 })),
    );
    const run = shim(
      [
        'status',
        fixturePath('entire-6d63c3a51594-subagent-prompt-too-long-v2.1.37.jsonl'),
        '--json',
      ],
      { CLAUDE_CONFIG_DIR: join(home, 'claude') },
    );
    const status = JSON.parse(run.stdout) as {
      assessment: { compactThreshold: number; thresholdSource: string };
    };
    assert.equal(status.assessment.thresholdSource, 'learned');
    assert.equal(status.assessment.compactThreshold, 146000);
    const without = shim(
      [
        'status',
        fixturePath('entire-6d63c3a51594-subagent-prompt-too-long-v2.1.37.jsonl'),
        '--json',
        '--no-history',
      ],
      { CLAUDE_CONFIG_DIR: join(home, 'claude') },
    );
    assert.equal(
      (JSON.parse(without.stdout) as { assessment: { compactThreshold: number } }).assessment
        .compactThreshold,
      167000,
    );
  });

  test('an empty transcript is a session with no responses yet, not an error', () => {
    const path = join(makeTempDir(), 'empty.jsonl');
    writeFileSync(path, '');
    const run = shim(['status', path]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /no model response yet/);
  });

  const badInputs: Array<[string, () => string, RegExp]> = [
    [
      'a missing file',
      () => '/nonexistent/session.jsonl',
      /transcript not found: \/nonexistent\/session\.jsonl/,
    ],
    ['a directory', () => makeTempDir(), /is a directory, not a transcript/],
    [
      'binary data',
      () => {
        const path = join(makeTempDir(), 'binary.jsonl');
        writeFileSync(path, Buffer.from(Array.from({ length: 20000 }, (_, i) => (i * 7919) % 256)));
        return path;
      },
      /is not a session log \(none of its \d+ lines is a Claude Code transcript entry/,
    ],
  ];
  for (const [what, makePath, message] of badInputs) {
    test(`${what} gets a one-line error, a hint, exit 1 and nothing on stdout`, () => {
      const run = shim(['status', makePath()]);
      assert.equal(run.status, 1);
      assert.equal(run.stdout, '');
      assert.match(run.stderr.split('\n')[0]!, message);
      assert.equal(run.stderr.trim().split('\n').length, 2);
    });
  }

  test('a torn line mid-file is skipped, counted and reported once', () => {
    const lines = readFileSync(fixturePath('spotter-short-v2.1.38.jsonl'), 'utf8').split('\n');
    lines.splice(5, 0, '{"type":"assistant","message":{"id":"torn');
    const path = join(makeTempDir(), 'torn.jsonl');
    writeFileSync(path, lines.join('\n'));
    const run = shim(['status', path]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /note: skipped 1 unreadable line \(first at line 6\)/);
  });

  test('an invalid config file is reported with its path and the bad key; status runs on the defaults', () => {
    const home = makeTempDir();
    writeFileSync(
      join(home, 'config.json'),
      JSON.stringify({ levels: { L1: 70, L2: 85, L3: 95 }, risk: { danger: { compactUsag: 1 } } }),
    );
    const run = shim(['status', fixturePath('spotter-short-v2.1.38.jsonl')], { SHIM_HOME: home });
    // One behaviour everywhere (the hooks and `list` run on the defaults too), with the warning.
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /warning: .*config\.json: risk\.danger: .*using the defaults/);
  });
});

test('every fixture replays without errors', () => {
  for (const name of listFixtures()) {
    const run = replayRun(name);
    assert.equal(run.status, 0, `${name}: ${run.stderr}`);
  }
});

test('replaying a file that is not a transcript is an error, not an empty table', () => {
  const run = shim(['replay', resolve('package.json')]);
  assert.equal(run.status, 1);
  assert.equal(run.stdout, '');
  assert.match(
    run.stderr,
    /package\.json is not a session log \(none of its \d+ lines is a Claude Code transcript entry, a Codex CLI rollout line or a Gemini CLI chat record\)/,
  );
  const jsonl = join(makeTempDir(), 'other.jsonl');
  writeFileSync(jsonl, '{"level":"info","msg":"hello"}\n{"level":"warn","msg":"bye"}\n');
  assert.equal(shim(['replay', jsonl]).status, 1);
});

test('--help teaches the commands', () => {
  const run = shim(['--help']);
  assert.equal(run.status, 0);
  assert.match(run.stdout, /status/);
  assert.match(run.stdout, /replay/);
});
