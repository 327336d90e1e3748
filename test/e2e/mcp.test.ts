/**
 * shim's MCP server under the real Claude Code CLI (pinned 2.1.330), offline against the mock
 * Messages API: the model (the mock) calls `mcp__shim__shim_get_crash_risk`, Claude Code runs it
 * through `shim mcp`, and shim's answer — naming the calling session — reaches the next request.
 *
 * Two ways in: `shim install` (user scope: the server goes into the scratch ~/.claude.json) and
 * `--mcp-config` with the snippet the README gives for other MCP clients.
 *
 *   node scripts/build.mjs && node scripts/test.mjs test/e2e/mcp
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { BIN } from '../helpers/cli.ts';
import { claudeInstallProblem, createScratch, describeRun, E2E_SKIP, runClaude } from './claude.ts';
import { startMockApi, type ContentBlock, type MockApi, type RecordedRequest } from './mock-api.ts';

const TOOL = 'mcp__shim__shim_get_crash_risk';
const PROMPT = 'Before the big refactor: how close is this session to losing its context?';

const skip = E2E_SKIP || claudeInstallProblem() || false;

function toolNames(request: RecordedRequest): string[] {
  return (request.body?.tools ?? []).map((tool) => tool.name ?? '');
}

/** The tool_result blocks of the last user message of a request. */
function toolResults(request: RecordedRequest): ContentBlock[] {
  const last = request.body?.messages?.at(-1);
  if (!last || typeof last.content === 'string') return [];
  return last.content.filter((block) => block.type === 'tool_result');
}

function resultText(block: ContentBlock): string {
  const content = block.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { type?: string; text?: string }) => (part.type === 'text' ? part.text : ''))
    .join('\n');
}

/**
 * Claude Code 2.1.330 defers MCP tools: the first request names them in a "deferred tools" list
 * and offers ToolSearch; the model loads the schema with `select:<name>`, then calls the tool.
 */
async function startScenario(t: TestContext): Promise<MockApi> {
  const mock = await startMockApi({
    steps: [
      { content: [{ type: 'tool_use', name: 'ToolSearch', input: { query: `select:${TOOL}` } }] },
      { content: [{ type: 'tool_use', id: 'toolu_shim_risk_1', name: TOOL, input: {} }] },
    ],
    final: { content: [{ type: 'text', text: 'Context is fine; going ahead.' }] },
  });
  t.after(() => mock.close());
  return mock;
}

/** shim's answer as the model got it, checked: risk level and the calling session. */
function assertAnswerReachedModel(mock: MockApi, sessionId: string): Record<string, unknown> {
  const steps = mock.requests.filter((r) => r.kind === 'step' || r.kind === 'final');
  assert.equal(steps.length, 3, `three model requests, got ${steps.length}`);
  assert.ok(
    JSON.stringify(steps[0]!.body).includes(`\\n${TOOL}\\n`),
    `the first request lists ${TOOL} among the deferred tools`,
  );
  assert.ok(
    toolNames(steps[1]!).includes(TOOL),
    `after ToolSearch the CLI offers ${TOOL}; it offered ${toolNames(steps[1]!).join(', ')}`,
  );
  const [result, ...more] = toolResults(steps[2]!);
  assert.ok(result, 'the request after the tool call carries its tool_result');
  assert.equal(more.length, 0);
  assert.equal(result.tool_use_id, 'toolu_shim_risk_1');
  assert.notEqual(result.is_error, true, resultText(result));
  // Claude Code passes the tool's structured content on as JSON text.
  const answer = JSON.parse(resultText(result)) as {
    riskLevel?: string;
    recommendation?: string;
    session?: { sessionId?: string; transcriptPath?: string };
  };
  assert.ok(['safe', 'warning', 'danger'].includes(answer.riskLevel ?? ''), answer.riskLevel);
  assert.match(answer.recommendation ?? '', /\S/);
  assert.equal(answer.session?.sessionId, sessionId, 'names the calling session');
  return answer;
}

describe('shim mcp under the real Claude Code CLI', { skip }, () => {
  test('registered by `shim install`: the model calls shim_get_crash_risk and gets the answer', async (t) => {
    const scratch = createScratch('shim-e2e-mcp-');
    t.after(() => scratch.cleanup());
    const shimHome = join(scratch.home, '.shim');
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: scratch.home, SHIM_HOME: shimHome };
    delete env.CLAUDE_CONFIG_DIR;
    const claudeJson = join(scratch.home, '.claude.json');
    const original = '{\n  "numStartups": 1,\n  "mcpServers": {}\n}\n';
    writeFileSync(claudeJson, original);

    const install = spawnSync(
      process.execPath,
      [BIN, 'install', '--agent', 'claude', '--user', '--json'],
      {
        env,
        encoding: 'utf8',
      },
    );
    assert.equal(install.status, 0, install.stderr);
    const installed = JSON.parse(install.stdout) as { mcpConfigPath: string };
    assert.equal(installed.mcpConfigPath, claudeJson);
    const servers = (JSON.parse(readFileSync(claudeJson, 'utf8')) as { mcpServers: object })
      .mcpServers;
    assert.deepEqual(servers, {
      shim: { type: 'stdio', command: process.execPath, args: [BIN, 'mcp'] },
    });

    const mock = await startScenario(t);
    const run = await runClaude({ scratch, mock, prompt: PROMPT, env: { SHIM_HOME: shimHome } });
    assert.equal(run.exitCode, 0, describeRun(run));
    assertAnswerReachedModel(mock, run.sessionId);

    // Claude Code rewrote ~/.claude.json during the run; uninstall takes out shim's server only.
    const uninstall = spawnSync(
      process.execPath,
      [BIN, 'uninstall', '--agent', 'claude', '--user', '--json'],
      {
        env,
        encoding: 'utf8',
      },
    );
    assert.equal(uninstall.status, 0, uninstall.stderr);
    const after = JSON.parse(readFileSync(claudeJson, 'utf8')) as Record<string, unknown>;
    assert.deepEqual(after.mcpServers, {});
    assert.ok('numStartups' in after);
  });

  test('the README snippet for other MCP clients, through --mcp-config', async (t) => {
    const scratch = createScratch('shim-e2e-mcp-');
    t.after(() => scratch.cleanup());
    const shimHome = join(scratch.home, '.shim');
    const config = join(scratch.root, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { shim: { command: process.execPath, args: [BIN, 'mcp'] } } }),
    );
    const mock = await startScenario(t);
    const run = await runClaude({
      scratch,
      mock,
      prompt: PROMPT,
      args: ['--mcp-config', config, '--strict-mcp-config'],
      env: { SHIM_HOME: shimHome },
    });
    assert.equal(run.exitCode, 0, describeRun(run));
    const answer = assertAnswerReachedModel(mock, run.sessionId) as {
      session: { transcriptPath: string };
    };
    assert.equal(answer.session.transcriptPath, run.transcriptPath);
  });
});
