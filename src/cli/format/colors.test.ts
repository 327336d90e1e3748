import assert from 'node:assert/strict';
import { test } from 'node:test';
import picocolors from 'picocolors';
import { colorsWanted, createColors } from './colors.ts';

test("colours: picocolors' codes, nesting included", () => {
  const ours = createColors(true);
  const theirs = picocolors.createColors(true);
  const samples = ['', 'plain', 'L3', '12.5% · 3 turns'];
  for (const text of samples) {
    for (const name of ['bold', 'dim', 'red', 'green', 'yellow', 'magenta'] as const)
      assert.equal(ours[name](text), theirs[name](text), `${name}(${JSON.stringify(text)})`);
    // an inner colour of the same kind: the outer one carries on after it
    assert.equal(ours.red(ours.bold(text)), theirs.red(theirs.bold(text)));
    assert.equal(
      ours.bold(`a ${ours.dim(text)} b ${ours.bold('c')} d`),
      theirs.bold(`a ${theirs.dim(text)} b ${theirs.bold('c')} d`),
    );
    assert.equal(
      ours.green(`x ${ours.red(text)} y ${ours.yellow('z')}`),
      theirs.green(`x ${theirs.red(text)} y ${theirs.yellow('z')}`),
    );
  }
});

test('colours off: the text as it is', () => {
  const off = createColors(false);
  assert.equal(off.red(off.bold('danger')), 'danger');
});

test("when: picocolors' rule, the terminal asked only when it decides", () => {
  const terminal = () => true;
  const pipe = () => false;
  assert.equal(colorsWanted({}, [], terminal, 'linux'), true);
  assert.equal(colorsWanted({}, [], pipe, 'linux'), false);
  assert.equal(colorsWanted({ TERM: 'dumb' }, [], terminal, 'linux'), false);
  assert.equal(colorsWanted({ NO_COLOR: '1' }, [], terminal, 'linux'), false);
  assert.equal(colorsWanted({ NO_COLOR: '1', FORCE_COLOR: '1' }, [], terminal, 'linux'), false);
  assert.equal(colorsWanted({}, ['--no-color'], terminal, 'linux'), false);
  assert.equal(colorsWanted({ FORCE_COLOR: '1' }, [], pipe, 'linux'), true);
  assert.equal(colorsWanted({}, ['--color'], pipe, 'linux'), true);
  assert.equal(colorsWanted({ CI: 'true' }, [], pipe, 'linux'), true);
  assert.equal(colorsWanted({}, [], pipe, 'win32'), true);
  let asked = false;
  colorsWanted({ NO_COLOR: '1' }, [], () => (asked = true), 'linux');
  assert.equal(asked, false, 'NO_COLOR decides without asking the terminal');
});
