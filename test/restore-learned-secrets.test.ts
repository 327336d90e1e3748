/**
 * A value one session of the home learned is a secret, held bare by another session's rows
 * stored before (issue 38). Through the built binary as Claude Code runs it: session A mentions a
 * value bare (stored raw — nothing says what it is) and the user writes a handoff of it; session
 * B, unrelated to A, shows the value is a secret. Then what prints A's rows — `shim show`, the
 * MCP tools, the dashboard — and the restore the next session starts with (its first request)
 * hold none of it.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BIN, runShim } from './helpers/cli.ts';
import { startDashboard } from './helpers/dashboard.ts';
import { makeTempDir } from './helpers/fixtures.ts';
import { processesUnder, waitForProcessesUnder } from './helpers/processes.ts';
import { signalQuietly } from '../src/capture/process-tree.ts';
import { placesUnder, whereRaw } from './helpers/shim-home-texts.ts';
import {
  assistantLine,
  toJsonl,
  toolResultLine,
  toolUseBlock,
  userPromptLine,
} from './helpers/transcript-builders.ts';
import { B62, madeUp } from '../src/redact/made-up.test-helper.ts';

const { gen } = madeUp(0x7e57);

type Scenario = {
  dir: string;
  home: string;
  project: string;
  value: string;
  /** A's session, and its checkpoint (the one its handoff holds). */
  sessionA: string;
  checkpointId: string;
  hook: (event: string, extra?: Record<string, unknown>) => string;
};

/** A stores the value bare and hands off; B, unrelated, learns it is a secret. */
async function learnedElsewhere(): Promise<Scenario> {
  const dir = makeTempDir('shim-restore-learned-');
  const home = join(dir, 'shim');
  const project = join(dir, 'project');
  mkdirSync(project, { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: project });
  const value = gen(B62, 40);
  const at = (n: number) => ({ timestamp: new Date(Date.UTC(2026, 1, 1, 10, n)).toISOString() });
  const session = (entries: unknown[]) => {
    const id = randomUUID();
    const transcript = join(dir, `${id}.jsonl`);
    writeFileSync(transcript, '');
    appendFileSync(
      transcript,
      toJsonl(entries.map((e) => ({ ...(e as object), sessionId: id, cwd: project }))),
    );
    const hook = (event: string, extra: Record<string, unknown> = {}) => {
      const run = runShim(home, ['hook', event], {
        cwd: project,
        input: JSON.stringify({
          session_id: id,
          transcript_path: transcript,
          cwd: project,
          hook_event_name: event,
          ...extra,
        }),
      });
      assert.equal(run.status, 0, run.stderr);
      return run.stdout;
    };
    return { id, hook };
  };
  // A: the value bare in a request; checkpointed as it stands, then handed off.
  const a = session([userPromptLine(`please deploy the release with ${value} today`, at(0))]);
  a.hook('SessionStart', { source: 'startup' });
  a.hook('UserPromptSubmit', { prompt: `please deploy the release with ${value} today` });
  a.hook('PreCompact', { trigger: 'auto' });
  a.hook('SessionEnd', { reason: 'other' });
  await waitForProcessesUnder(dir);
  const handoff = runShim(home, ['handoff', '--session', a.id], { cwd: project });
  assert.equal(handoff.status, 0, handoff.stderr);
  assert.ok(
    whereRaw(placesUnder(home), [value]).get(value)!.includes('shim.db: checkpoints'),
    'stored raw at first',
  );
  const listed = runShim(home, ['list', '--all', '--json'], { cwd: project });
  const rows = JSON.parse(listed.stdout) as Array<{ id: string; sessionId: string }>;
  const checkpointId = rows.find((r) => r.sessionId === a.id)!.id;

  // B: another session of the home shows what the value is.
  const b = session([
    userPromptLine('set up the deploy environment', at(1)),
    assistantLine({
      id: 'msg_b1',
      ...at(2),
      content: [toolUseBlock('toolu_b1', 'Bash', { command: `export DEPLOY_TOKEN=${value}` })],
    }),
    toolResultLine({ toolUseId: 'toolu_b1', content: '', ...at(3) }),
  ]);
  b.hook('PostToolUse', {
    tool_name: 'Bash',
    tool_input: { command: `export DEPLOY_TOKEN=${value}` },
    tool_response: { stdout: '', stderr: '', interrupted: false },
  });
  b.hook('PreCompact', { trigger: 'auto' });
  b.hook('SessionEnd', { reason: 'other' });
  await waitForProcessesUnder(dir);
  return { dir, home, project, value, sessionA: a.id, checkpointId, hook: session([]).hook };
}

