import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LineSplitter, type SplitterStart } from './line-splitter.ts';

type Line = { text: string; line: number };

const START: SplitterStart = { offset: 0, line: 0, skipNewline: false };

function collect(start: SplitterStart = START, maxLineBytes?: number) {
  const lines: Line[] = [];
  const splitter = new LineSplitter(
    (text, line) => lines.push({ text, line }),
    start,
    maxLineBytes,
  );
  return { lines, splitter };
}

/** Pushes `bytes` in pieces of `size` bytes (the whole buffer when size is Infinity). */
function splitInChunks(bytes: Buffer, size: number, maxLineBytes?: number) {
  const { lines, splitter } = collect(START, maxLineBytes);
  for (let i = 0; i < bytes.length; i += size) splitter.push(bytes.subarray(i, i + size));
  return { lines, splitter };
}

const SAMPLE = Buffer.from(
  [
    '{"type":"user","message":{"content":"héllo — 日本語 🎉"}}',
    '',
    'plain line',
    'crlf line\r',
    '🎉🎉🎉 emoji only',
    '{"last":true}',
    '',
  ].join('\n'),
  'utf8',
);

describe('LineSplitter', () => {
  it('yields identical lines whether the bytes arrive in 1-byte, 7-byte or whole chunks', () => {
    const whole = splitInChunks(SAMPLE, Infinity);
    const oneByte = splitInChunks(SAMPLE, 1);
    const sevenBytes = splitInChunks(SAMPLE, 7);
    assert.deepEqual(whole.lines, [
      { text: '{"type":"user","message":{"content":"héllo — 日本語 🎉"}}', line: 1 },
      { text: '', line: 2 },
      { text: 'plain line', line: 3 },
      { text: 'crlf line', line: 4 },
      { text: '🎉🎉🎉 emoji only', line: 5 },
      { text: '{"last":true}', line: 6 },
    ]);
    assert.deepEqual(oneByte.lines, whole.lines);
    assert.deepEqual(sevenBytes.lines, whole.lines);
    assert.equal(oneByte.splitter.committedOffset, SAMPLE.length);
    assert.equal(sevenBytes.splitter.committedOffset, SAMPLE.length);
  });

  it('strips the carriage return of CRLF line endings, also when CR and LF arrive in different chunks', () => {
    const { lines, splitter } = collect();
    splitter.push(Buffer.from('first\r\nsec'));
    splitter.push(Buffer.from('ond\r'));
    splitter.push(Buffer.from('\n\r\nthird\r\n'));
    assert.deepEqual(
      lines.map((l) => l.text),
      ['first', 'second', '', 'third'],
    );
    assert.equal(splitter.committedOffset, Buffer.byteLength('first\r\nsecond\r\n\r\nthird\r\n'));
  });

  it('keeps a carriage return that is not directly before the newline', () => {
    const { lines, splitter } = collect();
    splitter.push(Buffer.from('a\rb\n'));
    assert.deepEqual(lines, [{ text: 'a\rb', line: 1 }]);
  });

  it('decodes a multi-byte UTF-8 character cut at every possible byte boundary', () => {
    const text = 'x€🎉y';
    const bytes = Buffer.from(`${text}\n`, 'utf8');
    for (let cut = 1; cut < bytes.length; cut++) {
      const { lines, splitter } = collect();
      splitter.push(bytes.subarray(0, cut));
      splitter.push(bytes.subarray(cut));
      assert.deepEqual(lines, [{ text, line: 1 }], `cut at byte ${cut}`);
      assert.equal(splitter.committedOffset, bytes.length);
    }
  });

  it('holds an unterminated last line as the remainder without emitting or committing it', () => {
    const { lines, splitter } = collect();
    splitter.push(Buffer.from('one\ntw'));
    splitter.push(Buffer.from('o€'));
    assert.deepEqual(lines, [{ text: 'one', line: 1 }]);
    assert.equal(splitter.line, 1);
    assert.equal(splitter.committedOffset, 4);
    assert.equal(splitter.remainder()?.toString('utf8'), 'two€');
  });

  it('has no remainder when the input ends with a newline', () => {
    const { splitter } = collect();
    splitter.push(Buffer.from('one\ntwo\n'));
    assert.equal(splitter.remainder(), null);
  });

  it('emits an accepted remainder as the next line and later swallows exactly one newline', () => {
    const { lines, splitter } = collect();
    splitter.push(Buffer.from('{"a":1}\n{"b":2}'));
    splitter.acceptRemainder(splitter.remainder()!.toString('utf8'));
    assert.deepEqual(lines, [
      { text: '{"a":1}', line: 1 },
      { text: '{"b":2}', line: 2 },
    ]);
    assert.equal(splitter.skipNewline, true);
    assert.equal(splitter.committedOffset, 15);
    assert.equal(splitter.remainder(), null);
    splitter.push(Buffer.from('\n{"c":3}\n\n'));
    assert.deepEqual(lines.slice(2), [
      { text: '{"c":3}', line: 3 },
      { text: '', line: 4 },
    ]);
    assert.equal(splitter.skipNewline, false);
    assert.equal(splitter.committedOffset, 25);
  });

  it('resumes from a start that still owes a newline, skipping it once', () => {
    const { lines, splitter } = collect({ offset: 100, line: 7, skipNewline: true });
    splitter.push(Buffer.alloc(0));
    assert.equal(splitter.skipNewline, true);
    splitter.push(Buffer.from('\nnext\n'));
    assert.deepEqual(lines, [{ text: 'next', line: 8 }]);
    assert.equal(splitter.committedOffset, 106);
  });

  it('does not drop the first byte after an accepted remainder when it is not a newline', () => {
    const { lines, splitter } = collect({ offset: 0, line: 3, skipNewline: true });
    splitter.push(Buffer.from('{"d":4}\n'));
    assert.deepEqual(lines, [{ text: '{"d":4}', line: 4 }]);
    assert.equal(splitter.skipNewline, false);
    assert.equal(splitter.committedOffset, 8);
  });

  it('numbers lines and offsets from the given start', () => {
    const { lines, splitter } = collect({ offset: 1000, line: 41, skipNewline: false });
    splitter.push(Buffer.from('a\nbb\n'));
    assert.deepEqual(lines, [
      { text: 'a', line: 42 },
      { text: 'bb', line: 43 },
    ]);
    assert.equal(splitter.committedOffset, 1005);
  });

  it('advances committedOffset to just after each complete line and no further', () => {
    const { splitter } = collect();
    const offsets: number[] = [];
    for (const piece of ['ab', 'c\nd', 'e\n', 'f', '', 'g\nh']) {
      splitter.push(Buffer.from(piece));
      offsets.push(splitter.committedOffset);
    }
    assert.deepEqual(offsets, [0, 4, 7, 7, 7, 10]);
  });

  it('skips a line longer than the limit, counts it by number and keeps the lines around it', () => {
    const input = Buffer.from(`short\n${'x'.repeat(100)}\nafter\n`);
    for (const size of [1, 7, Infinity]) {
      const { lines, splitter } = splitInChunks(input, size, 10);
      assert.deepEqual(
        lines,
        [
          { text: 'short', line: 1 },
          { text: 'after', line: 3 },
        ],
        `chunks of ${size}`,
      );
      assert.deepEqual(splitter.oversizedLines, [2]);
      assert.equal(splitter.committedOffset, input.length);
    }
  });

  it('keeps a line of exactly the limit and skips one byte more', () => {
    const { lines, splitter } = splitInChunks(Buffer.from('0123456789\n0123456789A\n'), 4, 10);
    assert.deepEqual(lines, [{ text: '0123456789', line: 1 }]);
    assert.deepEqual(splitter.oversizedLines, [2]);
  });

  it('offers no remainder for an unterminated line that is already over the limit', () => {
    const { splitter } = collect(START, 10);
    splitter.push(Buffer.from('ok\n'));
    splitter.push(Buffer.from('y'.repeat(50)));
    assert.equal(splitter.remainder(), null);
    assert.equal(splitter.committedOffset, 3);
    assert.deepEqual(splitter.oversizedLines, []);
  });

  it('does not buffer an oversized line while it streams through', () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    const { lines, splitter } = collect(START, 1024 * 1024);
    const before = process.memoryUsage().arrayBuffers;
    for (let i = 0; i < 200; i++) splitter.push(chunk);
    const growth = process.memoryUsage().arrayBuffers - before;
    splitter.push(Buffer.from('\nafter\n'));
    assert.ok(growth < 50 * 1024 * 1024, `array buffers grew by ${growth} bytes`);
    assert.deepEqual(lines, [{ text: 'after', line: 2 }]);
    assert.deepEqual(splitter.oversizedLines, [1]);
    assert.equal(splitter.committedOffset, 200 * chunk.length + 7);
  });

  it('copies carried bytes, so a caller reusing its read buffer does not corrupt the line', () => {
    const { lines, splitter } = collect();
    const buffer = Buffer.from('abc');
    splitter.push(buffer);
    buffer.write('XYZ');
    splitter.push(Buffer.from('def\n'));
    assert.deepEqual(lines, [{ text: 'abcdef', line: 1 }]);
  });
});
