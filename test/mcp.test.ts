/**
 * The MCP server through the SDK's in-memory transport and Client: every tool, against a real
 * SHIM_HOME and real transcripts placed where Claude Code keeps them for a temp project.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createCheckpoint } from '../src/app/checkpoint/create-checkpoint.ts';
import { encodeProjectDir } from '../src/agents/claude/sessions.ts';
import { fixturePath, makeTempDir } from './helpers/fixtures.ts';
import { connectInMemory } from './helpers/mcp-client.ts';
import { writeCountTiming } from './helpers/count-timing.ts';
import { testAgents } from './helpers/agents.ts';
import { logOf } from './helpers/agents.ts';

/** The earlier, interrupted session: a task list, two auto compactions' worth of work. */
const PREVIOUS = 'entire-9b04c3d92e38-auto-compact-167k-taskcreate-v2.1.39.jsonl';
const PREVIOUS_ID = '4f8c1176-7025-4530-a860-c6fc4c63a150';
/** The session calling the tools: a short one. */
const CALLER = 'spotter-short-v2.1.38.jsonl';
const CALLER_ID = '55604662-cf2a-4331-851a-ec234028f8ca';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');

type World = { root: string; home: string; project: string; env: Record<string, string> };

/** Copies a fixture into `<config>/projects/<project>/`, as if it had run in `project`. */
function placeSession(world: World, fixture: string, sessionId: string, mtimeMs: number): string {
  const text = readFileSync(fixturePath(fixture), 'utf8').replace(
    /"cwd":"(?:[^"\\]|\\.)*"/g,
    `"cwd":${JSON.stringify(world.project)}`,
  );
  const dir = join(world.env.CLAUDE_CONFIG_DIR!, 'projects', encodeProjectDir(world.project));
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${sessionId}.jsonl`);
  writeFileSync(path, text);
  utimesSync(path, mtimeMs / 1000, mtimeMs / 1000);
  return path;
}

function makeWorld(): World {
  const root = makeTempDir('shim-mcp-');
  const project = join(root, 'project');
  mkdirSync(project);
  return {
    root,
    home: join(root, 'home'),
    project,
    env: { CLAUDE_CONFIG_DIR: join(root, 'claude'), SHIM_HOME: join(root, 'home') },
  };
}

function connect(world: World): Promise<Client> {
  return connectInMemory({
    agents: testAgents,
    home: world.home,
    cwd: world.project,
    env: world.env,
    now: () => NOW,
    version: '0.0.0-test',
  });
}

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult & { structuredContent?: Record<string, unknown> }> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult & {
    structuredContent?: Record<string, unknown>;
  };
}

const textOf = (result: CallToolResult) =>
  result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe('MCP server (in-memory transport)', () => {
  let world: World;
  let client: Client;
  let previousCheckpointId: string;

  before(async () => {
    world = makeWorld();
    const previousPath = placeSession(world, PREVIOUS, PREVIOUS_ID, NOW - 3 * 3_600_000);
    placeSession(world, CALLER, CALLER_ID, NOW - 60_000);
    // The earlier session's last checkpoint, made the way the hooks make them.
    const made = await createCheckpoint({
      log: logOf(previousPath),
      cwd: world.project,
      env: world.env,
      home: world.home,
      now: NOW - 2 * 3_600_000,
      trigger: 'danger_zone',
      reason: 'context reached L3',
    });
    previousCheckpointId = made.checkpoint.id;
    client = await connect(world);
  });

  after(async () => {
    await client.close();
    rmSync(world.root, { recursive: true, force: true });
  });

  test('lists ten tools, each with a description and all four annotations', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      'shim_check_resume',
      'shim_checkpoint',
      'shim_forget',
      'shim_get_checkpoint',
      'shim_get_crash_risk',
      'shim_list_checkpoints',
      'shim_mod_event',
      'shim_recent_context',
      'shim_search',
      'shim_timeline',
    ]);
    for (const tool of tools) {
      assert.ok((tool.description ?? '').length > 80, tool.name);
      const a = tool.annotations ?? {};
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']) {
        assert.equal(typeof a[hint as keyof typeof a], 'boolean', `${tool.name} ${hint}`);
      }
      // Only forgetting removes anything.
      assert.equal(a.destructiveHint, tool.name === 'shim_forget', tool.name);
      assert.equal(a.openWorldHint, false, tool.name);
    }
    const readOnly = tools.filter((t) => t.annotations?.readOnlyHint).map((t) => t.name);
    assert.deepEqual(readOnly.sort(), [
      'shim_get_checkpoint',
      'shim_get_crash_risk',
      'shim_list_checkpoints',
      'shim_recent_context',
      'shim_search',
      'shim_timeline',
    ]);
  });

  test('shim_get_crash_risk answers in the seed shape and names the calling session', async () => {
    const result = await call(client, 'shim_get_crash_risk');
    assert.ok(!result.isError, textOf(result));
    const s = result.structuredContent!;
    assert.ok(['safe', 'warning', 'danger'].includes(s.riskLevel as string));
    assert.equal(typeof s.recommendation, 'string');
    assert.equal(s.signals, undefined);
    const session = s.session as { sessionId: string; basis: string };
    assert.equal(session.sessionId, CALLER_ID);
    assert.match(session.basis, /most recently written Claude Code session log of .*project/);
    assert.match(textOf(result), new RegExp(`riskLevel: ${s.riskLevel as string}`));
    assert.match(textOf(result), /No checkpoint of this session yet/);

    const withSignals = await call(client, 'shim_get_crash_risk', { includeSignals: true });
    const signals = withSignals.structuredContent!.signals as Record<string, unknown>;
    assert.equal(typeof signals.contextWindowUsage, 'number');
    assert.equal(typeof signals.toolCallsSinceCheckpoint, 'number');
    assert.equal(signals.crashRisk, s.riskLevel);
  });

  test('shim_checkpoint saves the caller, with reason and metadata, in the seed shape', async () => {
    const result = await call(client, 'shim_checkpoint', {
      reason: 'before the schema migration',
      metadata: { ticket: 'SHIM-42' },
    });
    assert.ok(!result.isError, textOf(result));
    const s = result.structuredContent as {
      checkpointId: string;
      success: boolean;
      size: { uncompressed: number; compressed: number; compressionRatio: number };
      timing: { duration: number };
      session: { sessionId: string };
    };
    assert.equal(s.success, true);
    assert.match(s.checkpointId, /^[0-9a-f-]{36}$/);
    assert.ok(s.size.compressed > 0 && s.size.compressed < s.size.uncompressed);
    assert.ok(s.size.compressionRatio > 1);
    assert.ok(s.timing.duration >= 0);
    assert.equal(s.session.sessionId, CALLER_ID);

    const shown = await call(client, 'shim_get_checkpoint', { id: s.checkpointId, format: 'json' });
    const stored = JSON.parse(textOf(shown)) as {
      sessionId: string;
      triggeredBy: string;
      source: { reason: string };
    };
    assert.equal(stored.sessionId, CALLER_ID);
    assert.equal(stored.triggeredBy, 'user_requested');
    assert.equal(
      stored.source.reason,
      'before the schema migration · metadata: {"ticket":"SHIM-42"}',
    );

    // The hooks' policy now counts from this checkpoint: by default ("changes") at most 3 calls
    // once a file changed, sooner at a work change; by count every 5 calls.
    const risk = await call(client, 'shim_get_crash_risk');
    const next = risk.structuredContent!.nextCheckpointIn as { toolCalls: number; minutes: number };
    assert.deepEqual(next, { toolCalls: 3, minutes: 10, onlyAfterFileChange: true });
    assert.match(textOf(risk), /once a file has changed since the last one, when the work changes/);
    writeCountTiming(world.home);
    try {
      const byCount = await call(client, 'shim_get_crash_risk');
      assert.deepEqual(byCount.structuredContent!.nextCheckpointIn, {
        toolCalls: 5,
        minutes: 10,
        onlyAfterFileChange: false,
      });
      assert.match(
        textOf(byCount),
        /Next automatic checkpoint \(with shim's hooks installed\): within 5 tool calls or 10 minutes\./,
      );
    } finally {
      rmSync(join(world.home, 'config.json'), { force: true });
    }
  });

  test('shim_check_resume finds the interrupted earlier session; autoResume applies it once', async () => {
    const verdict = await call(client, 'shim_check_resume');
    assert.ok(!verdict.isError, textOf(verdict));
    const v = verdict.structuredContent as {
      shouldResume: boolean;
      detection: { lastCheckpoint: { id: string; sessionId: string }; interruptionReason: string };
      prompt?: unknown;
      applied?: boolean;
    };
    assert.equal(v.shouldResume, true);
    assert.equal(v.detection.lastCheckpoint.id, previousCheckpointId);
    assert.equal(v.detection.lastCheckpoint.sessionId, PREVIOUS_ID);
    assert.equal(v.prompt, undefined, 'the prompt only comes with autoResume');
    assert.match(textOf(verdict), /autoResume: true/);

    const applied = await call(client, 'shim_check_resume', { autoResume: true });
    const a = applied.structuredContent as {
      shouldResume: boolean;
      applied: boolean;
      prompt: {
        checkpointId: string;
        sections: { situation: string; next: string[] };
        markdown: string;
      };
    };
    assert.equal(a.applied, true);
    assert.equal(a.prompt.checkpointId, previousCheckpointId);
    assert.match(a.prompt.sections.situation, /^Session interrupted: /);
    assert.ok(Array.isArray(a.prompt.sections.next));
    assert.match(a.prompt.markdown, /^# .*\(shim checkpoint #\d+\)/m);
    assert.ok(textOf(applied).includes(a.prompt.markdown));
    // A Claude Code checkpoint's restore names Claude Code's task tools (adapter capabilities).
    if (/recreate it from the list below/.test(a.prompt.markdown))
      assert.match(a.prompt.markdown, /\(TodoWrite or TaskCreate\)/);

    const again = await call(client, 'shim_check_resume', { autoResume: true });
    const g = again.structuredContent as { shouldResume: boolean; applied?: boolean };
    assert.equal(g.shouldResume, false, 'a restored checkpoint is not offered twice');
    assert.equal(g.applied, false);
  });

  test('shim_list_checkpoints lists this project, newest first, one line each', async () => {
    const result = await call(client, 'shim_list_checkpoints');
    const s = result.structuredContent as {
      checkpoints: Array<{ id: string; sessionId: string; restored: boolean }>;
    };
    assert.equal(s.checkpoints.length, 2);
    assert.equal(s.checkpoints[0]!.sessionId, CALLER_ID);
    assert.equal(s.checkpoints[1]!.id, previousCheckpointId);
    assert.equal(s.checkpoints[1]!.restored, true);
    assert.equal(textOf(result).split('\n').length, 3);
    const other = await call(client, 'shim_list_checkpoints', { sessionId: 'no-such-session' });
    assert.match(textOf(other), /No checkpoints in .* for session no-such-session/);
  });

  test('shim_get_checkpoint reads a hit by id prefix as a handoff document', async () => {
    const result = await call(client, 'shim_get_checkpoint', {
      id: previousCheckpointId.slice(0, 8),
    });
    assert.ok(!result.isError, textOf(result));
    const text = textOf(result);
    assert.match(text, /not restored into this session/);
    assert.match(text, /# Session handoff: /);
    assert.match(text, new RegExp(`checkpoint_id: "?${previousCheckpointId}`));
    assert.ok(text.length < 14_000, `${text.length} characters`);
  });

  test('shim_timeline tells what led to a checkpoint; an unknown id is a clear error', async () => {
    const result = await call(client, 'shim_timeline', { id: previousCheckpointId.slice(0, 8) });
    assert.ok(!result.isError, textOf(result));
    assert.match(textOf(result), /^## What led here/);
    const s = result.structuredContent as { steps: Array<{ id: string; changes: string[] }> };
    assert.equal(s.steps[0]?.id, previousCheckpointId);
    assert.ok(s.steps[0]!.changes.length > 0, 'what it holds is said');
    const missing = await call(client, 'shim_timeline', { id: 'ffffffff' });
    assert.ok(missing.isError);
  });

  test('shim_recent_context gives the recent sessions of the project in one call', async () => {
    const result = await call(client, 'shim_recent_context', {});
    assert.ok(!result.isError, textOf(result));
    const s = result.structuredContent as {
      sessions: Array<{ checkpointId: string; holds: string[] }>;
    };
    assert.ok(s.sessions.some((x) => x.checkpointId === previousCheckpointId));
    assert.match(textOf(result), /## Session [0-9a-f]{8} — checkpoint /);
  });

  test('shim_search finds past sessions by what they did, as a compact index', async () => {
    const result = await call(client, 'shim_search', { query: 'ComputeTranscriptPath restore' });
    assert.ok(!result.isError, textOf(result));
    const s = result.structuredContent as {
      matched: string;
      sessions: number;
      hits: Array<{ checkpointId: string; sessionId: string; snippet: string }>;
    };
    assert.equal(s.matched, 'all');
    assert.equal(s.sessions, 1);
    assert.equal(s.hits[0]!.checkpointId, previousCheckpointId);
    assert.match(s.hits[0]!.snippet, /\[ComputeTranscriptPath\]/);

    const caller = await call(client, 'shim_search', { query: 'phx.server', fields: ['requests'] });
    const c = caller.structuredContent as { hits: Array<{ sessionId: string }> };
    assert.deepEqual(
      c.hits.map((h) => h.sessionId),
      [CALLER_ID],
    );
    assert.match(textOf(result), /shim_get_checkpoint/);
    assert.ok(textOf(result).length < 2_000, 'an index costs few tokens');
  });

  test('failures come back as tool errors that say what to do next', async () => {
    const missing = await call(client, 'shim_get_checkpoint', { id: 'ffffffff' });
    assert.equal(missing.isError, true);
    assert.match(textOf(missing), /CHECKPOINT_NOT_FOUND.*no checkpoint ffffffff/);
    assert.match(textOf(missing), /What to do next: /);

    const empty = await call(client, 'shim_search', { query: '"" ***' });
    assert.equal(empty.isError, true);
    assert.match(textOf(empty), /What to do next: give one or more words/);

    const invalid = await call(client, 'shim_get_crash_risk', { includeSignals: 'yes' });
    assert.equal(invalid.isError, true);
  });
});

