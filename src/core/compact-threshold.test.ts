import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  DEFAULT_WINDOW,
  EXTENDED_WINDOW,
  getWindowTokens,
  normalizeModel,
  resolveCompactThreshold,
  type CompactSample,
  type CompactThreshold,
  type ThresholdInput,
} from './compact-threshold.ts';

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
): CompactSample {
  return { preTokens, cliVersion, model };
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

describe('resolveCompactThreshold: documented defaults', () => {
  test('Claude Code 2.1.20 compacts at 155k: the 200k window minus 45k', () => {
    assert.deepEqual(resolveCompactThreshold(input({ cliVersion: '2.1.20' })), {
      windowTokens: 200_000,
      compactThreshold: 155_000,
      autoCompact: true,
      source: 'default',
      detail: 'documented default for Claude Code 2.1.20: window minus 45k',
      sampleCount: 0,
    });
  });

  test('Claude Code 2.1.21 compacts at 167k: the 200k window minus 33k', () => {
    assert.deepEqual(resolveCompactThreshold(input({ cliVersion: '2.1.21' })), {
      windowTokens: 200_000,
      compactThreshold: 167_000,
      autoCompact: true,
      source: 'default',
      detail: 'documented default for Claude Code 2.1.21: window minus 33k',
      sampleCount: 0,
    });
  });

  for (const [cliVersion, threshold] of [
    ['1.0.0', 155_000],
    ['2.0.76', 155_000],
    ['2.1.9', 155_000],
    ['2.1.39', 167_000],
    ['2.2.0', 167_000],
    ['3.0.0', 167_000],
  ] as const) {
    test(`Claude Code ${cliVersion} compacts at ${threshold / 1000}k`, () => {
      assert.equal(resolveCompactThreshold(input({ cliVersion })).compactThreshold, threshold);
    });
  }

  test('an unknown CLI version gets the newest default', () => {
    const result = resolveCompactThreshold(input({ cliVersion: null }));
    assert.equal(result.compactThreshold, 167_000);
    assert.equal(
      result.detail,
      'documented default for Claude Code (unknown version): window minus 33k',
    );
  });

  test('an unparseable CLI version gets the newest default', () => {
    assert.equal(
      resolveCompactThreshold(input({ cliVersion: 'nightly' })).compactThreshold,
      167_000,
    );
  });

  test('a 1M model compacts 33k before the end of its window', () => {
    assert.deepEqual(pick(resolveCompactThreshold(input({ model: 'claude-sonnet-5' }))), {
      windowTokens: 1_000_000,
      compactThreshold: 967_000,
      source: 'default',
      sampleCount: 0,
    });
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

describe('resolveCompactThreshold: environment overrides', () => {
  test('DISABLE_AUTO_COMPACT measures against the full window', () => {
    assert.deepEqual(resolveCompactThreshold(input({ env: { DISABLE_AUTO_COMPACT: '1' } })), {
      windowTokens: 200_000,
      compactThreshold: 200_000,
      autoCompact: false,
      source: 'disabled',
      detail: 'auto-compaction is disabled; measuring against the full window',
      sampleCount: 0,
    });
  });

  test('DISABLE_COMPACT does the same, on a 1M window too', () => {
    const result = resolveCompactThreshold(
      input({ model: 'claude-opus-4-7', env: { DISABLE_COMPACT: 'true' } }),
    );
    assert.equal(result.autoCompact, false);
    assert.equal(result.compactThreshold, 1_000_000);
    assert.equal(result.source, 'disabled');
  });

  test('disabled auto-compaction wins over learned samples', () => {
    const result = resolveCompactThreshold(
      input({ env: { DISABLE_AUTO_COMPACT: 'yes' }, samples: [sample(160_000)] }),
    );
    assert.deepEqual(pick(result), {
      windowTokens: 200_000,
      compactThreshold: 200_000,
      source: 'disabled',
      sampleCount: 0,
    });
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
    assert.deepEqual(result, {
      windowTokens: 200_000,
      compactThreshold: 117_000,
      autoCompact: true,
      source: 'env',
      detail: 'CLAUDE_CODE_AUTO_COMPACT_WINDOW=150000 minus the 33k buffer',
      sampleCount: 0,
    });
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

  test('CLAUDE_AUTOCOMPACT_PCT_OVERRIDE can lower the threshold', () => {
    const result = resolveCompactThreshold(
      input({ env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '50' } }),
    );
    assert.deepEqual(result, {
      windowTokens: 200_000,
      compactThreshold: 100_000,
      autoCompact: true,
      source: 'env',
      detail: 'CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=50% of 200000',
      sampleCount: 0,
    });
  });

  test('CLAUDE_AUTOCOMPACT_PCT_OVERRIDE cannot raise the threshold', () => {
    for (const pct of ['95', '100', '150']) {
      const result = resolveCompactThreshold(
        input({ env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: pct } }),
      );
      assert.deepEqual(
        pick(result),
        {
          windowTokens: 200_000,
          compactThreshold: 167_000,
          source: 'default',
          sampleCount: 0,
        },
        pct,
      );
    }
  });

  test('CLAUDE_AUTOCOMPACT_PCT_OVERRIDE lowers a learned threshold, but not above it', () => {
    const samples = [sample(160_000)];
    const lowered = resolveCompactThreshold(
      input({ samples, env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '75' } }),
    );
    assert.equal(lowered.compactThreshold, 150_000);
    assert.equal(lowered.source, 'env');
    const kept = resolveCompactThreshold(
      input({ samples, env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '90' } }),
    );
    assert.equal(kept.compactThreshold, 160_000);
    assert.equal(kept.source, 'learned');
  });

  test('CLAUDE_AUTOCOMPACT_PCT_OVERRIDE is a percentage of CLAUDE_CODE_AUTO_COMPACT_WINDOW', () => {
    const env = {
      CLAUDE_CODE_AUTO_COMPACT_WINDOW: '150000',
      CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '50',
    };
    assert.equal(resolveCompactThreshold(input({ env })).compactThreshold, 75_000);
  });

  test('CLAUDE_CODE_MAX_CONTEXT_TOKENS sets the window the default buffer is taken from', () => {
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

describe('resolveCompactThreshold: learned samples', () => {
  test('one auto compaction of the same model and era sets the threshold', () => {
    assert.deepEqual(resolveCompactThreshold(input({ samples: [sample(165_500)] })), {
      windowTokens: 200_000,
      compactThreshold: 165_500,
      autoCompact: true,
      source: 'learned',
      detail: 'learned from 1 auto compaction (2.1.39)',
      sampleCount: 1,
    });
  });

  test('with up to four samples the lowest one is the threshold', () => {
    const samples = [sample(170_000), sample(165_000, '2.1.38'), sample(168_000), sample(172_000)];
    const result = resolveCompactThreshold(input({ samples }));
    assert.equal(result.compactThreshold, 165_000);
    assert.equal(result.detail, 'learned from 4 auto compactions (2.1.39, 2.1.38)');
  });

  test('with five samples the second lowest (the lower quartile) is the threshold', () => {
    const samples = [164_000, 160_000, 163_000, 161_000, 162_000].map((t) => sample(t));
    assert.equal(resolveCompactThreshold(input({ samples })).compactThreshold, 161_000);
  });

  test('with nine samples the third lowest is the threshold', () => {
    const samples = [168, 160, 167, 161, 166, 162, 165, 163, 164].map((k) => sample(k * 1000));
    assert.equal(resolveCompactThreshold(input({ samples })).compactThreshold, 162_000);
  });

  test('at most ten samples count, those of the nearest older versions first', () => {
    // 2.1.28 and 2.1.29 are the oldest and would pull the threshold down if they counted.
    const samples = [sample(150_000, '2.1.28'), sample(151_000, '2.1.29')];
    for (let i = 0; i < 10; i++) samples.push(sample(166_000 + i * 100, `2.1.${30 + i}`));
    const result = resolveCompactThreshold(input({ samples }));
    assert.equal(result.sampleCount, 10);
    assert.equal(result.compactThreshold, 166_200);
    assert.equal(result.detail, 'learned from 10 auto compactions (2.1.39, 2.1.38, 2.1.37)');
  });

  test('samples from newer CLI versions only fill in after the older ones', () => {
    const samples = [sample(160_000, '2.1.35')];
    for (let i = 0; i < 10; i++) samples.push(sample(166_000, '2.1.25'));
    const result = resolveCompactThreshold(input({ cliVersion: '2.1.30', samples }));
    assert.equal(result.compactThreshold, 166_000);
    assert.equal(result.sampleCount, 10);
  });

  test('samples from before 2.1.21 are ignored by a 2.1.21+ session', () => {
    const result = resolveCompactThreshold(input({ samples: [sample(150_000, '2.1.20')] }));
    assert.deepEqual(pick(result), {
      windowTokens: 200_000,
      compactThreshold: 167_000,
      source: 'default',
      sampleCount: 0,
    });
  });

  test('samples from 2.1.21 on are ignored by an older session', () => {
    const result = resolveCompactThreshold(
      input({ cliVersion: '2.1.20', samples: [sample(166_000, '2.1.21')] }),
    );
    assert.equal(result.compactThreshold, 155_000);
    assert.equal(result.source, 'default');
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

  test('a session of unparseable version does not learn from old-era samples', () => {
    const result = resolveCompactThreshold(
      input({ cliVersion: 'nightly', samples: [sample(150_000, '2.0.5')] }),
    );
    assert.equal(result.compactThreshold, 167_000);
    assert.equal(result.source, 'default');
  });

  test('a sample without a CLI version counts as the newest era', () => {
    const result = resolveCompactThreshold(input({ samples: [sample(166_000, null)] }));
    assert.equal(result.compactThreshold, 166_000);
    assert.equal(result.detail, 'learned from 1 auto compaction (?)');
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

  test('samples of other models are used when there are none of the same model', () => {
    const samples = [
      sample(160_000, CLI, 'claude-sonnet-4-5'),
      sample(164_000, CLI, 'claude-haiku-4-5'),
    ];
    const result = resolveCompactThreshold(input({ samples }));
    assert.equal(result.compactThreshold, 160_000);
    assert.equal(result.sampleCount, 2);
  });

  test('a 200k session ignores samples from 1M windows', () => {
    const result = resolveCompactThreshold(input({ samples: [sample(900_000)] }));
    assert.equal(result.compactThreshold, 167_000);
    assert.equal(result.source, 'default');
  });

  test('a 1M session ignores samples from 200k windows', () => {
    const result = resolveCompactThreshold(
      input({ model: 'claude-opus-4-7', samples: [sample(166_000, CLI, 'claude-opus-4-7')] }),
    );
    assert.equal(result.compactThreshold, 967_000);
    assert.equal(result.source, 'default');
  });

  test('a 1M session learns from 1M samples', () => {
    const result = resolveCompactThreshold(
      input({ model: 'claude-opus-4-7', samples: [sample(950_000, CLI, 'claude-opus-4-7')] }),
    );
    assert.equal(result.compactThreshold, 950_000);
    assert.equal(result.source, 'learned');
  });

  test('samples larger than a window set by CLAUDE_CODE_MAX_CONTEXT_TOKENS are ignored', () => {
    const env = { CLAUDE_CODE_MAX_CONTEXT_TOKENS: '150000' };
    assert.equal(
      resolveCompactThreshold(input({ env, samples: [sample(166_000)] })).compactThreshold,
      117_000,
    );
    assert.equal(
      resolveCompactThreshold(input({ env, samples: [sample(140_000)] })).compactThreshold,
      140_000,
    );
  });
});
