import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { testAgents, AGENT } from '../../../test/helpers/agents.ts';
import {
  AGENT_FIXTURES_DIR,
  FIXTURES_MISSING,
  agentFixturePath,
  fixturePath,
  listAgentFixtures,
  listFixtures,
  makeTempDir,
  sharedFixturesMissing,
} from '../../../test/helpers/fixtures.ts';
import { detectLogAgent, readHead } from './session-log.ts';

/** The head as first read: the whole 256 KB decoded as one string, split, then parsed. */
function wholeHead(text: string) {
  const lines = Buffer.from(text)
    .subarray(0, 256 * 1024)
    .toString('utf8')
    .split('\n');
  const records: unknown[] = [];
  for (const line of lines) {
    if (records.length >= 50) break;
    if (!line.startsWith('{')) continue;
    try {
      records.push(JSON.parse(line));
    } catch {
      // not JSON
    }
  }
  return { lines: lines.filter((l) => l.trim() !== '').length, records };
}

test('readHead: the records and lines of decoding the whole head, a line at a time', () => {
  const dir = makeTempDir('shim-head-');
  const record = (i: number) =>
    JSON.stringify({ type: 'user', n: i, text: `naïve café ✓ ${'█'.repeat(i % 7)} 🚀` });
  const shapes: Record<string, string> = {
    'records, blank and torn lines, CRLF': [
      '',
      record(1),
      '   ',
      'not json',
      `${record(2)}\r`,
      '\t',
      ' {"indented":true}',
      '{"torn":',
      record(3),
    ].join('\n'),
    'more than fifty records': Array.from({ length: 80 }, (_, i) => record(i)).join('\n'),
    'a head cut inside a character': `${record(0)}\n${'{"x":"'.padEnd(256 * 1024 - 1, 'é')}`,
    'a byte-order mark first': `\uFEFF${record(1)}\n${record(2)}\n`,
    'nothing but blank lines': '\n\n  \n',
    empty: '',
  };
  for (const [name, text] of Object.entries(shapes)) {
    const path = join(dir, `${name}.jsonl`);
    writeFileSync(path, text);
    const head = readHead(path);
    const expected = wholeHead(text);
    assert.deepEqual(head.first, expected.records.slice(0, 5), `${name}: the first records`);
    assert.deepEqual(head.records, expected.records, name);
    assert.equal(head.lines, expected.lines, name);
    const later = readHead(path);
    assert.deepEqual(later.records, expected.records, `${name}: all records asked for first`);
    assert.deepEqual(later.first, expected.records.slice(0, 5), `${name}: then the first`);
    // gzipped: the same once inflated
    writeFileSync(`${path}.gz`, gzipSync(text));
    assert.deepEqual(readHead(`${path}.gz`).records, expected.records, `${name}, gzipped`);
  }
});

test("detectLogAgent: a log whose agent shows only after its first records is still that agent's", async () => {
  const dir = makeTempDir('shim-head-');
  // Named as Claude Code names a transcript; six records of nothing any agent writes come
  // first, then a Claude Code entry.
  const path = join(dir, '0b6c7f4e-3c1d-4f7a-9a55-2f1e8d6c4b3a.jsonl');
  const noise = Array.from({ length: 6 }, (_, i) => JSON.stringify({ note: i }));
  const entry = JSON.stringify({ type: 'user', sessionId: 's', uuid: 'u', message: {} });
  writeFileSync(path, [...noise, entry, ''].join('\n'));
  assert.equal((await detectLogAgent(path, null, testAgents)).id, 'claude');
  assert.equal((await detectLogAgent(path, 'claude', testAgents)).id, 'claude');
  await assert.rejects(detectLogAgent(path, 'codex', testAgents), /does not look like a Codex/);
});

test(
  "each agent's sniff: a yes of a real log's first records stays a yes of more (detectLogAgent asks the first few first)",
  { skip: FIXTURES_MISSING || sharedFixturesMissing(AGENT_FIXTURES_DIR) },
  () => {
    const logs = [
      ...listFixtures().map((name) => fixturePath(name)),
      ...(['codex', 'gemini'] as const).flatMap((agent) =>
        listAgentFixtures(agent).map((name) => agentFixturePath(agent, name)),
      ),
    ];
    let yes = 0;
    for (const path of logs) {
      const head = readHead(path);
      for (let n = 1; n <= head.records.length; n++) {
        const some = head.records.slice(0, n);
        for (const agent of Object.values(AGENT)) {
          if (!agent.sessions.sniff(some)) continue;
          yes++;
          assert.ok(agent.sessions.sniff(head.records), `${agent.id}, ${path}, first ${n}`);
        }
      }
    }
    assert.ok(yes > logs.length, `sniffs said yes ${yes} times over ${logs.length} logs`);
  },
);
