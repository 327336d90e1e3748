import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { makeTempDir } from '../../test/helpers/fixtures.ts';
import { claudeAgent, geminiAgent, testAgents } from '../../test/helpers/agents.ts';
import { B62, madeUp } from '../redact/made-up.test-helper.ts';
import type { Agent } from '../agents/agent.ts';
import { readCallsStarted } from '../store/cache/calls-started.ts';
import { runHook } from './run.ts';

const SESSION = 'gem-hook-started-1';
const TOKEN = `ghp_${madeUp(40).gen(B62, 36)}`;

let root: string;
let home: string;
let chat: string;
beforeEach(() => {
  root = makeTempDir('shim-started-hook-');
  home = join(root, 'shim');
  mkdirSync(join(root, 'project'));
  chat = join(root, 'session-2026-11-25T10-00-hook.jsonl');
  writeFileSync(
    chat,
    [
      { sessionId: SESSION, projectHash: 'abc', startTime: '2026-11-25T10:00:00.000Z' },
      { id: 'u1', timestamp: '2026-11-25T10:00:01.000Z', type: 'user', content: [{ text: 'go' }] },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n') + '\n',
  );
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function hook(
  agent: Agent,
  event: string,
  tool: string,
  input: Record<string, unknown>,
  env: Record<string, string> = {},
) {
  return runHook({
    agent,
    agents: testAgents,
    event,
    input: JSON.stringify({
      session_id: SESSION,
      transcript_path: chat,
      cwd: join(root, 'project'),
      hook_event_name: event,
      tool_name: tool,
      tool_input: input,
      ...(event === 'AfterTool' ? { tool_response: { llmContent: 'ok' } } : {}),
    }),
    env: { SHIM_HOME: home, HOME: root, ...env },
  });
}

describe("Gemini CLI's BeforeTool and AfterTool note a shell command until its result", () => {
  test('noted at BeforeTool with its secret redacted, taken out at AfterTool', async () => {
    const command = `GITHUB_TOKEN=${TOKEN} ./deploy.sh --slow`;
    assert.equal(
      await hook(geminiAgent, 'BeforeTool', 'run_shell_command', { command, description: 'd' }),
      '',
    );
    const noted = readCallsStarted(home, SESSION);
    assert.equal(noted.length, 1);
    assert.equal(noted[0]!.tool, 'run_shell_command');
    assert.match(String(noted[0]!.input.command), /\.\/deploy\.sh --slow$/);
    const file = join(home, 'cache', 'hooks', `${SESSION}.started.json`);
    assert.ok(!readFileSync(file, 'utf8').includes(TOKEN), 'the secret is not written');
    await hook(geminiAgent, 'AfterTool', 'run_shell_command', { command, description: 'd' });
    assert.deepEqual(readCallsStarted(home, SESSION), []);
    assert.ok(!existsSync(file), 'nothing left once every noted call ended');
  });

  test('another tool is not noted, nor an agent whose log holds each call as it starts', async () => {
    await hook(geminiAgent, 'BeforeTool', 'read_file', { file_path: '/p/a.ts' });
    await hook(claudeAgent, 'PreToolUse', 'Bash', { command: 'sleep 100' });
    assert.deepEqual(readCallsStarted(home, SESSION), []);
  });
});

describe('with a team store configured, every agent notes a shell command until its result', () => {
  // An address nothing listens on: the hooks never connect (docs/team.md).
  const team = { SHIM_TEAM_URL: 'postgres://shim@127.0.0.1:9/shim' };

  test('Claude Code: the key and the time only (its transcript holds the command), none of its text', async () => {
    const command = `GITHUB_TOKEN=${TOKEN} ./deploy.sh --slow`;
    await hook(claudeAgent, 'PreToolUse', 'Bash', { command }, team);
    const noted = readCallsStarted(home, SESSION);
    assert.equal(noted.length, 1);
    assert.equal(noted[0]!.tool, 'Bash');
    assert.deepEqual(noted[0]!.input, {});
    const file = join(home, 'cache', 'hooks', `${SESSION}.started.json`);
    assert.ok(!readFileSync(file, 'utf8').includes('deploy.sh'), 'no text of the command');
    await hook(claudeAgent, 'PostToolUse', 'Bash', { command }, team);
    assert.deepEqual(readCallsStarted(home, SESSION), []);
  });

  test('another tool is not noted, with or without a team store', async () => {
    await hook(claudeAgent, 'PreToolUse', 'Read', { file_path: '/p/a.ts' }, team);
    assert.deepEqual(readCallsStarted(home, SESSION), []);
  });
});
