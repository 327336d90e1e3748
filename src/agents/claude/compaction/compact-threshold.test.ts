import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  DEFAULT_WINDOW,
  EXTENDED_WINDOW,
  getWindowTokens,
  normalizeModel,
  resolveCompactThreshold,
  type SettingsWindows,
  type ThresholdInput,
} from './compact-threshold.ts';
import type { CompactSample, CompactThreshold } from '../../../core/context/threshold.ts';

const MODEL = 'claude-opus-4-6';
const CLI = '2.1.39';

/** A session on a 200k-window model and a current CLI, with no overrides and no samples. */
function input(changes: Partial<ThresholdInput> = {}): ThresholdInput {
  return { model: MODEL, cliVersion: CLI, env: {}, samples: [], ...changes };
}

function sample(
  preTokens: number,
  cliVersion: string | null = CLI,
  model: string | null = MODEL,
  lastContextTokens: number | null = null,
): CompactSample {
  return { preTokens, cliVersion, model, lastContextTokens };
}

/** The fields that matter most, for compact comparisons. */
function pick(result: CompactThreshold) {
  const { windowTokens, compactThreshold, source, sampleCount } = result;
  return { windowTokens, compactThreshold, source, sampleCount };
}

describe('normalizeModel', () => {
  test('a date suffix is dropped', () => {
    assert.equal(normalizeModel('claude-opus-4-5-20251101'), 'claude-opus-4-5');
  });

  test('a [1m] suffix is dropped', () => {
    assert.equal(normalizeModel('opus[1m]'), 'opus');
    assert.equal(normalizeModel('claude-sonnet-4-5-20250929[1m]'), 'claude-sonnet-4-5');
  });

  test('names are lowercased', () => {
    assert.equal(normalizeModel('Claude-Opus-4-6'), 'claude-opus-4-6');
  });

  test('a version number that is not a date stays', () => {
    assert.equal(normalizeModel('claude-opus-4-6'), 'claude-opus-4-6');
  });

  test('no model gives null', () => {
    assert.equal(normalizeModel(null), null);
    assert.equal(normalizeModel(undefined), null);
    assert.equal(normalizeModel(''), null);
  });
});

