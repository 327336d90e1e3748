import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { makeTempDir } from '../../../test/helpers/fixtures.ts';
import { geminiTail, lookAtChatTail } from './tail-look.ts';

const record = (value: object) => `${JSON.stringify(value)}\n`;
const model = (
  id: string,
  input: number,
  calls: { id: string; status?: string; out?: string }[] = [],
) =>
  record({
    id,
    timestamp: '2026-11-29T04:00:00.000Z',
    type: 'gemini',
    content: '',
    tokens: { input, output: 40, cached: 0, thoughts: 0, tool: 0, total: input + 40 },
    model: 'gemini-2.5-pro',
    ...(calls.length
      ? {
          toolCalls: calls.map((c) => ({
            id: c.id,
            name: 'run_shell_command',
            args: { command: 'ls' },
            status: c.status ?? 'success',
            result: [
              {
                functionResponse: {
                  id: c.id,
                  name: 'run_shell_command',
                  response: { output: c.out ?? 'a.ts' },
                },
              },
            ],
          })),
        }
      : {}),
  });

describe('lookAtChatTail', () => {
  test("the newest response's context; a message written again (its calls) counted once", () => {
    const text =
      model('m1', 20_000) +
      model('m1', 20_000, [{ id: 'c1' }]) +
      record({ $set: { lastUpdated: '2026-11-29T04:00:01.000Z' } }) +
      model('m2', 21_000) +
      model('m2', 21_000, [{ id: 'c2' }, { id: 'c3' }]) +
      '{"id":"m3","type":"gemini","tok';
    assert.deepEqual(lookAtChatTail(text), {
      contextTokens: 21_000,
      responses: 2,
      toolCalls: 3,
      eventful: false,
    });
  });

  test('the history replaced, a rewind, an error or notice, a failed or cancelled call is for a full look', () => {
    const eventful = [
      record({ $set: { messages: [] } }),
      record({ $rewindTo: 'm1' }),
      record({ id: 'e1', type: 'error', content: 'quota' }),
      record({ id: 'i1', type: 'info', content: 'Chat history compressed' }),
      model('m2', 21_000, [{ id: 'c2', status: 'error' }]),
      model('m2', 21_000, [{ id: 'c2', status: 'cancelled' }]),
      model('m2', 21_000, [{ id: 'c2', out: 'Output: nope\nExit Code: 1' }]),
      // Compressed where nothing marks it (older builds): the context halves.
      model('m3', 90_000) + model('m4', 30_000),
    ];
    for (const text of eventful)
      assert.equal(lookAtChatTail(model('m1', 20_000) + text).eventful, true, text.slice(0, 90));
    const talk = record({ id: 'u2', type: 'user', content: [{ text: 'why "status":"error"?' }] });
    assert.equal(lookAtChatTail(talk).eventful, false);
  });

  test('a whole-document chat (.json) or a gzipped one has no tail to look at', () => {
    const dir = makeTempDir('shim-gemini-tail-');
    for (const name of ['session-a.json', 'session-b.jsonl.gz']) {
      writeFileSync(join(dir, name), model('m1', 20_000));
      assert.equal(geminiTail(join(dir, name), 0), null, name);
    }
    writeFileSync(join(dir, 'session-c.jsonl'), model('m1', 20_000));
    assert.equal(geminiTail(join(dir, 'session-c.jsonl'), 0)?.contextTokens, 20_000);
  });
});
