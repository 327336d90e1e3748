import assert from 'node:assert/strict';
import {
  appendFileSync,
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { AppError, type AppErrorCode } from '../core/errors.ts';
import { createSessionState, type SessionState } from '../core/session.ts';
import {
  gzFixturePath,
  fixturePath,
  listFixtures,
  makeTempDir,
} from '../../test/helpers/fixtures.ts';
import { seededRandom, toJsonl, userPromptLine } from '../../test/helpers/transcript-builders.ts';
import { createCursor, type ReadResult, type TranscriptCursor } from './reader.ts';
import { readCompressedTranscript, readTranscript } from '../agents/claude/transcript-reader.ts';

const tempDirs: string[] = [];
after(() => tempDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

let fileCounter = 0;
/** A fresh path in this file's scratch directory. */
function tempPath(name = 'session.jsonl'): string {
  tempDirs[0] ??= makeTempDir('shim-reader-test-');
  const dir = join(tempDirs[0], String(++fileCounter));
  mkdirSync(dir);
  return join(dir, name);
}

/** Cursors are cached on disk as JSON: every resume in these tests goes through that. */
const roundTrip = (cursor: TranscriptCursor): TranscriptCursor =>
  JSON.parse(JSON.stringify(cursor)) as TranscriptCursor;

/** The part of a cursor that must not depend on how the file was read. */
const position = (cursor: TranscriptCursor) => ({
  offset: cursor.offset,
  line: cursor.line,
  skipNewline: cursor.skipNewline,
  state: cursor.state,
});

function readWhole(path: string): TranscriptCursor {
  return readTranscript(path, null).cursor;
}

/** Appends the pieces one by one, reading after each from the (JSON round-tripped) cursor. */
function appendAndRead(
  path: string,
  pieces: Buffer[],
): { cursor: TranscriptCursor; results: ReadResult[] } {
  writeFileSync(path, '');
  const results: ReadResult[] = [];
  let cursor: TranscriptCursor | null = null;
  for (const piece of pieces) {
    appendFileSync(path, piece);
    const result = readTranscript(path, cursor && roundTrip(cursor));
    results.push(result);
    cursor = result.cursor;
  }
  assert.ok(cursor);
  return { cursor, results };
}

/** The file's lines, each with its newline (the last one may lack it). */
function splitLines(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let nl = bytes.indexOf(0x0a); nl !== -1; nl = bytes.indexOf(0x0a, start)) {
    lines.push(bytes.subarray(start, nl + 1));
    start = nl + 1;
  }
  return start < bytes.length ? [...lines, bytes.subarray(start)] : lines;
}

/** Pieces of 1…maxBytes bytes, cut anywhere (inside lines and inside UTF-8 characters). */
function randomPieces(bytes: Buffer, seed: number, maxBytes: number): Buffer[] {
  const random = seededRandom(seed);
  const pieces: Buffer[] = [];
  for (let start = 0; start < bytes.length;) {
    const size = 1 + Math.floor(random() * maxBytes);
    pieces.push(bytes.subarray(start, start + size));
    start += size;
  }
  return pieces;
}

const fixtureBytes = (name: string): Buffer => readFileSync(fixturePath(name));

/** An AppError of `code` whose message fits on one line. */
const appError = (code: AppErrorCode) => (error: unknown) => {
  assert.ok(error instanceof AppError, `not an AppError: ${String(error)}`);
  assert.equal(error.code, code);
  assert.doesNotMatch(error.message, /\n/);
  return true;
};

const SHORT = 'spotter-short-v2.1.38.jsonl';
const FIXTURES = listFixtures();

describe('reading a transcript incrementally', () => {
  describe('appended line by line ends in the state of one full read', () => {
    for (const name of [
      'entire-b02936744f3b-2x-auto-compact-api-errors-v2.1.5.jsonl',
      'entire-d599f72ee73a-microcompact-todowrite-v2.1.12.jsonl',
      'entire-6d63c3a51594-subagent-prompt-too-long-v2.1.37.jsonl',
      SHORT,
    ]) {
      it(`for ${name}`, () => {
        const path = tempPath();
        const bytes = fixtureBytes(name);
        const { cursor, results } = appendAndRead(path, splitLines(bytes));
        assert.deepEqual(position(cursor), position(readWhole(path)));
        assert.equal(cursor.state.parse.badLines, 0);
        assert.equal(results.filter((r) => r.restarted).length, 0);
        assert.equal(
          results.reduce((sum, r) => sum + r.bytesRead, 0),
          bytes.length,
        );
      });
    }
  });

  it('ends in the state of one full read when every line arrives in halves and its newline last', () => {
    const path = tempPath();
    const bytes = fixtureBytes('entire-ed51f6581660-auto-compact-v2.1.42.jsonl');
    assert.equal(bytes.at(-1), 0x0a);
    const lines = splitLines(bytes);
    const pieces = lines.flatMap((line) => {
      const mid = Math.floor(line.length / 2);
      return [line.subarray(0, mid), line.subarray(mid, -1), line.subarray(-1)];
    });
    const { cursor, results } = appendAndRead(path, pieces);
    assert.deepEqual(position(cursor), position(readWhole(path)));
    // After the second half each line is complete JSON without its newline: consumed at once.
    assert.deepEqual(
      results.filter((_r, i) => i % 3 === 1).map((r) => r.cursor.line),
      lines.map((_l, i) => i + 1),
    );
    assert.equal(results.filter((r) => r.restarted).length, 0);
  });

  describe('appended in random pieces cut anywhere ends in the state of one full read', () => {
    FIXTURES.forEach((name, i) => {
      const seed = 1000 + i;
      it(`for ${name} (seed ${seed})`, () => {
        const path = tempPath();
        const bytes = fixtureBytes(name);
        const { cursor, results } = appendAndRead(
          path,
          randomPieces(bytes, seed, Math.ceil(bytes.length / 40)),
        );
        assert.deepEqual(position(cursor), position(readWhole(path)));
        assert.equal(cursor.state.parse.badLines, 0);
        assert.equal(results.filter((r) => r.restarted).length, 0);
      });
    });
  });

  it('ends in the state of one full read when appended in pieces of at most 64 bytes', () => {
    const path = tempPath();
    const { cursor } = appendAndRead(path, randomPieces(fixtureBytes(SHORT), 7, 64));
    assert.deepEqual(position(cursor), position(readWhole(path)));
  });

  it('reads a partial last line without error and folds it once the rest arrives', () => {
    const path = tempPath();
    const lines = splitLines(fixtureBytes(SHORT));
    const firstFour = Buffer.concat(lines.slice(0, 4));
    const fifth = lines[4]!;
    writeFileSync(path, Buffer.concat([firstFour, fifth.subarray(0, 100)]));
    const first = readTranscript(path, null).cursor;
    assert.equal(first.line, 4);
    assert.equal(first.offset, firstFour.length);
    assert.equal(first.skipNewline, false);
    assert.equal(first.state.parse.badLines, 0);
    assert.equal(first.state.turns, 0);
    appendFileSync(path, fifth.subarray(100));
    const second = readTranscript(path, roundTrip(first)).cursor;
    assert.equal(second.state.turns, 1);
    assert.deepEqual(position(second), position(readWhole(path)));
  });

  it('waits for the rest of a partial last line even when its cut closes a nested block', () => {
    const path = tempPath();
    const lines = splitLines(fixtureBytes(SHORT));
    const firstFour = Buffer.concat(lines.slice(0, 4));
    const fifth = lines[4]!;
    const block = Buffer.from('{"type":"text","text":"\\n\\n"}');
    const cut = fifth.indexOf(block) + block.length;
    assert.ok(cut > block.length);
    writeFileSync(path, Buffer.concat([firstFour, fifth.subarray(0, cut)]));
    const first = readTranscript(path, null).cursor;
    assert.equal(first.line, 4);
    assert.equal(first.state.parse.badLines, 0);
    appendFileSync(path, fifth.subarray(cut));
    const second = readTranscript(path, roundTrip(first)).cursor;
    assert.deepEqual(position(second), position(readWhole(path)));
  });

  it('consumes a complete entry that lacks its newline, and its late newline does not shift line numbers', () => {
    const path = tempPath();
    const lines = splitLines(fixtureBytes(SHORT));
    const firstFour = Buffer.concat(lines.slice(0, 4));
    writeFileSync(path, firstFour.subarray(0, firstFour.length - 1));
    const first = readTranscript(path, null).cursor;
    assert.equal(first.line, 4);
    assert.equal(first.skipNewline, true);
    assert.equal(first.offset, firstFour.length - 1);
    assert.equal(first.state.promptCount, 1);
    appendFileSync(path, Buffer.concat([Buffer.from('\n'), ...lines.slice(4)]));
    const seen: number[] = [];
    const second = readTranscript(path, roundTrip(first), {
      onEntry: (_e, line) => seen.push(line),
    });
    assert.deepEqual(seen, [5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    assert.deepEqual(position(second.cursor), position(readWhole(path)));
  });

  it('reads nothing new from an unchanged file', () => {
    const path = fixturePath(SHORT);
    const first = readTranscript(path, null);
    const again = readTranscript(path, roundTrip(first.cursor));
    assert.equal(again.bytesRead, 0);
    assert.equal(again.restarted, false);
    assert.deepEqual(position(again.cursor), position(first.cursor));
  });

  it('reports each completed response to the listener once, in order', () => {
    const turns: number[] = [];
    const { cursor } = readTranscript(
      fixturePath('entire-d599f72ee73a-microcompact-todowrite-v2.1.12.jsonl'),
      null,
      {
        finalize: true,
        listener: { onResponse: (r) => turns.push(r.turn) },
      },
    );
    assert.equal(turns.length, cursor.state.turns);
    assert.deepEqual(
      turns,
      turns.map((_t, i) => i + 1),
    );
  });
});

describe('a cursor that does not fit the file', () => {
  const lines = splitLines(fixtureBytes(SHORT));

  it('restarts when the file was truncated', () => {
    const path = tempPath();
    writeFileSync(path, Buffer.concat(lines));
    const first = readTranscript(path, null).cursor;
    truncateSync(path, Buffer.concat(lines.slice(0, 6)).length);
    const result = readTranscript(path, roundTrip(first));
    assert.equal(result.restarted, true);
    assert.equal(result.cursor.line, 6);
    assert.deepEqual(position(result.cursor), position(readWhole(path)));
  });

  it('restarts when the file was replaced by another one', () => {
    const path = tempPath();
    writeFileSync(path, Buffer.concat(lines));
    const first = readTranscript(path, null).cursor;
    const other = `${path}.new`;
    writeFileSync(other, fixtureBytes('entire-d599f72ee73a-microcompact-todowrite-v2.1.12.jsonl'));
    renameSync(other, path);
    const result = readTranscript(path, roundTrip(first));
    assert.equal(result.restarted, true);
    assert.deepEqual(position(result.cursor), position(readWhole(path)));
  });

  it('restarts when the file was rewritten in place with other content', () => {
    const path = tempPath();
    writeFileSync(path, Buffer.concat(lines));
    const first = readTranscript(path, null).cursor;
    writeFileSync(path, fixtureBytes('entire-d599f72ee73a-microcompact-todowrite-v2.1.12.jsonl'));
    const result = readTranscript(path, roundTrip(first));
    assert.equal(result.restarted, true);
    assert.deepEqual(position(result.cursor), position(readWhole(path)));
  });

  it('restarts when the cached state has another version', () => {
    const path = fixturePath(SHORT);
    const stale = roundTrip(readTranscript(path, null).cursor);
    const old = { ...stale, state: { ...stale.state, v: 0 } } as unknown as TranscriptCursor;
    const result = readTranscript(path, old);
    assert.equal(result.restarted, true);
    assert.deepEqual(position(result.cursor), position(readWhole(path)));
  });

  it('restarts when the cached state was folded by another agent’s reader', () => {
    const path = fixturePath(SHORT);
    const read = roundTrip(readTranscript(path, null).cursor);
    assert.equal(read.state.agent, 'claude', 'Claude Code’s state names its agent too');
    const codex = { ...read, state: { ...read.state, agent: 'codex' } } as TranscriptCursor;
    const result = readTranscript(path, codex);
    assert.equal(result.restarted, true);
    assert.equal(result.cursor.state.agent, 'claude');
    assert.deepEqual(position(result.cursor), position(readWhole(path)));
  });

  it('does not restart while the file only grows', () => {
    const path = tempPath();
    writeFileSync(path, Buffer.concat(lines.slice(0, 5)));
    const first = readTranscript(path, null).cursor;
    appendFileSync(path, Buffer.concat(lines.slice(5)));
    assert.equal(readTranscript(path, roundTrip(first)).restarted, false);
  });
});

describe('reading bad input', () => {
  it('throws TRANSCRIPT_NOT_FOUND with a one-line message for a missing file', () => {
    assert.throws(
      () => readTranscript(tempPath('nope.jsonl'), null),
      appError('TRANSCRIPT_NOT_FOUND'),
    );
  });

  it('throws TRANSCRIPT_UNREADABLE with a one-line message for a directory', () => {
    assert.throws(
      () => readTranscript(dirname(tempPath()), null),
      appError('TRANSCRIPT_UNREADABLE'),
    );
  });

  it('throws TRANSCRIPT_UNREADABLE for a path that cannot be opened as a file (a socket)', async () => {
    const path = tempPath('sock');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(path, resolve));
    assert.throws(() => readTranscript(path, null), appError('TRANSCRIPT_UNREADABLE'));
    await assert.rejects(readCompressedTranscript(path), appError('TRANSCRIPT_UNREADABLE'));
    await new Promise((resolve) => server.close(resolve));
  });

  it('gives the empty state for an empty file', () => {
    const path = tempPath();
    writeFileSync(path, '');
    const result = readTranscript(path, null, { finalize: true });
    assert.equal(result.bytesRead, 0);
    assert.deepEqual(position(result.cursor), {
      offset: 0,
      line: 0,
      skipNewline: false,
      state: createSessionState('claude'),
    });
  });

  it('counts random binary data as bad lines without crashing', () => {
    const path = tempPath();
    const random = seededRandom(42);
    const bytes = Buffer.from(Array.from({ length: 256 * 1024 }, () => Math.floor(random() * 256)));
    writeFileSync(path, bytes);
    const state = readTranscript(path, null, { finalize: true }).cursor.state;
    assert.equal(state.parse.lines, splitLines(bytes).filter((l) => l.at(-1) === 0x0a).length);
    assert.ok(state.parse.badLines > 500, `${state.parse.badLines} bad lines`);
    assert.equal(state.parse.firstBadLine, 1);
    assert.equal(state.turns, 0);
  });

  it('skips a 50 MB single line, counts it as oversized and folds the entries around it', () => {
    const path = tempPath();
    const fd = openSync(path, 'w');
    writeSync(fd, toJsonl([userPromptLine('before')]));
    writeSync(fd, '{"type":"user","message":{"role":"user","content":"');
    const mb = Buffer.alloc(1024 * 1024, 'x');
    for (let i = 0; i < 50; i++) writeSync(fd, mb);
    writeSync(fd, '"}}\n');
    writeSync(fd, toJsonl([userPromptLine('after')]));
    closeSync(fd);
    const state = readTranscript(path, null).cursor.state;
    assert.equal(state.parse.oversizedLines, 1);
    assert.equal(state.parse.lines, 3);
    assert.equal(state.parse.badLines, 0);
    assert.deepEqual(
      state.prompts.map((p) => [p.line, p.text]),
      [
        [1, 'before'],
        [3, 'after'],
      ],
    );
    rmSync(path);
  });

  it('honours a smaller maxLineBytes, skipping exactly the longer lines', () => {
    const state = readTranscript(fixturePath(SHORT), null, { maxLineBytes: 900 }).cursor.state;
    // Line lengths of spotter-short: 6 (1430 bytes), 8 (955) and 10 (954) exceed 900.
    assert.equal(state.parse.oversizedLines, 3);
    assert.equal(state.parse.lines, 15);
    assert.equal(state.parse.badLines, 0);
    assert.equal(state.turns, 1);
    assert.equal(state.toolCalls, 2);
  });

  it('counts an oversized last line among the lines read', async () => {
    const path = tempPath();
    writeFileSync(path, toJsonl([userPromptLine('hi'), { type: 'user', pad: 'y'.repeat(3000) }]));
    const cursor = readTranscript(path, null, { maxLineBytes: 1000 }).cursor;
    assert.equal(cursor.line, 2);
    assert.deepEqual(cursor.state.parse, {
      lines: 2,
      badLines: 0,
      firstBadLine: null,
      nulLines: 0,
      oversizedLines: 1,
    });
    const gz = `${path}.gz`;
    writeFileSync(gz, gzipSync(readFileSync(path)));
    const compressed = await readCompressedTranscript(gz, { maxLineBytes: 1000 });
    assert.deepEqual(compressed.parse, cursor.state.parse);
  });

  const lines = splitLines(fixtureBytes(SHORT));
  const torn = lines[6]!.subarray(0, 300);

  it('counts a torn line mid-file as bad and still folds the entries around it', () => {
    const withTorn = tempPath();
    writeFileSync(
      withTorn,
      Buffer.concat([...lines.slice(0, 6), torn, Buffer.from('\n'), ...lines.slice(7)]),
    );
    const withBlank = tempPath();
    writeFileSync(
      withBlank,
      Buffer.concat([...lines.slice(0, 6), Buffer.from('\n'), ...lines.slice(7)]),
    );
    const expected = readWhole(withBlank).state;
    const state = readWhole(withTorn).state;
    assert.equal(state.parse.badLines, 1);
    assert.equal(state.parse.firstBadLine, 7);
    assert.equal(state.turns, 1);
    assert.equal(state.toolCalls, 2);
    assert.deepEqual(state, {
      ...expected,
      parse: { ...expected.parse, badLines: 1, firstBadLine: 7 },
    });
  });

  it('recovers the entry glued to a torn line and counts the torn line as bad', () => {
    const glued = tempPath();
    writeFileSync(glued, Buffer.concat([...lines.slice(0, 6), torn, ...lines.slice(7)]));
    const withoutTorn = tempPath();
    writeFileSync(withoutTorn, Buffer.concat([...lines.slice(0, 6), ...lines.slice(7)]));
    const expected = readWhole(withoutTorn).state;
    const state = readWhole(glued).state;
    assert.equal(state.parse.lines, 14);
    assert.deepEqual(state, {
      ...expected,
      parse: { ...expected.parse, badLines: 1, firstBadLine: 7 },
    });
  });

  it('strips a run of 4096 NUL bytes before a line, counts it and still folds the entry', () => {
    const path = tempPath();
    writeFileSync(
      path,
      Buffer.concat([...lines.slice(0, 3), Buffer.alloc(4096), ...lines.slice(3)]),
    );
    const expected = readWhole(fixturePath(SHORT)).state;
    const state = readWhole(path).state;
    assert.equal(state.parse.nulLines, 1);
    assert.equal(state.promptCount, 1);
    assert.deepEqual(state, { ...expected, parse: { ...expected.parse, nulLines: 1 } });
  });

  it('treats a line of nothing but NUL bytes as blank, not bad', () => {
    const path = tempPath();
    writeFileSync(
      path,
      Buffer.concat([
        ...lines.slice(0, 3),
        Buffer.alloc(4096),
        Buffer.from('\n'),
        ...lines.slice(3),
      ]),
    );
    const state = readWhole(path).state;
    assert.equal(state.parse.nulLines, 1);
    assert.equal(state.parse.badLines, 0);
    assert.equal(state.parse.lines, 16);
    assert.deepEqual(
      state.prompts.map((p) => p.line),
      [5],
    );
  });

  it('leaves a trailing block of NUL bytes unconsumed until real content replaces it', () => {
    const path = tempPath();
    const head = Buffer.concat(lines.slice(0, 4));
    const rest = Buffer.concat(lines.slice(4));
    writeFileSync(path, Buffer.concat([head, Buffer.alloc(rest.length)]));
    const first = readTranscript(path, null).cursor;
    assert.equal(first.offset, head.length);
    assert.equal(first.state.parse.badLines, 0);
    const fd = openSync(path, 'r+');
    writeSync(fd, rest, 0, rest.length, head.length);
    closeSync(fd);
    const second = readTranscript(path, roundTrip(first)).cursor;
    assert.deepEqual(position(second), position(readWhole(fixturePath(SHORT))));
  });
});

describe('readCompressedTranscript', () => {
  describe('folds a .gz fixture exactly as readTranscript folds the decompressed file', () => {
    for (const name of FIXTURES) {
      it(`for ${name}`, async () => {
        const compressed = await readCompressedTranscript(gzFixturePath(name), {
          finalize: true,
        });
        const plain: SessionState = readTranscript(fixturePath(name), null, { finalize: true })
          .cursor.state;
        assert.deepEqual(compressed, plain);
      });
    }
  });

  it('rejects a file that is not gzip with TRANSCRIPT_UNREADABLE', async () => {
    await assert.rejects(
      readCompressedTranscript(fixturePath(SHORT)),
      appError('TRANSCRIPT_UNREADABLE'),
    );
  });

  it('rejects a missing file with TRANSCRIPT_NOT_FOUND', async () => {
    await assert.rejects(
      readCompressedTranscript(tempPath('nope.jsonl.gz')),
      appError('TRANSCRIPT_NOT_FOUND'),
    );
  });

  it('rejects a directory with TRANSCRIPT_UNREADABLE', async () => {
    await assert.rejects(
      readCompressedTranscript(dirname(tempPath())),
      appError('TRANSCRIPT_UNREADABLE'),
    );
  });
});

describe('reader edge cases found in review', () => {
  it('refuses a named pipe instead of blocking on it', () => {
    const path = tempPath('fifo');
    execFileSync('mkfifo', [path]);
    assert.throws(() => readTranscript(path, null), appError('TRANSCRIPT_UNREADABLE'));
  });

  it('a late CRLF after a consumed unterminated line does not shift line numbers', () => {
    const path = tempPath();
    const lines = readFileSync(fixturePath(SHORT), 'utf8').split('\n').filter(Boolean);
    writeFileSync(path, `${lines[0]}\n${lines[1]}`);
    const first = readTranscript(path, null).cursor;
    assert.equal(first.line, 2);
    appendFileSync(path, `\r\n${lines[2]}\n`);
    const second = readTranscript(path, roundTrip(first)).cursor;
    assert.equal(second.line, 3);
    assert.equal(second.state.parse.lines, 3);
  });

  it('reports restarted only when a cursor for another file was given', () => {
    const path = tempPath();
    writeFileSync(path, readFileSync(fixturePath(SHORT)));
    assert.equal(readTranscript(path, null).restarted, false);
    assert.equal(readTranscript(path, createCursor('claude')).restarted, false);
  });
});

describe('reading up to a byte offset (a risky command’s checkpoint: the file as the hook saw it)', () => {
  it('folds no line past the offset, from a cursor before it or from the start when the cursor is past it', () => {
    const path = tempPath();
    writeFileSync(path, toJsonl([userPromptLine('first'), userPromptLine('second')]));
    const seen = readFileSync(path).length;
    const before = readTranscript(path, null).cursor;
    appendFileSync(path, toJsonl([userPromptLine('after the hook')]));
    // A read folds into the cursor it is given: each read here gets its own copy.
    const after = readTranscript(path, structuredClone(before)).cursor;
    assert.equal(after.state.promptCount, 3);

    const fromBefore = readTranscript(path, structuredClone(before), { untilByte: seen });
    assert.equal(fromBefore.cursor.state.promptCount, 2);
    assert.equal(fromBefore.cursor.offset, seen);
    const fromPast = readTranscript(path, after, { untilByte: seen });
    assert.equal(fromPast.cursor.state.promptCount, 2, 'a cursor past the offset is not used');
    assert.equal(fromPast.cursor.offset, seen);
  });
});
