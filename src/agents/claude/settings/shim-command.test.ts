import { spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  hookCommand,
  isShimHookHandler,
  parseShimCommand,
  quoteForShell,
  splitShellWords,
  statusLineCommand,
} from './shim-command.ts';

const plain = { node: '/usr/local/bin/node', bin: '/opt/shim/dist/shim.js' };
const spaced = {
  node: '/Users/Jane Doe/.nvm/versions/node/v20.19.0/bin/node',
  bin: '/Users/Jane Doe/Library/shim $HOME/dist/shim.js',
};

describe('shim commands', () => {
  test('plain paths are not quoted; hooks call node and the bundle directly', () => {
    assert.equal(
      hookCommand(plain, 'SessionStart'),
      '/usr/local/bin/node /opt/shim/dist/shim.js hook SessionStart',
    );
    assert.equal(statusLineCommand(plain), '/usr/local/bin/node /opt/shim/dist/shim.js statusline');
  });

  test('paths with spaces or shell characters are double-quoted, and sh reads them back', () => {
    const command = hookCommand(spaced, 'Stop');
    assert.equal(
      command,
      '"/Users/Jane Doe/.nvm/versions/node/v20.19.0/bin/node" "/Users/Jane Doe/Library/shim \\$HOME/dist/shim.js" hook Stop',
    );
    assert.deepEqual(splitShellWords(command), [spaced.node, spaced.bin, 'hook', 'Stop']);
    assert.equal(quoteForShell('a"b`c\\d'), '"a\\"b\\`c\\\\d"');
  });

  test('the statusline wraps the original command readably and gets it back', () => {
    const original = `bash -c 'printf "%s" "$(git branch --show-current)"' | cut -c1-20`;
    const command = statusLineCommand(spaced, original);
    assert.match(command, / statusline --wrap-command 'bash -c '\\''printf/);
    assert.deepEqual(parseShimCommand(command), {
      kind: 'statusline',
      launcher: [spaced.node],
      bin: spaced.bin,
      wrapped: original,
    });
    const words = spawnSync(
      '/bin/sh',
      ['-c', `printf '%s' ${command.split(' --wrap-command ')[1]}`],
      {
        encoding: 'utf8',
      },
    );
    assert.equal(words.stdout, original, 'the shell reads back exactly the command');
  });

  test('a statusline wrapped by an older install (base64) is still understood', () => {
    const original = 'echo mine';
    const old = `node /x/bin/shim.cjs statusline --wrap ${Buffer.from(original).toString('base64')}`;
    assert.equal((parseShimCommand(old) as { wrapped: string }).wrapped, original);
  });

  test('recognises shim hooks by the bundle name and verb, whatever the paths', () => {
    assert.deepEqual(parseShimCommand(hookCommand(spaced, 'PreCompact')), {
      kind: 'hook',
      launcher: [spaced.node],
      bin: spaced.bin,
      event: 'PreCompact',
    });
    assert.equal(parseShimCommand('shim hook Stop')?.kind, 'hook');
    assert.equal(parseShimCommand('~/.claude/hooks/guard-rm.sh'), null);
    assert.equal(parseShimCommand('node /x/not-shim.js hook Stop'), null);
    assert.equal(parseShimCommand('node /x/shim.js status'), null);
    assert.equal(parseShimCommand('echo "unclosed'), null);
    assert.equal(isShimHookHandler({ type: 'command', command: hookCommand(plain, 'Stop') }), true);
    assert.equal(isShimHookHandler({ type: 'command', command: 'say done' }), false);
    assert.equal(isShimHookHandler('node /x/shim.js hook Stop'), false);
  });
});