describe('a value another session learned is a secret is printed nowhere', () => {
  let s: Scenario;
  before(async () => {
    s = await learnedElsewhere();
  });
  after(async () => {
    for (const pid of processesUnder(s.dir, true)) signalQuietly(pid, 'SIGTERM');
    while (processesUnder(s.dir, true).length > 0) await new Promise((r) => setTimeout(r, 50));
  });

  test('shim show: the restore, the handoff document and the JSON of the row', () => {
    for (const args of [[], ['--handoff'], ['--json']]) {
      const shown = runShim(s.home, ['show', '--all', s.checkpointId, ...args], { cwd: s.project });
      assert.equal(shown.status, 0, shown.stderr);
      assert.match(shown.stdout, /deploy the release with \[REDACTED:[\w-]+\]/, args.join(' '));
      assert.ok(!shown.stdout.includes(s.value), `shim show ${args.join(' ')} printed the value`);
    }
  });

  test('shim list, shim search and shim export', () => {
    for (const args of [
      ['list', '--all', '--json'],
      ['search', 'release', '--all', '--json'],
      ['export', s.sessionA, '--out', join(s.dir, 'a.json')],
    ]) {
      const run = runShim(s.home, args, { cwd: s.project });
      assert.equal(run.status, 0, run.stderr);
      assert.ok(!run.stdout.includes(s.value), `shim ${args.join(' ')} printed the value`);
    }
    assert.ok(!readFileSync(join(s.dir, 'a.json'), 'utf8').includes(s.value), 'exported');
  });

  test("the MCP tools' answers (shim mcp over stdio)", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp'],
      cwd: s.project,
      env: {
        PATH: process.env.PATH ?? '',
        SHIM_HOME: s.home,
        CLAUDE_CONFIG_DIR: join(s.dir, 'no'),
      },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'shim-learned-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      for (const [name, args] of [
        ['shim_get_checkpoint', { id: s.checkpointId, format: 'json' }],
        ['shim_get_checkpoint', { id: s.checkpointId }],
        ['shim_list_checkpoints', { scope: 'all' }],
      ] as const) {
        const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
        const text = JSON.stringify(result);
        assert.ok(!result.isError, text);
        assert.ok(!text.includes(s.value), `${name} ${JSON.stringify(args)} answered the value`);
      }
    } finally {
      await client.close();
    }
  });

  test("the dashboard's answer for the checkpoint", async () => {
    const ui = await startDashboard({ ...process.env, SHIM_HOME: s.home } as Record<
      string,
      string
    >);
    try {
      const answer = await fetch(
        `http://127.0.0.1:${ui.port}/api/checkpoints/${s.checkpointId}?token=${ui.token}`,
      );
      const text = await answer.text();
      assert.equal(answer.status, 200, text);
      assert.match(text, /deploy the release with \[REDACTED:[\w-]+\]/);
      assert.ok(!text.includes(s.value), 'the dashboard answered the value');
    } finally {
      await ui.stop();
    }
  });

  test("A's stored rows: its checkpoint, search entry and handoff document are rewritten", () => {
    assert.deepEqual(whereRaw(placesUnder(s.home), [s.value]).get(s.value), []);
  });

  // Last: the handoff is picked up once.
  test("the next session's restore of A's handoff", async () => {
    const printed = s.hook('SessionStart', { source: 'startup' });
    await waitForProcessesUnder(s.dir);
    assert.match(printed, /please deploy the release with \[REDACTED:[\w-]+\] today/);
    assert.ok(!printed.includes(s.value), 'the restore printed the value another session learned');
  });
});
