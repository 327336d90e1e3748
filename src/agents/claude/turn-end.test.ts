import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '../../../test/helpers/fixtures.ts';
import { readTurnEnd } from './turn-end.ts';

const errorEntry = (text: string, extra: Record<string, unknown> = {}) => ({
  type: 'assistant',
  uuid: 'u-err',
  isSidechain: false,
  isApiErrorMessage: true,
  message: { role: 'assistant', model: '<synthetic>', content: [{ type: 'text', text }] },
  ...extra,
});
const response = {
  type: 'assistant',
  uuid: 'u-ok',
  message: { content: [{ type: 'text', text: 'ok' }] },
};

function transcript(entries: unknown[]): string {
  const path = join(makeTempDir('shim-turn-end-'), 's.jsonl');
  writeFileSync(path, entries.map((e) => JSON.stringify(e)).join('\n') + '\n');
  return path;
}

test('a last turn refused at a usage limit (2.1.330 error entry)', () => {
  const end = readTurnEnd(
    transcript([
      response,
      errorEntry('API Error: Request rejected (429) · limit', {
        error: 'rate_limit',
        apiErrorStatus: 429,
      }),
    ]),
  );
  assert.deepEqual(end && [end.kind, end.status, end.uuid], ['usage_limit', 429, 'u-err']);
});

test('a last turn over the context limit', () => {
  const end = readTurnEnd(
    transcript([response, errorEntry('Prompt is too long: 210000 tokens > 200000 maximum')]),
  );
  assert.equal(end?.kind, 'prompt_too_long');
});

test('an error the session went on from, or none, is no turn end', () => {
  assert.equal(
    readTurnEnd(transcript([errorEntry('rate limit', { error: 'rate_limit' }), response])),
    null,
  );
  assert.equal(
    readTurnEnd(transcript([response, { type: 'user', message: { content: 'x' } }])),
    null,
  );
  assert.equal(readTurnEnd('/nonexistent/transcript.jsonl'), null);
});
