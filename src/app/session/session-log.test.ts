import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { makeTempDir } from '../../../test/helpers/fixtures.ts';
import { readHead } from './session-log.ts';

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
    assert.deepEqual(head.records, expected.records, name);
    assert.equal(head.lines, expected.lines, name);
    // gzipped: the same once inflated
    writeFileSync(`${path}.gz`, gzipSync(text));
    assert.deepEqual(readHead(`${path}.gz`).records, expected.records, `${name}, gzipped`);
  }
});