describe('getWindowTokens', () => {
  for (const model of [
    'claude-opus-4-6',
    'claude-opus-4-5-20251101',
    'claude-opus-4-1-20250805',
    'claude-opus-4-20250514',
    'claude-sonnet-4-5-20250929',
    'claude-haiku-4-5',
  ]) {
    test(`${model} has the 200k window`, () => {
      assert.equal(getWindowTokens(input({ model })), DEFAULT_WINDOW);
    });
  }

  test('an unknown model has the 200k window', () => {
    assert.equal(getWindowTokens(input({ model: null })), 200_000);
  });

  for (const model of [
    'claude-sonnet-5',
    'claude-opus-4-7',
    'claude-opus-4-8-20260101',
    'claude-opus-5',
  ]) {
    test(`${model} always runs with the 1M window`, () => {
      assert.equal(getWindowTokens(input({ model })), EXTENDED_WINDOW);
    });
  }

  for (const model of ['opus[1m]', 'claude-sonnet-4-5[1m]', 'Claude-Sonnet-4-5-20250929[1M]']) {
    test(`${model} asks for the 1M window`, () => {
      assert.equal(getWindowTokens(input({ model })), 1_000_000);
    });
  }

  test('CLAUDE_CODE_DISABLE_1M_CONTEXT keeps 1M models at 200k', () => {
    const env = { CLAUDE_CODE_DISABLE_1M_CONTEXT: '1' };
    assert.equal(getWindowTokens(input({ model: 'claude-opus-4-7', env })), 200_000);
    assert.equal(getWindowTokens(input({ model: 'opus[1m]', env })), 200_000);
    assert.equal(
      getWindowTokens(
        input({ model: 'claude-sonnet-5', env: { CLAUDE_CODE_DISABLE_1M_CONTEXT: 'true' } }),
      ),
      200_000,
    );
  });

  test('CLAUDE_CODE_DISABLE_1M_CONTEXT set to a false value changes nothing', () => {
    for (const value of ['0', 'false', '']) {
      const env = { CLAUDE_CODE_DISABLE_1M_CONTEXT: value };
      assert.equal(getWindowTokens(input({ model: 'claude-opus-4-7', env })), 1_000_000, value);
    }
  });

  test('a context seen above 200k proves the 1M window', () => {
    assert.equal(getWindowTokens(input({ observedMaxContext: 200_001 })), 1_000_000);
    assert.equal(getWindowTokens(input({ observedMaxContext: 200_000 })), 200_000);
  });

  test('a context seen above 200k wins over CLAUDE_CODE_DISABLE_1M_CONTEXT', () => {
    const env = { CLAUDE_CODE_DISABLE_1M_CONTEXT: '1' };
    assert.equal(getWindowTokens(input({ env, observedMaxContext: 350_000 })), 1_000_000);
  });

  test('a window Claude Code reported itself wins over the model name', () => {
    assert.equal(getWindowTokens(input({ reportedWindow: 1_000_000 })), 1_000_000);
    assert.equal(
      getWindowTokens(input({ model: 'claude-opus-4-7', reportedWindow: 200_000 })),
      200_000,
    );
  });

  test('a missing or zero reported window is ignored', () => {
    assert.equal(
      getWindowTokens(input({ model: 'claude-opus-4-7', reportedWindow: 0 })),
      1_000_000,
    );
    assert.equal(
      getWindowTokens(input({ model: 'claude-opus-4-7', reportedWindow: null })),
      1_000_000,
    );
  });

  test('CLAUDE_CODE_MAX_CONTEXT_TOKENS wins over everything', () => {
    const env = { CLAUDE_CODE_MAX_CONTEXT_TOKENS: '150000' };
    assert.equal(
      getWindowTokens(
        input({
          model: 'claude-opus-4-7',
          env,
          reportedWindow: 1_000_000,
          observedMaxContext: 400_000,
        }),
      ),
      150_000,
    );
  });

  test('CLAUDE_CODE_MAX_CONTEXT_TOKENS is clamped to 1k–10M', () => {
    assert.equal(getWindowTokens(input({ env: { CLAUDE_CODE_MAX_CONTEXT_TOKENS: '5' } })), 1_000);
    assert.equal(
      getWindowTokens(input({ env: { CLAUDE_CODE_MAX_CONTEXT_TOKENS: '99999999' } })),
      10_000_000,
    );
  });

  for (const value of ['lots', '', '   ', 'Infinity', '1e999', 'NaN']) {
    test(`CLAUDE_CODE_MAX_CONTEXT_TOKENS=${JSON.stringify(value)} is ignored`, () => {
      assert.equal(
        getWindowTokens(input({ env: { CLAUDE_CODE_MAX_CONTEXT_TOKENS: value } })),
        200_000,
      );
    });
  }
});

