import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compareVersions, parseVersion } from './version.ts';

describe('parseVersion', () => {
  test('a plain version is split into its three numbers', () => {
    assert.deepEqual(parseVersion('2.1.39'), [2, 1, 39]);
  });

  test('a pre-release or build suffix is ignored', () => {
    assert.deepEqual(parseVersion('2.1.39-beta.1'), [2, 1, 39]);
    assert.deepEqual(parseVersion('1.0.0+build.7'), [1, 0, 0]);
  });

  test('surrounding whitespace is ignored', () => {
    assert.deepEqual(parseVersion('  2.1.21\n'), [2, 1, 21]);
  });

  test('multi-digit parts are read as numbers', () => {
    assert.deepEqual(parseVersion('10.20.300'), [10, 20, 300]);
  });

  for (const value of [null, undefined, '', 'latest', 'v2.1.39', '2.1', 'a.b.c', '2..1']) {
    test(`${JSON.stringify(value) ?? 'undefined'} is not a version`, () => {
      assert.equal(parseVersion(value), null);
    });
  }
});

describe('compareVersions', () => {
  test('an older patch release sorts before a newer one', () => {
    assert.equal(Math.sign(compareVersions('2.1.20', '2.1.21')), -1);
    assert.equal(Math.sign(compareVersions('2.1.21', '2.1.20')), 1);
  });

  test('parts compare as numbers, so 2.1.9 is older than 2.1.10', () => {
    assert.equal(Math.sign(compareVersions('2.1.9', '2.1.10')), -1);
  });

  test('the major part outranks the minor and patch parts', () => {
    assert.equal(Math.sign(compareVersions('3.0.0', '2.99.99')), 1);
    assert.equal(Math.sign(compareVersions('2.0.99', '2.1.0')), -1);
  });

  test('equal versions compare as 0, pre-release suffixes included', () => {
    assert.equal(compareVersions('2.1.39', '2.1.39'), 0);
    assert.equal(compareVersions('2.1.39', '2.1.39-beta'), 0);
  });

  test('an unparseable version sorts before any real one', () => {
    assert.equal(Math.sign(compareVersions(null, '0.0.0')), -1);
    assert.equal(Math.sign(compareVersions('garbage', '1.0.0')), -1);
    assert.equal(Math.sign(compareVersions('1.0.0', undefined)), 1);
  });

  test('two unparseable versions are equal', () => {
    assert.equal(compareVersions(null, 'garbage'), 0);
    assert.equal(compareVersions(undefined, ''), 0);
  });

  test('sorting with it orders versions oldest first, unknown ones at the front', () => {
    const versions = ['2.1.10', null, '2.0.76', '2.1.9', '10.0.0', '2.1.39'];
    assert.deepEqual(versions.sort(compareVersions), [
      null,
      '2.0.76',
      '2.1.9',
      '2.1.10',
      '2.1.39',
      '10.0.0',
    ]);
  });
});
