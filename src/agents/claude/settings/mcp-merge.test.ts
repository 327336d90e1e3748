import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { getShimMcpEntries, sameMcpServer, shimMcpBin } from './mcp-entries.ts';
import { addShimMcpServers, containsShimMcp, removeShimMcpServers } from './mcp-merge.ts';

const INVOCATION = { node: '/usr/bin/node', bin: '/opt/shim/bin/shim.cjs' };
const ENTRIES = getShimMcpEntries(INVOCATION);
const SHIM = { type: 'stdio', command: '/usr/bin/node', args: ['/opt/shim/bin/shim.cjs', 'mcp'] };

describe('shim’s MCP server entry', () => {
  test('is `<node> <bin> mcp`, named shim', () => {
    assert.deepEqual(ENTRIES, [
      { name: 'shim', command: '/usr/bin/node', args: ['/opt/shim/bin/shim.cjs', 'mcp'] },
    ]);
  });

  test('is recognised by its shim.cjs / shim.js / shim + mcp words, not by its name', () => {
    assert.equal(shimMcpBin(SHIM), '/opt/shim/bin/shim.cjs');
    assert.equal(
      shimMcpBin({ command: 'node', args: ['/x/dist/shim.js', 'mcp'] }),
      '/x/dist/shim.js',
    );
    assert.equal(shimMcpBin({ command: 'shim', args: ['mcp'] }), 'shim');
    assert.equal(shimMcpBin({ command: 'node', args: ['/x/shim.cjs', 'hook', 'Stop'] }), null);
    assert.equal(shimMcpBin({ command: 'npx', args: ['-y', 'other-mcp'] }), null);
    assert.equal(shimMcpBin({ url: 'https://example.com/mcp' }), null);
    assert.equal(sameMcpServer(SHIM, ENTRIES[0]!), true);
    assert.equal(sameMcpServer({ command: SHIM.command, args: SHIM.args }, ENTRIES[0]!), true);
    assert.equal(sameMcpServer({ ...SHIM, env: { A: '1' } }, ENTRIES[0]!), false);
    assert.equal(sameMcpServer({ ...SHIM, type: 'http' }, ENTRIES[0]!), false);
  });
});

describe('adding and removing it', () => {
  test('adds next to other servers and keys; idempotent', () => {
    const config = { numStartups: 2, mcpServers: { db: { command: 'pg' } }, userID: 'u' };
    const added = addShimMcpServers(config, ENTRIES, '/p');
    assert.deepEqual(added.config, {
      ...config,
      mcpServers: { db: { command: 'pg' }, shim: SHIM },
    });
    assert.equal(added.createdKey, false);
    assert.deepEqual(config.mcpServers, { db: { command: 'pg' } }, 'input not mutated');
    assert.ok(containsShimMcp(added.config));
    const again = addShimMcpServers(added.config, ENTRIES, '/p');
    assert.deepEqual(again.changes, []);
    assert.equal(again.config, added.config);
  });

  test('removal takes only shim’s, and mcpServers too when shim created it', () => {
    const added = addShimMcpServers({ a: 1 }, ENTRIES, '/p');
    assert.equal(added.createdKey, true);
    assert.deepEqual(removeShimMcpServers(added.config, true, '/p').config, { a: 1 });
    assert.deepEqual(removeShimMcpServers(added.config, false, '/p').config, {
      a: 1,
      mcpServers: {},
    });
    const mixed = {
      mcpServers: { db: { command: 'pg' }, old: { command: 'node', args: ['/o/shim.cjs', 'mcp'] } },
    };
    const removed = removeShimMcpServers(mixed, true, '/p');
    assert.deepEqual(removed.config, { mcpServers: { db: { command: 'pg' } } });
    assert.deepEqual(
      removed.changes.map((c) => [c.kind, c.name]),
      [['mcp-removed', 'old']],
    );
  });
});
