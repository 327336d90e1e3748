import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fixturePath, makeTempDir } from '../../../test/helpers/fixtures.ts';
import { readSessionHead } from '../../agents/claude/sniff.ts';
import { createCheckpoint } from '../checkpoint/create-checkpoint.ts';
import { withStore } from '../open-store.ts';
import { listDashboardSessions, sessionEnding } from './session-list.ts';
import { isSessionId } from './locate-session.ts';
import { logOf, testAgents } from '../../../test/helpers/agents.ts';

const A = 'entire-9b04c3d92e38-auto-compact-167k-taskcreate-v2.1.39.jsonl';
const B = 'spotter-short-v2.1.38.jsonl';

describe('the dashboard session list', () => {
  let root: string;
  let env: Record<string, string>;
  let home: string;
  const ids: Record<string, string> = {};
  const cwds: Record<string, string> = {};

  before(async () => {
    root = makeTempDir('shim-ui-list-');
    home = join(root, 'shim');
    env = { CLAUDE_CONFIG_DIR: join(root, 'claude') };
    const dir = join(root, 'claude', 'projects', '-p');
    mkdirSync(dir, { recursive: true });
    for (const name of [A, B]) {
      const head = readSessionHead(fixturePath(name));
      ids[name] = head.sessionId!;
      cwds[name] = head.cwd!;
      copyFileSync(fixturePath(name), join(dir, `${head.sessionId}.jsonl`));
    }
    await createCheckpoint({
      log: logOf(join(dir, `${ids[A]}.jsonl`)),
      cwd: root,
      env,
      home,
      now: Date.parse('2026-11-20T10:00:00Z'),
      trigger: 'user_requested',
      snapshot: false,
    });
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test('every transcript, with what it says and what shim stored of it', async () => {
    const list = await listDashboardSessions({ agents: testAgents, home, env });
    assert.equal(list.total, 2);
    const a = list.sessions.find((s) => s.id === ids[A])!;
    assert.equal(a.checkpoints, 1);
    assert.equal(a.compactions, 1);
    assert.equal(a.peakContext, 167_361);
    assert.equal(a.model, 'claude-opus-4-6');
    assert.equal(a.cliVersion, '2.1.39');
    assert.equal(a.ended, 'open', 'shim saw it (its checkpoint), no end recorded');
    assert.equal(list.sessions.find((s) => s.id === ids[B])!.ended, 'unknown');
    assert.notEqual(a.ending, 'unknown');
    assert.match(a.title ?? '', /^Implement the following plan/);
    assert.deepEqual(list.projects, [cwds[A], cwds[B]].sort());
  });

  test("each row names its session's agent", async () => {
    await withStore(home, (store) =>
      store.sessions.touch(
        { sessionId: '019abc00-0000-7000-8000-00000000c0de', cwd: root, agent: 'codex' },
        '2026-11-20T11:00:00.000Z',
      ),
    );
    const list = await listDashboardSessions({ agents: testAgents, home, env });
    const agents = Object.fromEntries(list.sessions.map((s) => [s.id, s.agent]));
    assert.equal(agents['019abc00-0000-7000-8000-00000000c0de'], 'codex');
    assert.equal(agents[ids[A]!], 'claude');
    assert.equal(agents[ids[B]!], 'claude', 'a transcript the store never saw is Claude Code’s');
  });

  test('a project filter and the checkpoint search narrow it', async () => {
    const only = await listDashboardSessions({ agents: testAgents, home, env, project: cwds[B]! });
    assert.deepEqual(
      only.sessions.map((s) => s.id),
      [ids[B]],
    );
    const found = await listDashboardSessions({
      agents: testAgents,
      home,
      env,
      query: 'ComputeTranscriptPath',
    });
    assert.deepEqual(
      found.sessions.map((s) => s.id),
      [ids[A]],
    );
    assert.match(found.snippets[ids[A]!] ?? '', /\[ComputeTranscriptPath\]/i);
    const none = await listDashboardSessions({
      agents: testAgents,
      home,
      env,
      query: 'zebra-quantum-nothing',
    });
    assert.equal(none.total, 0);
  });

  test('ids are plain names, never paths', () => {
    assert.ok(isSessionId('4d5611e5-8f2a-4c1e-9b1a-0c2d3e4f5a6b'));
    for (const bad of ['../x', 'a/b', '..', 'a..b', '', '.hidden', 'x'.repeat(200)])
      assert.equal(isSessionId(bad), false, bad);
  });
});

describe('how a session ended, in words users know', () => {
  const now = Date.parse('2026-11-25T12:00:00Z');
  const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
  const base = { handedOff: false, endedByCompaction: false, agentGone: false, now };
  test('a recorded end is "ended" whatever its reason code, or "handed off"', () => {
    assert.equal(sessionEnding({ ...base, ended: 'clean', lastActivityAt: at(90) }), 'ended');
    assert.equal(
      sessionEnding({ ...base, ended: 'clean', lastActivityAt: at(90), handedOff: true }),
      'handed off',
    );
  });
  test('without one: still running while recent, compacted, else crashed', () => {
    assert.equal(sessionEnding({ ...base, ended: 'open', lastActivityAt: at(5) }), 'still running');
    assert.equal(
      sessionEnding({ ...base, ended: 'open', lastActivityAt: at(90), endedByCompaction: true }),
      'compacted',
    );
    assert.equal(sessionEnding({ ...base, ended: 'open', lastActivityAt: at(90) }), 'crashed');
  });
  test('its agent process gone (a kill -9): crashed at once, not still running', () => {
    assert.equal(
      sessionEnding({ ...base, ended: 'open', lastActivityAt: at(5), agentGone: true }),
      'crashed',
    );
  });
});
