import assert from 'node:assert/strict';
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeTempDir } from '../../../test/helpers/fixtures.ts';
import {
  assistantLine,
  toJsonl,
  userPromptLine,
} from '../../../test/helpers/transcript-builders.ts';
import { openDatabase } from '../../store/sqlite/database.ts';
import { SessionRepository } from '../../store/checkpoints/session-repository.ts';
import { findLiveCandidates, listLiveSessions, LIVE_WINDOW_MS } from './live-sessions.ts';
import { testAgents } from '../../../test/helpers/agents.ts';

const NOW = Date.parse('2026-11-25T12:00:00Z');

function transcript(sessionId: string, tokens: number, prompt: string): string {
  const extra = { sessionId, cwd: '/work/app' };
  return toJsonl([
    userPromptLine(prompt, { extra }),
    assistantLine({
      id: `msg_${sessionId}`,
      extra,
      usage: { input: 10, cacheCreation: 990, cacheRead: tokens - 1_000, output: 5 },
    }),
  ]);
}

describe('the running sessions of the live page', () => {
  let root: string;
  let home: string;
  let env: Record<string, string>;
  let dir: string;

  const write = (id: string, tokens: number, ageMs: number, prompt = `work of ${id}`) => {
    const path = join(dir, `${id}.jsonl`);
    writeFileSync(path, transcript(id, tokens, prompt));
    const at = (NOW - ageMs) / 1000;
    utimesSync(path, at, at);
    return path;
  };

  before(() => {
    root = makeTempDir('shim-live-');
    home = join(root, 'shim');
    env = { CLAUDE_CONFIG_DIR: join(root, 'claude') };
    dir = join(root, 'claude', 'projects', '-work-app');
    mkdirSync(dir, { recursive: true });
    write('calm', 40_000, 60_000);
    write('full', 160_000, 5_000);
    write('quiet-long-ago', 90_000, LIVE_WINDOW_MS + 60_000);
    const endedPath = write('ended', 50_000, 120_000);
    const db = openDatabase(home);
    try {
      const sessions = new SessionRepository(db);
      sessions.touch(
        { agent: 'claude', sessionId: 'ended', transcriptPath: endedPath, cwd: '/work/app' },
        new Date(NOW - 200_000).toISOString(),
      );
      sessions.end('ended', 'claude', 'logout', new Date(NOW - 60_000).toISOString());
    } finally {
      db.close();
    }
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test('recent transcripts without a recorded end are running; old and ended ones are not', async () => {
    const found = await findLiveCandidates({ home, env, now: NOW, agents: testAgents });
    assert.deepEqual(found.map((c) => c.id).sort(), ['calm', 'full']);
  });

  test('each is assessed as the hooks would, the fullest first', async () => {
    const live = await listLiveSessions({ home, env, now: NOW, agents: testAgents });
    assert.deepEqual(
      live.map((s) => [s.id, s.contextTokens, s.level]),
      [
        ['full', 160_000, 'L3'],
        ['calm', 40_000, 'L0'],
      ],
    );
    const full = live[0]!;
    assert.equal(full.goal, 'work of full');
    assert.ok(Math.abs(full.percent - (160_000 / full.compactThreshold) * 100) < 0.1);
    assert.deepEqual(full.levels, { L1: 70, L2: 85, L3: 95 });
    assert.equal(full.lastCheckpointAt, null);
  });

  test('a change to a transcript changes its signature (the stream sends it again)', async () => {
    const before = (await findLiveCandidates({ home, env, now: NOW, agents: testAgents })).find(
      (c) => c.id === 'calm',
    );
    write('calm', 41_000, 1_000);
    const after = (await findLiveCandidates({ home, env, now: NOW, agents: testAgents })).find(
      (c) => c.id === 'calm',
    );
    assert.notEqual(before?.signature, after?.signature);
  });
});
