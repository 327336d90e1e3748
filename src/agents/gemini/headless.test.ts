import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { createGeminiStreamParser } from './headless.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'stream-json');

describe('gemini -p --output-format stream-json (captured from Gemini CLI 0.61.0)', () => {
  test('the session, the shell call with its result, and the answer as the result', () => {
    const parse = createGeminiStreamParser();
    const all = readFileSync(join(FIXTURES, 'gemini-stream.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .flatMap(parse);
    const init = all.find((e) => e.kind === 'init');
    assert.ok(
      init?.kind === 'init' && init.sessionId.length > 0 && init.model === 'gemini-2.5-pro',
    );
    const tool = all.find((e) => e.kind === 'response' && e.toolUses.length > 0);
    assert.equal(tool?.kind === 'response' && tool.toolUses[0]!.name, 'run_shell_command');
    assert.ok(all.some((e) => e.kind === 'tool_result' && !e.isError));
    const result = all.at(-1);
    assert.deepEqual(result?.kind === 'result' && [result.isError, result.text], [
      false,
      'Done.\nSHIM_LOOP_COMPLETE',
    ]);
  });

  test('text pieces join into one message; a quota error reads as a 429', () => {
    const parse = createGeminiStreamParser();
    const line = (o: object) => parse(JSON.stringify(o));
    line({ type: 'message', role: 'assistant', content: 'Hal', delta: true });
    const joined = line({ type: 'message', role: 'assistant', content: 'f done', delta: true });
    assert.equal(joined[0]?.kind === 'response' && joined[0].text, 'Half done');
    const failed = line({
      type: 'result',
      status: 'error',
      error: { type: 'Error', message: 'You have exhausted your daily quota on this model.' },
    });
    assert.ok(
      failed[0]?.kind === 'result' && failed[0].isError && failed[0].apiErrorStatus === 429,
    );
    for (const bad of ['', 'x', '[]', 'null', '{"type":"tool_result"}'])
      assert.doesNotThrow(() => parse(bad));
  });
});
