import assert from 'node:assert/strict';
import { test } from 'node:test';
import { safeFileName } from './fnv-hash.ts';

test('ordinary ids stay as they are', () => {
  assert.equal(
    safeFileName('4f8c1176-7025-4530-a860-c6fc4c63a150'),
    '4f8c1176-7025-4530-a860-c6fc4c63a150',
  );
});

test('traversal, absolute, empty, NUL and long ids become one safe component, without collisions', () => {
  const ids = [
    '../../outside/PWNED',
    '/etc/passwd',
    '',
    'a\0b',
    '..',
    '.',
    'x'.repeat(500),
    '__outside',
    '_',
  ];
  const names = ids.map(safeFileName);
  for (const name of names) {
    assert.match(name, /^[\w-]{1,100}$/, name);
    assert.ok(!name.includes('..') && !name.includes('/'));
  }
  assert.equal(new Set(names).size, names.length, 'no two ids share a name');
  assert.notEqual(safeFileName('../a'), safeFileName('__a'));
});
