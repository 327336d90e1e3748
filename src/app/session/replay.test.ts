import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { getAccuracy, summarizeForecast } from '../../core/context/evaluate.ts';
import { fixturePath, listFixtures, makeTempDir } from '../../../test/helpers/fixtures.ts';
import { evaluateReplays } from '../evaluation/evaluate-replays.ts';
import { replayTranscript, type ReplayEvent } from './replay.ts';
import { claudeAgent, logOf } from '../../../test/helpers/agents.ts';

const replayAll = () => evaluateReplays(listFixtures().map((f) => logOf(fixturePath(f))));

describe('prediction quality on the real fixtures', () => {
  test('danger is raised within 10 responses of auto-compaction with over 90% accuracy', async () => {
    const { risk } = await replayAll();
    const rates = getAccuracy(risk);
    assert.ok(risk.scored > 600, `${risk.scored} responses scored`);
    assert.ok(rates.accuracy > 0.9, `accuracy ${rates.accuracy}`);
    assert.ok(rates.recall >= 0.85, `recall ${rates.recall}`);
    assert.ok(rates.precision >= 0.7, `precision ${rates.precision}`);
  });

  test('the turns-to-compact forecast is off by under 3 responses on average', async () => {
    const { forecast } = await replayAll();
    const summary = summarizeForecast(forecast);
    assert.equal(summary.samples, 59);
    assert.ok(summary.meanAbsoluteError! < 3, `MAE ${summary.meanAbsoluteError}`);
  });

  test('turn events carry only what was known at their own line', async () => {
    const events: ReplayEvent[] = [];
    const path = fixturePath('entire-9b04c3d92e38-auto-compact-167k-taskcreate-v2.1.39.jsonl');
    await replayTranscript(path, claudeAgent, {
      env: {},
      home: null,
      history: [],
      onEvent: (e) => events.push(e),
    });
    const compactAt = events.findIndex((e) => e.kind === 'compact');
    const before = events.slice(0, compactAt).filter((e) => e.kind === 'turn');
    // The compaction's own preTokens must not leak into the threshold of the turns before it.
    for (const t of before) assert.equal(t.compactThreshold, 167000);
  });
});

describe('replay of 2.1.330 transcripts', () => {
  const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 10, minute)).toISOString();
  const envelope = (minute: number) => ({
    sessionId: 'idle-session',
    version: '2.1.330',
    cwd: '/p',
    timestamp: at(minute),
  });
  const response = (n: number, minute: number, cacheRead: number, cleared = 0) => ({
    ...envelope(minute),
    type: 'assistant',
    requestId: `r${n}`,
    message: {
      id: `m${n}`,
      model: 'claude-opus-4-6',
      content: [{ type: 'text', text: 'done' }],
      usage: { input_tokens: 10, cache_read_input_tokens: cacheRead, output_tokens: 5 },
      ...(cleared
        ? {
            context_management: {
              applied_edits: [{ type: 'clear_tool_uses_20250919', cleared_input_tokens: cleared }],
            },
          }
        : {}),
    },
  });

  async function replayLines(lines: unknown[]): Promise<ReplayEvent[]> {
    const dir = makeTempDir('shim-replay-');
    const path = join(dir, 'idle-session.jsonl');
    writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const events: ReplayEvent[] = [];
    await replayTranscript(path, claudeAgent, {
      env: {},
      home: null,
      history: [],
      onEvent: (e) => events.push(e),
    });
    return events;
  }

  test('a response after server-side clearing counts the cleared tokens, as Claude Code does', async () => {
    const events = await replayLines([
      { ...envelope(0), type: 'user', message: { role: 'user', content: 'go' } },
      response(1, 1, 90_000, 40_000),
    ]);
    const turn = events.find((e) => e.kind === 'turn');
    assert.equal(turn?.kind === 'turn' && turn.contextTokens, 130_010);
  });

  test('a compaction after the turn ended and half an hour of quiet is an idle one', async () => {
    const events = await replayLines([
      { ...envelope(0), type: 'user', message: { role: 'user', content: 'go' } },
      response(1, 1, 120_000),
      {
        ...envelope(35),
        type: 'system',
        subtype: 'compact_boundary',
        content: 'Conversation compacted',
        compactMetadata: { trigger: 'auto', preTokens: 120_015, postTokens: 9_000 },
      },
    ]);
    const compact = events.find((e) => e.kind === 'compact');
    assert.equal(compact?.kind === 'compact' && compact.compactionKind, 'idle');
  });
});
