import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readStoredLoopOptions } from './options.ts';

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