describe('resolveCompactThreshold: each era by its rule', () => {
  test('Claude Code 2.1.20 compacts at 155k: the 200k window minus 45k', () => {
    assert.deepEqual(resolveCompactThreshold(input({ cliVersion: '2.1.20' })), {
      windowTokens: 200_000,
      compactThreshold: 155_000,
      autoCompact: true,
      source: 'default',
      detail: 'Claude Code 2.1.20 rule: window 200,000 − 45k buffer',
      sampleCount: 0,
      era: '≤2.1.20',
      compactWindow: 200_000,
      windowSource: 'model',
      nativeWarningAt: null,
      blockingLimit: null,
      backgroundSummaryAt: null,
    });
  });

  test('Claude Code 2.1.21 compacts at 167k: the 200k window minus 33k', () => {
    const result = resolveCompactThreshold(input({ cliVersion: '2.1.21' }));
    assert.equal(result.compactThreshold, 167_000);
    assert.equal(result.era, '2.1.21–2.1.42');
    assert.equal(result.detail, 'Claude Code 2.1.21 rule: window 200,000 − 33k buffer');
  });

  test('Claude Code 2.1.330: 200k − 20k output reserve − 13k, warning, block and background points', () => {
    assert.deepEqual(resolveCompactThreshold(input({ cliVersion: '2.1.330' })), {
      windowTokens: 200_000,
      compactThreshold: 167_000,
      autoCompact: true,
      source: 'default',
      detail: 'Claude Code 2.1.330 rule: window 200,000 − 20,000 output reserve − 13k',
      sampleCount: 0,
      era: '2.1.43+',
      compactWindow: 200_000,
      windowSource: 'model',
      nativeWarningAt: 147_000,
      blockingLimit: 177_000,
      backgroundSummaryAt: 144_000,
    });
  });

  test('Claude Code 2.1.330 on a model with a small max output keeps only that much free', () => {
    const result = resolveCompactThreshold(
      input({ cliVersion: '2.1.330', model: 'claude-3-5-haiku-20241022' }),
    );
    assert.equal(result.compactThreshold, 200_000 - 8_192 - 13_000);
    assert.equal(result.blockingLimit, 200_000 - 8_192 - 3_000);
  });

  test('CLAUDE_CODE_BLOCKING_LIMIT_OVERRIDE moves the block point', () => {
    const env = { CLAUDE_CODE_BLOCKING_LIMIT_OVERRIDE: '190000' };
    assert.equal(
      resolveCompactThreshold(input({ cliVersion: '2.1.330', env })).blockingLimit,
      190_000,
    );
  });

  for (const [cliVersion, threshold] of [
    ['1.0.0', 155_000],
    ['2.0.76', 155_000],
    ['2.1.9', 155_000],
    ['2.1.39', 167_000],
    ['2.1.330', 167_000],
    ['3.0.0', 167_000],
  ] as const) {
    test(`Claude Code ${cliVersion} compacts at ${threshold / 1000}k`, () => {
      assert.equal(resolveCompactThreshold(input({ cliVersion })).compactThreshold, threshold);
    });
  }

  test('an unknown CLI version gets the newest era', () => {
    const result = resolveCompactThreshold(input({ cliVersion: null }));
    assert.equal(result.compactThreshold, 167_000);
    assert.equal(result.era, '2.1.43+');
    assert.match(result.detail, /^Claude Code \(unknown version\) rule/);
  });

  test('an unparseable CLI version gets the newest era', () => {
    assert.equal(resolveCompactThreshold(input({ cliVersion: 'nightly' })).era, '2.1.43+');
  });

  test('a 1M model compacts at 967k', () => {
    assert.deepEqual(pick(resolveCompactThreshold(input({ model: 'claude-sonnet-5' }))), {
      windowTokens: 1_000_000,
      compactThreshold: 967_000,
      source: 'default',
      sampleCount: 0,
    });
  });

  test('CLAUDE_CODE_DISABLE_1M_CONTEXT caps a 1M model at 200k', () => {
    const env = { CLAUDE_CODE_DISABLE_1M_CONTEXT: '1' };
    const result = resolveCompactThreshold(input({ model: 'claude-sonnet-5', env }));
    assert.equal(result.windowTokens, 200_000);
    assert.equal(result.compactThreshold, 167_000);
  });

  test('a 1M model on an old CLI compacts 45k before the end of its window', () => {
    const result = resolveCompactThreshold(input({ model: 'opus[1m]', cliVersion: '2.1.20' }));
    assert.equal(result.compactThreshold, 955_000);
  });

  test('a session seen above 200k is measured against 1M', () => {
    const result = resolveCompactThreshold(input({ observedMaxContext: 250_000 }));
    assert.equal(result.windowTokens, 1_000_000);
    assert.equal(result.compactThreshold, 967_000);
  });
});

function settingsFile(
  scope: SettingsWindows['scope'],
  autoCompactWindow: number | null,
  modelWindows: Record<string, number> = {},
): SettingsWindows {
  return { scope, path: `/${scope}/settings.json`, autoCompactWindow, modelWindows };
}

