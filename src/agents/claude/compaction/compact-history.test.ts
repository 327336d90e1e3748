import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { readTranscript } from '../transcript-reader.ts';
import {
  AUTO_COMPACT_FIXTURES,
  fixturePath,
  makeTempDir,
} from '../../../../test/helpers/fixtures.ts';
import { loadCompactHistory } from './compact-history.ts';

function claudeDirWith(files: Record<string, string>): string {
  const root = makeTempDir('shim-history-');
  const project = join(root, 'claude', 'projects', '-work-demo');
  mkdirSync(project, { recursive: true });
  for (const [name, source] of Object.entries(files)) copyFileSync(source, join(project, name));
  return root;
}

describe('loadCompactHistory', () => {
  test('each auto compaction of the real fixtures comes with the last response before it', () => {
    const files = Object.fromEntries(
      AUTO_COMPACT_FIXTURES.map((name, i) => [`s${i}.jsonl`, fixturePath(name)]),
    );
    const root = claudeDirWith(files);
    const home = join(root, 'home');
    const samples = loadCompactHistory(home, {
      env: { CLAUDE_CONFIG_DIR: join(root, 'claude') },
      maxAgeMs: 0,
    });
    const expected = AUTO_COMPACT_FIXTURES.flatMap((name) =>
      readTranscript(fixturePath(name), null, { finalize: true }).cursor.state.compactions.filter(
        (c) => c.trigger === 'auto',
      ),
    );
    assert.equal(samples.length, expected.length);
    const key = (s: { preTokens: number | null; lastContextTokens?: number | null }) =>
      `${s.preTokens}/${s.lastContextTokens}`;
    assert.deepEqual(samples.map(key).sort(), expected.map(key).sort());
    for (const sample of samples) {
      assert.equal(sample.kind, 'threshold');
      assert.match(sample.model ?? '', /^claude-/);
      assert.ok(sample.lastContextTokens! <= sample.preTokens, key(sample));
    }
  });

  test('a compaction after an ended turn and a long quiet spell is an idle one', () => {
    const at = (minutes: number) => new Date(Date.UTC(2026, 10, 20, 10, minutes)).toISOString();
    const lines = [
      { type: 'user', sessionId: 's', timestamp: at(0), message: { role: 'user', content: 'go' } },
      {
        type: 'assistant',
        sessionId: 's',
        version: '2.1.330',
        timestamp: at(1),
        requestId: 'r1',
        message: {
          id: 'm1',
          model: 'claude-opus-4-6',
          content: [{ type: 'text', text: 'done' }],
          usage: { input_tokens: 5, cache_read_input_tokens: 120_000, output_tokens: 10 },
        },
      },
      {
        type: 'system',
        subtype: 'compact_boundary',
        sessionId: 's',
        version: '2.1.330',
        timestamp: at(40),
        content: 'Conversation compacted',
        compactMetadata: { trigger: 'auto', preTokens: 120_050, postTokens: 9_000 },
      },
    ];
    const root = makeTempDir('shim-history-');
    const project = join(root, 'claude', 'projects', '-work-demo');
    mkdirSync(project, { recursive: true });
    writeFileSync(
      join(project, 'idle.jsonl'),
      lines.map((l) => JSON.stringify(l)).join('\n') + '\n',
    );
    const [sample] = loadCompactHistory(join(root, 'home'), {
      env: { CLAUDE_CONFIG_DIR: join(root, 'claude') },
      maxAgeMs: 0,
    });
    assert.equal(sample?.kind, 'idle');
    assert.equal(sample?.lastContextTokens, 120_005);
  });
});
