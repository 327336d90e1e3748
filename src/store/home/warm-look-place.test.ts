import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  decodeAnswer,
  decodeRequest,
  encodeAnswer,
  encodeRequest,
  warmLookDir,
  type WarmRequest,
} from './warm-look-place.ts';

const request: WarmRequest = {
  id: '42-1-abc',
  event: 'PostToolUse',
  input: '{"session_id":"s",\n"tool_name":"Read"}',
  env: { SHIM_HOME: '/tmp/h', PATH: '/usr/bin' },
  parentPid: 7,
  cwd: '/work',
};

describe('the warm look’s frames', () => {
  test('a request is one line of its own, whatever its input holds', () => {
    const frame = encodeRequest(request);
    assert.ok(frame.startsWith('\n') && frame.endsWith('\n'));
    assert.equal(frame.trim().split('\n').length, 1);
    assert.deepEqual(decodeRequest(frame.trim()), request);
  });

  test('what a caller killed mid-write left is no request, and spoils none after it', () => {
    const frame = encodeRequest(request);
    const stream = frame.slice(0, 40) + encodeRequest({ ...request, id: 'next' });
    const lines = stream.split('\n').filter(Boolean);
    assert.deepEqual(
      lines.map((line) => decodeRequest(line)?.id ?? null),
      [null, 'next'],
    );
  });

  test('an answer carries its id; anything else is not one', () => {
    assert.deepEqual(decodeAnswer(encodeAnswer({ id: 'a', out: 'x' }).trim()), {
      id: 'a',
      out: 'x',
    });
    for (const line of ['', 'null', '[]', '{"id":1,"out":"x"}', '{"id":"a"}', '{"id":"a",'])
      assert.equal(decodeAnswer(line), null, line);
    assert.equal(decodeRequest('{"id":"a","event":"PostToolUse"}'), null);
  });

  test('one directory per build of the hook, none without one', () => {
    const here = warmLookDir('/tmp/home', join(import.meta.dirname, 'warm-look-place.ts'));
    assert.ok(here?.startsWith(join('/tmp/home', 'run', 'warm-look-')), String(here));
    assert.equal(warmLookDir('/tmp/home', '/no/such/bundle.cjs'), null);
  });
});
