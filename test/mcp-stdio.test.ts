/**
 * `shim mcp` over real stdio: the built binary spawned by the SDK's stdio client, as Claude Code
 * would start it. Needs `node scripts/build.mjs` first (npm test does it).
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { encodeProjectDir } from '../src/agents/claude/sessions.ts';
import { BIN } from './helpers/cli.ts';
import { fixturePath, makeTempDir } from './helpers/fixtures.ts';

const CALLER = 'spotter-short-v2.1.38.jsonl';
const CALLER_ID = '55604662-cf2a-4331-851a-ec234028f8ca';

test('shim mcp: lists its tools and answers shim_get_crash_risk over stdio', async () => {
  const root = makeTempDir('shim-mcp-stdio-');
  const project = join(root, 'project');
  const claude = join(root, 'claude');
  mkdirSync(project);
  const sessions = join(claude, 'projects', encodeProjectDir(project));
  mkdirSync(sessions, { recursive: true });
  writeFileSync(join(sessions, `${CALLER_ID}.jsonl`), readFileSync(fixturePath(CALLER)));

  let stderr = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    cwd: project,
    env: {
      PATH: process.env.PATH ?? '',
      SHIM_HOME: join(root, 'home'),
      CLAUDE_CONFIG_DIR: claude,
    },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'shim-stdio-test', version: '1.0.0' });
  try {
    // Any non-protocol byte on stdout would fail the client's JSON-RPC parsing here.
    await client.connect(transport);
    assert.equal(client.getServerVersion()?.name, 'shim');
    const { tools } = await client.listTools();
    assert.equal(tools.length, 10);
    assert.ok(tools.some((t) => t.name === 'shim_get_crash_risk'));

    const result = (await client.callTool({
      name: 'shim_get_crash_risk',
      arguments: { includeSignals: true },
    })) as CallToolResult & { structuredContent?: Record<string, unknown> };
    assert.ok(!result.isError, JSON.stringify(result.content));
    const s = result.structuredContent!;
    assert.ok(['safe', 'warning', 'danger'].includes(s.riskLevel as string));
    assert.equal((s.session as { sessionId: string }).sessionId, CALLER_ID);
    assert.equal(typeof (s.signals as { messageCount: number }).messageCount, 'number');
  } finally {
    await client.close();
    rmSync(root, { recursive: true, force: true });
  }
  assert.equal(stderr, '', 'nothing on stderr either in a normal run');
});
