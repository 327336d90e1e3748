import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseLine } from './parse-line.ts';

const NEXT_ENTRY =
  '{"parentUuid":"p2","isSidechain":false,"type":"user","message":{"role":"user","content":"next"},"uuid":"u2"}';

describe('parseLine', () => {
  it('parses a valid JSON line as is', () => {
    assert.deepEqual(parseLine('{"type":"user","n":1}'), {
      ok: true,
      value: { type: 'user', n: 1 },
      hadNul: false,
      recovered: false,
    });
  });

  it('reports an empty line as blank, not as bad', () => {
    assert.deepEqual(parseLine(''), { ok: false, hadNul: false, blank: true });
  });

  it('reports a whitespace-only line as blank', () => {
    assert.deepEqual(parseLine('  \t '), { ok: false, hadNul: false, blank: true });
  });

  it('strips a run of NUL bytes before an entry and parses the entry', () => {
    assert.deepEqual(parseLine(`${'\0'.repeat(4096)}{"type":"user"}`), {
      ok: true,
      value: { type: 'user' },
      hadNul: true,
      recovered: false,
    });
  });

  it('strips NUL runs anywhere in the line', () => {
    assert.deepEqual(parseLine('{"a":\0\0\x001}\0'), {
      ok: true,
      value: { a: 1 },
      hadNul: true,
      recovered: false,
    });
  });

  it('reports a line of nothing but NUL bytes as blank with NULs', () => {
    assert.deepEqual(parseLine('\0'.repeat(512)), { ok: false, hadNul: true, blank: true });
  });

  it('recovers the complete entry glued to the tail of a torn line', () => {
    const torn = '{"parentUuid":"p1","isSidechain":false,"type":"assistant","message":{"con';
    assert.deepEqual(parseLine(torn + NEXT_ENTRY), {
      ok: true,
      value: JSON.parse(NEXT_ENTRY) as unknown,
      hadNul: false,
      recovered: true,
    });
  });

  it('skips nested content blocks of the torn part when looking for the glued entry', () => {
    const torn =
      '{"parentUuid":"p1","type":"assistant","message":{"content":[{"type":"text","text":"half';
    const parsed = parseLine(torn + NEXT_ENTRY);
    assert.deepEqual(parsed, {
      ok: true,
      value: JSON.parse(NEXT_ENTRY) as unknown,
      hadNul: false,
      recovered: true,
    });
  });

  it('recovers a glued entry behind a torn line padded with NUL bytes', () => {
    const torn = '{"parentUuid":"p1","type":"user","mess\0\0\0\0';
    assert.deepEqual(parseLine(torn + NEXT_ENTRY), {
      ok: true,
      value: JSON.parse(NEXT_ENTRY) as unknown,
      hadNul: true,
      recovered: true,
    });
  });

  it('rejects garbage as a bad, non-blank line', () => {
    assert.deepEqual(parseLine('this is not json'), { ok: false, hadNul: false, blank: false });
  });

  it('rejects a torn line with nothing glued to it', () => {
    assert.deepEqual(parseLine('{"parentUuid":"p1","type":"user","message":{"content":"ha'), {
      ok: false,
      hadNul: false,
      blank: false,
    });
  });

  it('parses a 10,000-deep nested array without throwing', () => {
    const depth = 10_000;
    const parsed = parseLine('['.repeat(depth) + ']'.repeat(depth));
    assert.equal(parsed.ok, true);
  });

  it('parses a 10,000-deep nested object without throwing', () => {
    const depth = 10_000;
    const parsed = parseLine('{"a":'.repeat(depth) + '1' + '}'.repeat(depth));
    assert.equal(parsed.ok, true);
  });

  it('gives up on a 10,000-deep unbalanced nesting without throwing', () => {
    const parsed = parseLine('{"type":['.repeat(10_000));
    assert.deepEqual(parsed, { ok: false, hadNul: false, blank: false });
  });
});
