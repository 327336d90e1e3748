/**
 * `shim_mod_event`, the door shim's Claude Code mod reports through, over the SDK's in-memory
 * transport against a real SHIM_HOME, and what the per-call hook does while the mod watches.
 */
import assert from 'node:assert/strict';
import {
  appendFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { encodeProjectDir } from '../src/agents/claude/sessions.ts';
import { runShim } from './helpers/cli.ts';
import { makeTempDir } from './helpers/fixtures.ts';
import { connectInMemory } from './helpers/mcp-client.ts';
import {
  assistantLine,
  toJsonl,
  toolResultLine,
  toolUseBlock,
  userPromptLine,
} from './helpers/transcript-builders.ts';
import { testAgents } from './helpers/agents.ts';

const SESSION = 'sess-mod';

type World = {
  root: string;
  home: string;
  project: string;
  env: Record<string, string>;
  transcript: string;
};

function makeWorld(): World {
  const root = makeTempDir('shim-mod-event-');
  const project = join(root, 'project');
  mkdirSync(project);
  const env = { CLAUDE_CONFIG_DIR: join(root, 'claude'), SHIM_HOME: join(root, 'home') };
  const dir = join(env.CLAUDE_CONFIG_DIR, 'projects', encodeProjectDir(project));
  mkdirSync(dir, { recursive: true });
  const extra = { sessionId: SESSION, cwd: project, version: '2.1.330' };
  const transcript = join(dir, `${SESSION}.jsonl`);
  writeFileSync(
    transcript,
    toJsonl([
      userPromptLine('Port the importer to streams.', { extra }),
      assistantLine({
        id: 'msg_1',
        extra,
        usage: { input: 10, cacheRead: 40_000, output: 20 },
        content: [toolUseBlock('toolu_1', 'Read', { file_path: '/p/a.ts' })],
      }),
      toolResultLine({ toolUseId: 'toolu_1', content: 'ok', extra }),
    ]),
  );
  return { root, home: env.SHIM_HOME, project, env, transcript };
}

function connect(world: World): Promise<Client> {
  return connectInMemory({
    agents: testAgents,
    home: world.home,
    cwd: world.project,
    env: world.env,
    version: '0.0.0-test',
  });
}

const step = (world: World, context: number, index: number) => ({
  event: 'step',
  transcriptPath: world.transcript,
  turnId: 'turn-1',
  step: index,
  usage: {
    input_tokens: 10,
    cache_read_input_tokens: context - 10,
    output_tokens: 30,
    model: 'claude-opus-4-6',
  },
});

/** What the mod reads: the text block, as JSON. */
async function report(
  client: Client,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const result = (await client.callTool({
    name: 'shim_mod_event',
    arguments: args,
  })) as CallToolResult;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  if (result.isError) throw new Error(text);
  return JSON.parse(text) as Record<string, unknown>;
}

describe('shim_mod_event', () => {
  let world: World;
  let client: Client;
  before(async () => {
    world = makeWorld();
    client = await connect(world);
  });
  after(() => client.close());

  test('a step re-levels the session with the reported usage, before the transcript shows it', async () => {
    const calm = await report(client, step(world, 60_000, 0));
    assert.equal(calm.level, 'L0');
    assert.equal(calm.contextTokens, 60_000);
    assert.match(String(calm.status), /^shim \[CTX [█░]+ 36% L0\]/);
    const high = await report(client, step(world, 145_000, 1));
    assert.equal(high.level, 'L2');
    assert.match(String(high.notice), /L2/);
    assert.ok(String(high.checkpoint).length > 0, 'L2 starts a checkpoint');
    // The same level is announced once.
    const again = await report(client, step(world, 146_000, 2));
    assert.equal(again.notice, null);
    const watch = JSON.parse(
      readFileSync(join(world.home, 'cache', 'mod', `${SESSION}.json`), 'utf8'),
    ) as { level: string; guidance: { key: string; text: string } | null };
    assert.equal(watch.level, 'L2');
    assert.match(watch.guidance?.text ?? '', /./);
  });

  test("a level's checkpoint and notice claimed by a server that died first are taken over", async () => {
    const w = makeWorld();
    const c = await connect(w);
    try {
      // A server that claimed L2's checkpoint and notice, then died before starting or telling them.
      const dead = spawnSync(process.execPath, ['-e', '']).pid;
      const hooks = join(w.home, 'cache', 'hooks');
      mkdirSync(hooks, { recursive: true });
      for (const key of ['ckpt-0-1-danger_zone', 'alert-0-L2'])
        writeFileSync(join(hooks, `${SESSION}.${key}`), `${dead} `);
      const high = await report(c, step(w, 145_000, 0));
      assert.equal(high.level, 'L2');
      assert.ok(String(high.checkpoint).length > 0, "L2's checkpoint is started after all");
      assert.match(String(high.notice), /L2/);
      // Settled: the next report tells and starts nothing again.
      const again = await report(c, step(w, 146_000, 1));
      assert.equal(again.notice, null);
    } finally {
      await c.close();
    }
  });

  test('while the mod watches, PostToolUse hands the model its note once and does nothing else', () => {
    const input = JSON.stringify({
      session_id: SESSION,
      transcript_path: world.transcript,
      cwd: world.project,
      hook_event_name: 'PostToolUse',
      tool_name: 'Read',
      tool_input: { file_path: '/p/a.ts' },
      tool_response: {},
    });
    // The transcript gains a line: a hook that folded it would move its cursor.
    appendFileSync(
      world.transcript,
      `${JSON.stringify(userPromptLine('And the CSV parser.', { extra: { sessionId: SESSION, cwd: world.project } }))}\n`,
    );
    const cursorDir = join(world.home, 'cache', 'cursors');
    const cursors = () =>
      readdirSync(cursorDir)
        .map((f) => `${f}:${statSync(join(cursorDir, f)).mtimeMs}`)
        .join(',');
    const cursorsBefore = cursors();
    const first = runShim(world.home, ['hook', 'PostToolUse'], { input, env: world.env });
    assert.equal(first.status, 0, first.stderr);
    const out = JSON.parse(first.stdout) as { hookSpecificOutput?: { additionalContext?: string } };
    assert.match(out.hookSpecificOutput?.additionalContext ?? '', /./);
    const second = runShim(world.home, ['hook', 'PostToolUse'], { input, env: world.env });
    assert.equal(second.stdout.trim(), '', 'once');
    assert.equal(cursors(), cursorsBefore, 'the transcript was not read');
  });

  test('shim disabled in its config: the mod is told so and nothing is recorded', async () => {
    const other = makeWorld();
    mkdirSync(other.home, { recursive: true });
    writeFileSync(join(other.home, 'config.json'), '{ "enabled": false }\n');
    const quiet = await connect(other);
    try {
      const answer = await report(quiet, step(other, 150_000, 0));
      assert.match(String(answer.off), /disabled/);
      assert.equal(answer.status, undefined);
      assert.throws(() => readFileSync(join(other.home, 'cache', 'mod', `${SESSION}.json`)));
    } finally {
      await quiet.close();
    }
  });

  test('only a Claude Code transcript: any other file is refused', async () => {
    const elsewhere = join(world.root, 'notes.jsonl');
    writeFileSync(elsewhere, '{}\n');
    await assert.rejects(
      report(client, { ...step(world, 1000, 0), transcriptPath: elsewhere }),
      /UNSAFE_PATH/,
    );
    await assert.rejects(
      report(client, { ...step(world, 1000, 0), transcriptPath: '/etc/passwd' }),
      /UNSAFE_PATH/,
    );
  });

  test('a transcript not written yet: an answer that says so, not an error', async () => {
    const missing = world.transcript.replace(`${SESSION}.jsonl`, 'not-yet.jsonl');
    const answer = await report(client, { ...step(world, 1000, 0), transcriptPath: missing });
    assert.match(String(answer.pending), /not written yet/);
  });
});