describe('MCP server in a directory without Claude Code sessions', () => {
  test('session tools say how to fix it; resume and search still answer', async () => {
    const world = makeWorld();
    const client = await connect(world);
    try {
      const risk = await call(client, 'shim_get_crash_risk');
      assert.equal(risk.isError, true);
      assert.match(textOf(risk), /\(SESSION_NOT_FOUND\): no session of any agent in /);
      assert.match(textOf(risk), /What to do next: start the MCP server in the directory/);

      const checkpoint = await call(client, 'shim_checkpoint', {});
      assert.equal(checkpoint.isError, true);

      const resume = await call(client, 'shim_check_resume');
      assert.ok(!resume.isError, textOf(resume));
      assert.equal(resume.structuredContent!.shouldResume, false);
      assert.match(textOf(resume), /nothing to resume/);

      const search = await call(client, 'shim_search', { query: 'anything' });
      assert.ok(!search.isError, textOf(search));
      assert.match(textOf(search), /No checkpoint in .* matches "anything"\. Try scope: 'all'/);
    } finally {
      await client.close();
      rmSync(world.root, { recursive: true, force: true });
    }
  });
});

describe('MCP shim_forget (it cannot be undone)', () => {
  test('removes nothing until the user turns it on in their own config', async () => {
    const world = makeWorld();
    const path = placeSession(world, PREVIOUS, PREVIOUS_ID, NOW - 3 * 3_600_000);
    const made = await createCheckpoint({
      log: logOf(path),
      cwd: world.project,
      env: world.env,
      home: world.home,
      now: NOW - 2 * 3_600_000,
      trigger: 'danger_zone',
    });
    const id = made.checkpoint.id.slice(0, 8);
    const client = await connect(world);
    const stillThere = async () => !(await call(client, 'shim_get_checkpoint', { id })).isError;
    try {
      const refused = await call(client, 'shim_forget', { id });
      assert.equal(refused.isError, true, textOf(refused));
      assert.match(textOf(refused), /\(TOOL_OFF\): shim_forget is off/);
      assert.match(textOf(refused), /`shim forget [0-9a-f]{8}` themselves/);
      assert.match(textOf(refused), /"mcp": \{"forget": true\} in .*config\.json/);
      assert.ok(await stillThere(), 'nothing removed');

      const dry = await call(client, 'shim_forget', { id, dryRun: true });
      assert.ok(!dry.isError, textOf(dry));
      assert.match(textOf(dry), /^Would remove checkpoint /);
      assert.ok(await stillThere());

      // A project's own file (a cloned repository brings it) does not turn it on.
      writeFileSync(join(world.project, '.shim.json'), '{"mcp": {"forget": true}}\n');
      assert.equal((await call(client, 'shim_forget', { id })).isError, true);
      assert.ok(await stillThere());

      mkdirSync(world.home, { recursive: true });
      writeFileSync(join(world.home, 'config.json'), '{"mcp": {"forget": true}}\n');
      const removed = await call(client, 'shim_forget', { id });
      assert.ok(!removed.isError, textOf(removed));
      assert.match(textOf(removed), /^Removed checkpoint /);
      assert.equal(await stillThere(), false);
    } finally {
      await client.close();
      rmSync(world.root, { recursive: true, force: true });
    }
  });
});