describe('resolveCompactThreshold: autoCompactWindow in settings (2.1.43+)', () => {
  const NOW = '2.1.330';

  test('the setting sets the window compaction is computed from', () => {
    const result = resolveCompactThreshold(
      input({ cliVersion: NOW, settings: [settingsFile('project', 150_000)] }),
    );
    assert.equal(result.compactThreshold, 150_000 - 20_000 - 13_000);
    assert.equal(result.source, 'settings');
    assert.equal(result.windowSource, 'settings');
    assert.equal(result.compactWindow, 150_000);
    assert.equal(result.windowTokens, 200_000);
    assert.match(result.detail, /150,000 from autoCompactWindow in project settings/);
  });

  test('the first file by precedence wins (managed, local, project, user)', () => {
    const settings = [
      settingsFile('managed', null),
      settingsFile('local', 120_000),
      settingsFile('project', 150_000),
      settingsFile('user', 180_000),
    ];
    assert.equal(
      resolveCompactThreshold(input({ cliVersion: NOW, settings })).compactWindow,
      120_000,
    );
  });

  test('modelSettings for the session model beats the top-level key of the same file', () => {
    const settings = [settingsFile('user', 180_000, { 'claude-opus-4-6': 130_000 })];
    assert.equal(
      resolveCompactThreshold(input({ cliVersion: NOW, settings })).compactWindow,
      130_000,
    );
    const other = [settingsFile('user', 180_000, { 'claude-sonnet-4-5': 130_000 })];
    assert.equal(
      resolveCompactThreshold(input({ cliVersion: NOW, settings: other })).compactWindow,
      180_000,
    );
  });

  test('the setting is at least 100k and never above the model window', () => {
    const low = resolveCompactThreshold(
      input({ cliVersion: NOW, settings: [settingsFile('user', 50_000)] }),
    );
    assert.equal(low.compactWindow, 100_000);
    const high = resolveCompactThreshold(
      input({ cliVersion: NOW, settings: [settingsFile('user', 500_000)] }),
    );
    assert.equal(high.compactWindow, 200_000);
    assert.equal(high.source, 'default');
  });

  test('a 1M model with a 400k setting compacts at 367k', () => {
    const result = resolveCompactThreshold(
      input({
        cliVersion: NOW,
        model: 'claude-sonnet-5',
        settings: [settingsFile('user', 400_000)],
      }),
    );
    assert.equal(result.compactThreshold, 367_000);
    assert.equal(result.blockingLimit, 977_000);
  });

  test('the env variable beats the setting', () => {
    const result = resolveCompactThreshold(
      input({
        cliVersion: NOW,
        env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '160000' },
        settings: [settingsFile('managed', 120_000)],
      }),
    );
    assert.equal(result.compactWindow, 160_000);
    assert.equal(result.source, 'env');
  });

  test('eras before the setting existed ignore it', () => {
    const result = resolveCompactThreshold(
      input({ cliVersion: '2.1.39', settings: [settingsFile('user', 120_000)] }),
    );
    assert.equal(result.compactThreshold, 167_000);
  });

  test('learned samples do not apply to a window the user set', () => {
    const result = resolveCompactThreshold(
      input({
        cliVersion: NOW,
        settings: [settingsFile('user', 150_000)],
        samples: [sample(160_000, NOW)],
      }),
    );
    assert.equal(result.compactThreshold, 117_000);
    assert.equal(result.sampleCount, 0);
  });
});

