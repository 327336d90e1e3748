import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isContextOverflowMessage } from './context-overflow.ts';

test('the wordings of a turn refused as too long, and not a limit or an agent writing prose', () => {
  for (const text of [
    'Prompt is too long',
    'API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}',
    'context window exceeded',
    'Error: input is too long for the model',
  ])
    assert.ok(isContextOverflowMessage(text), text);
  for (const text of ["You've hit your limit · resets 3pm", 'API Error: 529 Overloaded', ''])
    assert.ok(!isContextOverflowMessage(text), text);
});
