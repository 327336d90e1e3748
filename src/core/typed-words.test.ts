import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { withoutTyped } from './typed-words.ts';

describe('withoutTyped', () => {
  test('takes out every typed word, the longest first', () => {
    assert.equal(
      withoutTyped('no checkpoint matches "deploy the parser" (deploy)', [
        'deploy',
        'deploy the parser',
      ]),
      'no checkpoint matches "<typed>" (<typed>)',
    );
  });

  test('leaves words under three characters and text with none', () => {
    assert.equal(
      withoutTyped('--limit must be 1 or more, got 0', ['0', 'ab']),
      '--limit must be 1 or more, got 0',
    );
    assert.equal(withoutTyped('store unavailable', []), 'store unavailable');
  });
});