describe('resolveCompactThreshold: environment overrides', () => {
  test('DISABLE_AUTO_COMPACT measures against the full window', () => {
    const result = resolveCompactThreshold(input({ env: { DISABLE_AUTO_COMPACT: '1' } }));
    assert.deepEqual(pick(result), {
      windowTokens: 200_000,
      compactThreshold: 200_000,
      source: 'disabled',
      sampleCount: 0,
    });
    assert.equal(result.autoCompact, false);
    assert.equal(result.detail, 'auto-compaction is disabled; measuring against the full window');
  });

  test('DISABLE_COMPACT does the same, on a 1M window too', () => {
    const result = resolveCompactThreshold(
      input({ model: 'claude-opus-4-7', env: { DISABLE_COMPACT: 'true' } }),
    );
    assert.equal(result.autoCompact, false);
    assert.equal(result.compactThreshold, 1_000_000);
    assert.equal(result.source, 'disabled');
  });

  test('autoCompactEnabled false in the deciding settings file turns it off; a higher true keeps it on', () => {
    const off = {
      ...settingsFile('user', 150_000),
      autoCompactWindow: null,
      autoCompactEnabled: false,
    };
    const result = resolveCompactThreshold(input({ settings: [off] }));
    assert.equal(result.autoCompact, false);
    assert.equal(result.compactThreshold, 200_000);
    assert.match(result.detail, /autoCompactEnabled false in/);
    const on = {
      ...settingsFile('project', 150_000),
      autoCompactWindow: null,
      autoCompactEnabled: true,
    };
    assert.equal(resolveCompactThreshold(input({ settings: [on, off] })).autoCompact, true);
  });

  test('disabled auto-compaction wins over learned samples', () => {
    const result = resolveCompactThreshold(
      input({ env: { DISABLE_AUTO_COMPACT: 'yes' }, samples: [sample(160_000)] }),
    );
    assert.equal(result.source, 'disabled');
    assert.equal(result.sampleCount, 0);
  });

  for (const value of ['0', 'false', 'no', '', 'maybe']) {
    test(`DISABLE_AUTO_COMPACT=${JSON.stringify(value)} leaves auto-compaction on`, () => {
      const result = resolveCompactThreshold(
        input({ env: { DISABLE_AUTO_COMPACT: value, DISABLE_COMPACT: value } }),
      );
      assert.equal(result.autoCompact, true);
      assert.equal(result.compactThreshold, 167_000);
    });
  }

  test('CLAUDE_CODE_AUTO_COMPACT_WINDOW shrinks the window compaction is measured in', () => {
    const result = resolveCompactThreshold(
      input({ env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '150000' } }),
    );
    assert.equal(result.windowTokens, 200_000);
    assert.equal(result.compactThreshold, 117_000);
    assert.equal(result.source, 'env');
    assert.equal(
      result.detail,
      'Claude Code 2.1.39 rule: window 150,000 − 33k buffer (CLAUDE_CODE_AUTO_COMPACT_WINDOW=150,000)',
    );
  });

  test('CLAUDE_CODE_AUTO_COMPACT_WINDOW keeps the buffer of the CLI version', () => {
    const env = { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '150000' };
    assert.equal(
      resolveCompactThreshold(input({ cliVersion: '2.1.20', env })).compactThreshold,
      105_000,
    );
  });

  test('CLAUDE_CODE_AUTO_COMPACT_WINDOW works inside a 1M window', () => {
    const env = { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '400000' };
    const result = resolveCompactThreshold(input({ model: 'claude-opus-4-7', env }));
    assert.equal(result.windowTokens, 1_000_000);
    assert.equal(result.compactThreshold, 367_000);
  });

  test('CLAUDE_CODE_AUTO_COMPACT_WINDOW beyond the window cannot raise the threshold', () => {
    const env = { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '500000' };
    assert.deepEqual(pick(resolveCompactThreshold(input({ env }))), {
      windowTokens: 200_000,
      compactThreshold: 167_000,
      source: 'default',
      sampleCount: 0,
    });
  });

  test('CLAUDE_CODE_AUTO_COMPACT_WINDOW replaces what the samples learned', () => {
    const env = { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '150000' };
    const result = resolveCompactThreshold(input({ env, samples: [sample(160_000)] }));
    assert.equal(result.compactThreshold, 117_000);
    assert.equal(result.sampleCount, 0);
  });

  test('CLAUDE_AUTOCOMPACT_PCT_OVERRIDE can lower the threshold (of the window before 2.1.43)', () => {
    const result = resolveCompactThreshold(
      input({ env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '50' } }),
    );
    assert.equal(result.compactThreshold, 100_000);
    assert.equal(result.source, 'env');
    assert.equal(result.detail, 'CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=50% of 200,000');
  });

  test('from 2.1.43 the PCT override is a share of the effective window (window − reserve)', () => {
    const env = { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '50' };
    const result = resolveCompactThreshold(input({ cliVersion: '2.1.330', env }));
    assert.equal(result.compactThreshold, 90_000);
    assert.equal(result.nativeWarningAt, 70_000);
  });

  test('CLAUDE_AUTOCOMPACT_PCT_OVERRIDE cannot raise the threshold', () => {
    for (const cliVersion of ['2.1.39', '2.1.330'])
      for (const pct of ['95', '100', '150']) {
        const result = resolveCompactThreshold(
          input({ cliVersion, env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: pct } }),
        );
        assert.equal(result.compactThreshold, 167_000, `${cliVersion} ${pct}`);
        assert.equal(result.source, 'default');
      }
  });

  test('CLAUDE_AUTOCOMPACT_PCT_OVERRIDE lowers a learned threshold, but not above it', () => {
    const samples = [sample(160_000, CLI, MODEL, 158_000)];
    const lowered = resolveCompactThreshold(
      input({ samples, env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '75' } }),
    );
    assert.equal(lowered.compactThreshold, 150_000);
    assert.equal(lowered.source, 'env');
    const kept = resolveCompactThreshold(
      input({ samples, env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '90' } }),
    );
    assert.equal(kept.compactThreshold, 158_000);
    assert.equal(kept.source, 'learned');
  });

  test('CLAUDE_AUTOCOMPACT_PCT_OVERRIDE is a percentage of CLAUDE_CODE_AUTO_COMPACT_WINDOW', () => {
    const env = {
      CLAUDE_CODE_AUTO_COMPACT_WINDOW: '150000',
      CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '50',
    };
    assert.equal(resolveCompactThreshold(input({ env })).compactThreshold, 75_000);
  });

  test('CLAUDE_CODE_MAX_CONTEXT_TOKENS sets the window the rule is applied to', () => {
    const env = { CLAUDE_CODE_MAX_CONTEXT_TOKENS: '150000' };
    assert.deepEqual(pick(resolveCompactThreshold(input({ env }))), {
      windowTokens: 150_000,
      compactThreshold: 117_000,
      source: 'default',
      sampleCount: 0,
    });
  });

  for (const value of ['big', 'NaN', 'Infinity', '', '  ', '12abc']) {
    test(`numeric overrides set to ${JSON.stringify(value)} are ignored`, () => {
      const env = {
        CLAUDE_CODE_AUTO_COMPACT_WINDOW: value,
        CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: value,
        CLAUDE_CODE_MAX_CONTEXT_TOKENS: value,
      };
      assert.deepEqual(resolveCompactThreshold(input({ env })), resolveCompactThreshold(input()));
    });
  }
});

