/**
 * What a refused command or MCP call leaves in shim.log of the user's own words: the command, the
 * names of its options, the error's code — never the arguments, the options' values, or an error
 * message's quote of them (issue 42 item 19). Each through its door: the CLI as a user types it,
 * the MCP tools as an agent calls them.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runShim } from './helpers/cli.ts';
import { makeTempDir } from './helpers/fixtures.ts';
import { testAgents } from './helpers/agents.ts';
import { connectInMemory } from './helpers/mcp-client.ts';

type Entry = { level: string; message: string } & Record<string, unknown>;

function logEntries(home: string): { text: string; entries: Entry[] } {
  const path = join(home, 'logs', 'shim.log');
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const entries = text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Entry);
  return { text, entries };
}

describe("the user's own words stay out of shim.log", () => {
  test('refused commands: the command and its options are logged, not what was typed', () => {
    const dir = makeTempDir('shim-logged-words-');
    const home = join(dir, 'shim');
    const words = ['notes-about-the-merger', 'rewrite the billing module', 'quarterly-plans.jsonl'];
    const refused = [
      ['show', words[0]!],
      [
        'checkpoint',
        '--agent',
        'codex',
        '--reason',
        words[1]!,
        '--transcript',
        join(dir, words[2]!),
      ],
      // `shim status`'s fast path (cli/status-main.ts), without the command tree.
      ['status', '--session', words[0]!],
    ];
    for (const args of refused) {
      const r = runShim(home, args, { cwd: dir });
      assert.equal(r.status, 1, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /^shim: /, 'the one-line error still says what was refused');
    }
    const { text, entries } = logEntries(home);
    for (const word of words) assert.ok(!text.includes(word), `"${word}" is in shim.log:\n${text}`);
    const warned = entries.filter((e) => e.level === 'warn');
    assert.deepEqual(
      warned.map((e) => [e.command, e.options, e.args]),
      [
        ['show', [], 1],
        ['checkpoint', ['--agent=codex', '--reason', '--transcript'], 0],
        ['status', ['--session'], 1],
      ],
    );
    assert.ok(warned.every((e) => typeof e.code === 'string' && !('argv' in e)));
    assert.match(warned[0]!.message, /^no checkpoint <typed>/);
  });

  test('refused MCP calls: the tool and the code are logged, not the arguments', async () => {
    const dir = makeTempDir('shim-logged-words-mcp-');
    const home = join(dir, 'shim');
    mkdirSync(join(dir, 'project'), { recursive: true });
    const client = await connectInMemory({
      agents: testAgents,
      home,
      cwd: join(dir, 'project'),
      env: { SHIM_HOME: home, CLAUDE_CONFIG_DIR: join(dir, 'claude') },
      version: '0.0.0-test',
    });
    try {
      for (const [name, args] of [
        ['shim_get_checkpoint', { id: 'salary-review-for-dana' }],
        ['shim_forget', { id: 'salary-review-for-dana' }],
      ] as const) {
        const result = await client.callTool({ name, arguments: args });
        assert.equal(result.isError, true, name);
      }
    } finally {
      await client.close();
    }
    const { text, entries } = logEntries(home);
    assert.ok(!text.includes('salary-review-for-dana'), text);
    assert.deepEqual(
      entries.filter((e) => e.level === 'warn').map((e) => [e.tool, e.code]),
      [
        ['shim_get_checkpoint', 'CHECKPOINT_NOT_FOUND'],
        ['shim_forget', 'TOOL_OFF'],
      ],
    );
  });
});
