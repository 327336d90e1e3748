import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HOOK_TEXT_LIMIT, renderHookOutput } from './hook-output.ts';

const CONTEXT_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
];
const NO_CONTEXT_EVENTS = ['Stop', 'PreCompact', 'PostCompact', 'SessionEnd', 'Notification'];
const SILENT_EVENTS = ['PreCompact', 'PostCompact', 'SessionEnd'];

const parse = (line: string) => JSON.parse(line) as Record<string, unknown>;

describe('renderHookOutput: additionalContext', () => {
  for (const event of CONTEXT_EVENTS) {
    test(`${event} carries context as hookSpecificOutput.additionalContext`, () => {
      assert.deepEqual(parse(renderHookOutput(event, { context: 'Context is at 72%.' })), {
        hookSpecificOutput: { hookEventName: event, additionalContext: 'Context is at 72%.' },
      });
    });
  }

  test('other events drop the context', () => {
    for (const event of NO_CONTEXT_EVENTS) {
      assert.equal(renderHookOutput(event, { context: 'ignored' }), '', event);
    }
  });

  test('context and a user message go out together on one line', () => {
    const line = renderHookOutput('PostToolUse', { context: 'for the model', userMessage: 'hi' });
    assert.ok(!line.includes('\n'));
    assert.deepEqual(parse(line), {
      hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'for the model' },
      systemMessage: 'hi',
    });
  });
});

describe('renderHookOutput: systemMessage', () => {
  test('is shown for the events that display it', () => {
    for (const event of [...CONTEXT_EVENTS, 'Stop']) {
      assert.deepEqual(parse(renderHookOutput(event, { userMessage: 'shim: saved' })), {
        systemMessage: 'shim: saved',
      });
    }
  });

  test('is not sent for PreCompact, PostCompact and SessionEnd', () => {
    for (const event of SILENT_EVENTS) {
      assert.equal(renderHookOutput(event, { userMessage: 'shim: saved' }), '', event);
      assert.equal(renderHookOutput(event, { userMessage: 'x', context: 'y' }), '', event);
    }
  });
});

describe('renderHookOutput: limits and empty output', () => {
  test('nothing to say is an empty string', () => {
    assert.equal(renderHookOutput('PostToolUse', {}), '');
    assert.equal(renderHookOutput('PostToolUse', { context: null, userMessage: null }), '');
    assert.equal(renderHookOutput('PostToolUse', { context: '', userMessage: '' }), '');
    assert.equal(renderHookOutput('Stop', {}), '');
  });

  test('text up to the limit passes unchanged', () => {
    const text = 'x'.repeat(HOOK_TEXT_LIMIT);
    const json = parse(renderHookOutput('SessionStart', { context: text, userMessage: text }));
    assert.equal(json.systemMessage, text);
    assert.deepEqual(json.hookSpecificOutput, {
      hookEventName: 'SessionStart',
      additionalContext: text,
    });
  });

  test('longer text is cut below the limit with a note saying so', () => {
    const text = 'abcdefghij'.repeat(1200); // 12,000 characters
    const json = parse(renderHookOutput('SessionStart', { context: text, userMessage: text }));
    const context = (json.hookSpecificOutput as { additionalContext: string }).additionalContext;
    for (const cut of [context, json.systemMessage as string]) {
      assert.ok(cut.length <= HOOK_TEXT_LIMIT, `${cut.length} characters`);
      assert.ok(cut.length < 10_000);
      assert.ok(cut.endsWith('\n… (cut to fit the hook output limit)'));
      assert.ok(text.startsWith(cut.slice(0, cut.indexOf('\n…'))));
      assert.ok(cut.indexOf('\n…') > HOOK_TEXT_LIMIT - 100);
    }
  });
});