describe("resolveCompactThreshold: what the user's compactions show", () => {
  test('compactions that agree with the rule confirm it', () => {
    const samples = [sample(167_361, CLI, MODEL, 167_213), sample(170_485, CLI, MODEL, 167_543)];
    const result = resolveCompactThreshold(input({ samples }));
    assert.equal(result.compactThreshold, 167_000);
    assert.equal(result.source, 'default');
    assert.equal(result.sampleCount, 2);
    assert.match(result.detail, /consistent with 2 auto compactions seen$/);
  });

  test('compactions that contradict the rule replace it, never above a preTokens seen', () => {
    const samples = [sample(150_500, CLI, MODEL, 149_000), sample(152_000, CLI, MODEL, 150_100)];
    const result = resolveCompactThreshold(input({ samples }));
    assert.equal(result.compactThreshold, 150_100);
    assert.equal(result.source, 'learned');
    assert.equal(
      result.detail,
      'learned from 2 auto compactions (between 150,100 and 150,500); the 2.1.21–2.1.42 rule says 167,000',
    );
  });

  test('one compaction whose preTokens a big tool result inflated is taken at its lower end', () => {
    // Seen: a last response at 150,210, preTokens 176,700 (the next compaction came at 157,925).
    const result = resolveCompactThreshold(
      input({ cliVersion: '2.1.330', samples: [sample(176_700, '2.1.330', MODEL, 150_210)] }),
    );
    assert.equal(result.compactThreshold, 167_000);
    assert.equal(result.source, 'default');
  });

  test('a sample without the last context is taken at its preTokens', () => {
    const result = resolveCompactThreshold(input({ samples: [sample(160_000)] }));
    assert.equal(result.compactThreshold, 160_000);
    assert.equal(result.source, 'learned');
  });

  test('idle and put-off compactions are not learned from', () => {
    const samples = [
      { ...sample(150_000), kind: 'idle' as const },
      { ...sample(190_000, CLI, MODEL, 189_000), kind: 'put-off' as const },
    ];
    const result = resolveCompactThreshold(input({ samples }));
    assert.equal(result.compactThreshold, 167_000);
    assert.equal(result.sampleCount, 0);
  });

  test('one sample far below the rest (another setting) is left out', () => {
    const samples = [
      sample(120_000, CLI, MODEL, 119_000),
      sample(160_500, CLI, MODEL, 160_000),
      sample(161_000, CLI, MODEL, 160_200),
      sample(162_000, CLI, MODEL, 160_300),
    ];
    const result = resolveCompactThreshold(input({ samples }));
    assert.equal(result.compactThreshold, 160_300);
    assert.equal(result.sampleCount, 3);
  });

  test('samples from another era do not count', () => {
    const result = resolveCompactThreshold(input({ samples: [sample(150_000, '2.1.20')] }));
    assert.equal(result.compactThreshold, 167_000);
    assert.equal(result.sampleCount, 0);
    const old = resolveCompactThreshold(
      input({ cliVersion: '2.1.20', samples: [sample(166_000, '2.1.21')] }),
    );
    assert.equal(old.compactThreshold, 155_000);
  });

  test('an old session learns from old samples', () => {
    const result = resolveCompactThreshold(
      input({
        cliVersion: '2.0.50',
        samples: [sample(153_000, '2.1.10'), sample(166_000, '2.1.30')],
      }),
    );
    assert.equal(result.compactThreshold, 153_000);
    assert.equal(result.sampleCount, 1);
  });

  test('samples of the same model are preferred over other models', () => {
    const samples = [sample(166_000), sample(150_000, CLI, 'claude-sonnet-4-5')];
    const result = resolveCompactThreshold(input({ samples }));
    assert.equal(result.compactThreshold, 166_000);
    assert.equal(result.sampleCount, 1);
  });

  test('model names are compared without date or [1m] suffixes', () => {
    const samples = [
      sample(166_000, CLI, 'claude-opus-4-5-20251101'),
      sample(150_000, CLI, 'claude-sonnet-4-5'),
    ];
    const result = resolveCompactThreshold(input({ model: 'claude-opus-4-5', samples }));
    assert.equal(result.compactThreshold, 166_000);
  });

  test('at most twenty samples count, those of the nearest older versions first', () => {
    const samples = [sample(150_000, '2.1.22')];
    for (let i = 0; i < 20; i++) samples.push(sample(166_000, `2.1.${23 + i}`));
    const result = resolveCompactThreshold(input({ cliVersion: '2.1.42', samples }));
    assert.equal(result.sampleCount, 20);
    assert.equal(result.compactThreshold, 166_000);
  });

  test('a 200k session ignores samples from 1M windows, and a 1M session those from 200k', () => {
    assert.equal(resolveCompactThreshold(input({ samples: [sample(900_000)] })).sampleCount, 0);
    const result = resolveCompactThreshold(
      input({ model: 'claude-opus-4-7', samples: [sample(166_000, CLI, 'claude-opus-4-7')] }),
    );
    assert.equal(result.compactThreshold, 967_000);
  });

  test('a 1M session learns from 1M samples', () => {
    const result = resolveCompactThreshold(
      input({ model: 'claude-opus-4-7', samples: [sample(950_000, CLI, 'claude-opus-4-7')] }),
    );
    assert.equal(result.compactThreshold, 950_000);
    assert.equal(result.source, 'learned');
  });
});
