import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JsonObject } from './json-text.ts';
import { statusLineCommand } from './shim-command.ts';
import { addShimStatusLine, removeShimStatusLine } from './statusline-merge.ts';

const NOW = { node: '/usr/bin/node', bin: '/opt/shim/dist/shim.js' };
const OLD = { node: '/usr/bin/node', bin: '/old/dist/shim.js' };
const MINE = { type: 'command', command: '~/.claude/statusline.sh', padding: 2 };

describe('shim statusline', () => {
  test('added when there is none, removed again', () => {
    const added = addShimStatusLine({ model: 'opus' }, NOW);
    assert.deepEqual(added.settings, {
      model: 'opus',
      statusLine: { type: 'command', command: statusLineCommand(NOW) },
    });
    assert.deepEqual(added.before, { existed: false });
    const removed = removeShimStatusLine(added.settings, added.before);
    assert.deepEqual(removed.settings, { model: 'opus' });
    assert.equal(removed.change?.kind, 'statusline-removed');
  });

  test('wraps the user’s statusline, keeping its other fields and its place', () => {
    const settings: JsonObject = { statusLine: { ...MINE }, model: 'opus' };
    const added = addShimStatusLine(settings, NOW);
    assert.deepEqual(added.settings, {
      statusLine: { ...MINE, command: statusLineCommand(NOW, MINE.command) },
      model: 'opus',
    });
    assert.deepEqual(added.change, {
      kind: 'statusline-wrapped',
      command: statusLineCommand(NOW, MINE.command),
      original: MINE.command,
    });
    assert.deepEqual(removeShimStatusLine(added.settings, added.before).settings, settings);
  });

  test('unchanged on a second install; a stale path keeps wrapping the same original', () => {
    const once = addShimStatusLine({ statusLine: { ...MINE } }, OLD).settings;
    const again = addShimStatusLine(once, OLD);
    assert.equal(again.change, null);
    const moved = addShimStatusLine(once, NOW);
    assert.equal(moved.change?.kind, 'statusline-replaced');
    assert.equal(moved.before, null);
    assert.deepEqual(moved.settings.statusLine, {
      ...MINE,
      command: statusLineCommand(NOW, MINE.command),
    });
  });

  test('without a record, the wrapped command comes back from the --wrap argument', () => {
    const installed = addShimStatusLine({ statusLine: { ...MINE } }, NOW).settings;
    assert.deepEqual(removeShimStatusLine(installed, null).settings, { statusLine: MINE });
  });

  test('a statusline the user changed after the install stays', () => {
    const installed = addShimStatusLine({ statusLine: { ...MINE } }, NOW);
    const edited: JsonObject = { statusLine: { type: 'command', command: 'ccstatusline' } };
    const removed = removeShimStatusLine(edited, installed.before);
    assert.equal(removed.settings, edited);
    assert.equal(removed.change, null);
    assert.match(removed.note ?? '', /changed after/);
  });

  test('leaves a statusline it does not understand alone', () => {
    const settings: JsonObject = { statusLine: 'my-script.sh' };
    const result = addShimStatusLine(settings, NOW);
    assert.equal(result.settings, settings);
    assert.equal(result.change, null);
    assert.match(result.note ?? '', /left alone/);
  });
});
