import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Command, Option } from '@commander-js/extra-typings';
import { readCommandLine, readPlainCommandLine } from './logged-command.ts';

function program(): Command {
  const root = new Command('shim').option('-v, --version');
  const team = root.command('team');
  team.command('connect').argument('<url>').option('--read-only');
  root
    .command('search')
    .argument('<words...>')
    .option('-n, --limit <n>')
    .option('--since [when]')
    .addOption(new Option('--agent <agent>').choices(['claude', 'codex', 'gemini']));
  return root;
}

describe('readCommandLine', () => {
  test('the command path and option names; arguments and values are typed words', () => {
    assert.deepEqual(
      readCommandLine(['team', 'connect', 'postgres://u:pw@db/x', '--read-only'], program()),
      {
        command: 'team connect',
        options: ['--read-only'],
        args: 1,
        typed: ['postgres://u:pw@db/x'],
      },
    );
    assert.deepEqual(
      readCommandLine(['search', 'billing', 'plans', '-n', '5', '--since=monday'], program()),
      {
        command: 'search',
        options: ['--limit', '--since'],
        args: 2,
        typed: ['billing', 'plans', '5', 'monday'],
      },
    );
  });

  test("a value from the option's own choices is shim's word, kept", () => {
    assert.deepEqual(readCommandLine(['search', '--agent', 'codex', 'x'], program()).options, [
      '--agent=codex',
    ]);
  });

  test('an optional value is taken only when one follows; -- ends the options', () => {
    const line = readCommandLine(
      ['search', '--since', '--limit', '3', '--', '--not-an-option'],
      program(),
    );
    assert.deepEqual(line.options, ['--since', '--limit']);
    assert.deepEqual(line.typed, ['3', '--not-an-option']);
    assert.equal(line.args, 1);
  });

  test('a word after the first argument is no subcommand; an unknown option that looks like a token is not named', () => {
    const after = readCommandLine(['team', 'x', 'connect'], program());
    assert.deepEqual([after.command, after.args], ['team', 2]);
    assert.deepEqual(readCommandLine(['search', '--ghp_abc=1', 'x'], program()).options, [
      '(unknown option)',
    ]);
  });

  test('without a tree: the command as given, options by the names typed', () => {
    assert.deepEqual(readPlainCommandLine('status', ['--session', 'abc', '--json']), {
      command: 'status',
      options: ['--session', '--json'],
      args: 1,
      typed: ['abc'],
    });
  });
});
