import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from './errors.ts';

class Narrower extends AppError {}

test('an AppError made by another copy of the class (another bundle) is an AppError here', () => {
  assert.ok(new AppError('USAGE', 'x') instanceof AppError);
  // What another bundle's copy of the class leaves on its errors.
  const fromElsewhere = Object.defineProperty(new Error('damaged'), Symbol.for('shim.AppError'), {
    value: true,
  });
  assert.ok(fromElsewhere instanceof AppError);
  assert.ok(!(new Error('plain') instanceof AppError));
  assert.ok(!(Object.assign(new Error('look-alike'), { name: 'AppError' }) instanceof AppError));
  assert.ok(!((null as unknown as object) instanceof AppError));
});

test('subclasses keep their own instanceof', () => {
  assert.ok(new Narrower('USAGE', 'x') instanceof AppError);
  assert.ok(new Narrower('USAGE', 'x') instanceof Narrower);
  assert.ok(!(new AppError('USAGE', 'x') instanceof Narrower));
});
