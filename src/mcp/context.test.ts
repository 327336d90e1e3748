import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { AppError } from '../core/errors.ts';
import { makeTempDir } from '../../test/helpers/fixtures.ts';
import { identifyCaller } from './context.ts';
import { testAgents } from '../../test/helpers/agents.ts';

function setup() {
  const root = makeTempDir('shim-mcp-caller-');
  const project = join(root, 'project');
  mkdirSync(project);
  const dir = join(root, 'claude', 'projects', resolve(project).replace(/[^a-zA-Z0-9]/g, '-'));
  const deps = {
    home: join(root, 'shim'),
    cwd: project,
    env: { CLAUDE_CONFIG_DIR: join(root, 'claude') },
    version: 't',
    agents: testAgents,
  };
  return { dir, deps };
}

test('the caller is found even when Claude Code writes its transcript just after calling the tool', async () => {
  const { dir, deps } = setup();
  setTimeout(() => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'late-session.jsonl'), '{}\n');
  }, 200);
  const caller = await identifyCaller(deps);
  assert.equal(caller.sessionId, 'late-session');
});

test('without any transcript it gives up after the wait with a hint', async () => {
  const { deps } = setup();
  await assert.rejects(
    identifyCaller(deps, 100),
    (e: unknown) =>
      e instanceof AppError &&
      e.code === 'SESSION_NOT_FOUND' &&
      /start the MCP server/.test(e.hint ?? ''),
  );
});
