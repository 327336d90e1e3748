import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readSeedContextSettings, readStoredLoopOptions } from './options.ts';

describe('readStoredLoopOptions', () => {
  test('a run stored before --agent (one claudeBin) resumes as a Claude Code run', () => {
    const options = readStoredLoopOptions('r1', { goal: 'g', claudeBin: '/usr/bin/claude' });
    assert.equal(options.agent, 'claude');
    assert.equal(options.fallbackAgent, null);
    assert.deepEqual(options.bins, { claude: '/usr/bin/claude' });
    assert.deepEqual(options.fallbackArgs, []);
  });

  test('a run with its agents and binaries keeps them; one without any binary cannot resume', () => {
    const options = readStoredLoopOptions('r2', {
      goal: 'g',
      agent: 'claude',
      fallbackAgent: 'codex',
      bins: { claude: '/c', codex: '/x' },
      fallbackArgs: ['--full-auto'],
    });
    assert.deepEqual(
      [options.agent, options.fallbackAgent, options.bins, options.fallbackArgs],
      ['claude', 'codex', { claude: '/c', codex: '/x' }, ['--full-auto']],
    );
    assert.throws(() => readStoredLoopOptions('r3', { goal: 'g' }), /cannot be resumed/);
  });
});

describe('readSeedContextSettings (the seed names, docs/specification.md "The loop")', () => {
  test('unset: none; either name alone takes the other as its default', () => {
    assert.equal(readSeedContextSettings({}), null);
    assert.deepEqual(readSeedContextSettings({ CONTEXT_WINDOW_TOKENS: '200000' }), {
      percent: 70,
      windowTokens: 200_000,
    });
    assert.deepEqual(readSeedContextSettings({ CONTEXT_EXHAUSTION_THRESHOLD: '60' }), {
      percent: 60,
      windowTokens: null,
    });
  });

  test('a value out of range is refused with what to do, never read as "never restart"', () => {
    assert.throws(
      () => readSeedContextSettings({ CONTEXT_WINDOW_TOKENS: '0' }),
      /CONTEXT_WINDOW_TOKENS must be a whole number of tokens/,
    );
    assert.throws(
      () => readSeedContextSettings({ CONTEXT_EXHAUSTION_THRESHOLD: 'seventy' }),
      /CONTEXT_EXHAUSTION_THRESHOLD must be a percent/,
    );
  });

  test('a stored run keeps its window rule; one stored before it has none', () => {
    const rule = { percent: 70, windowTokens: 150_000 };
    assert.deepEqual(
      readStoredLoopOptions('r4', { goal: 'g', bins: { claude: '/c' }, contextWindow: rule })
        .contextWindow,
      rule,
    );
    assert.equal(
      readStoredLoopOptions('r5', { goal: 'g', bins: { claude: '/c' } }).contextWindow,
      null,
    );
  });
});
