import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { learnRedacted, redactedValues } from './learn-redacted.ts';
import { SecretMemory } from './secret-memory.ts';
import { B62, madeUp } from './made-up.test-helper.ts';

const { gen } = madeUp(0x1ea4);

describe('values read from a newer, redacted copy', () => {
  test('each marker names the text the older copy held there', () => {
    const a = gen(B62, 32);
    const b = gen(B62, 24);
    assert.deepEqual(
      redactedValues(
        `deploy with ${a} and ${b} today`,
        'deploy with [REDACTED:vault] and [REDACTED:secret-assignment] today',
      ),
      [
        { value: a, rule: 'vault' },
        { value: b, rule: 'secret-assignment' },
      ],
    );
    assert.deepEqual(redactedValues(a, '[REDACTED:x]'), [{ value: a, rule: 'x' }]);
  });

  test('nothing from a pair whose other text differs, or with no marker', () => {
    const a = gen(B62, 32);
    assert.deepEqual(redactedValues(`deploy with ${a}`, 'ship with [REDACTED:x]'), []);
    assert.deepEqual(redactedValues(`deploy with ${a} now`, 'deploy with [REDACTED:x] later'), []);
    assert.deepEqual(redactedValues('deploy to /home/a/app', 'deploy to /work/b/app'), []);
    assert.deepEqual(redactedValues('same [REDACTED:x]', 'same [REDACTED:x]'), []);
  });

  test('learned through two whole values side by side, then found anywhere', () => {
    const a = gen(B62, 32);
    const older = { requests: [`use ${a}`, 'keep going'], task: { note: `the key ${a} works` } };
    const newer = {
      requests: ['use [REDACTED:x]', 'keep going'],
      task: { note: 'the key [REDACTED:x] works' },
    };
    const memory = new SecretMemory();
    assert.equal(learnRedacted(older, newer, memory), 1);
    assert.equal(memory.find(`elsewhere: ${a}.`).length, 1);
    assert.equal(learnRedacted(older, older, new SecretMemory()), 0);
  });
});
