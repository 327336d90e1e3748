import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { createExecJsonParser } from './exec-json.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'stream-json');
const events = (name: string) => {
  const parse = createExecJsonParser();
  return readFileSync(join(FIXTURES, name), 'utf8').split('\n').filter(Boolean).flatMap(parse);
};

describe('codex exec --json (captured from Codex CLI 0.169.0)', () => {
  test('the thread, the command with its result, and the final message as the result', () => {
    const all = events('codex-exec.jsonl');
    const init = all.find((e) => e.kind === 'init');
    assert.match(init?.kind === 'init' ? init.sessionId : '', /^[0-9a-f-]{36}$/);
    const tool = all.find((e) => e.kind === 'response' && e.toolUses.length > 0);
    assert.equal(tool?.kind === 'response' && tool.toolUses[0]!.name, 'command_execution');
    assert.ok(all.some((e) => e.kind === 'tool_result' && !e.isError));
    const result = all.at(-1);
    assert.deepEqual(result?.kind === 'result' && [result.isError, result.text], [
      false,
      'Done.\nSHIM_LOOP_COMPLETE',
    ]);
    // The turn's usage is a sum: nothing here claims to be the context.
    assert.ok(all.every((e) => e.kind !== 'response' || e.contextTokens === null));
  });

  test('a usage limit: an error, then a failed turn saying so', () => {
    const all = events('codex-exec-usage-limit.jsonl');
    assert.ok(all.some((e) => e.kind === 'api_error' && /usage limit/.test(e.text)));
    const result = all.at(-1);
    assert.ok(result?.kind === 'result' && result.isError && /usage limit/.test(result.text));
  });

  test('garbage never throws', () => {
    const parse = createExecJsonParser();
    for (const line of ['', 'nope', '[1]', 'null', '{"type":"item.completed"}', '{"type":7}'])
      assert.doesNotThrow(() => parse(line));
  });
});
