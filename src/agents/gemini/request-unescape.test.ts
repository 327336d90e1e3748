import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  mayHoldShimBlock,
  renderBeforeModelAnswer,
  unescapeShimBlocks,
  type GeminiRequestMessage,
} from './request-unescape.ts';

/** What Gemini CLI 0.61.0 does to a hook's additionalContext (its getAdditionalContext). */
const escapeLikeGemini = (text: string) => text.replace(/</g, '&lt;').replace(/>/g, '&gt;');

const RESTORE = [
  '# The session was interrupted (shim checkpoint #3)',
  '',
  '```diff',
  '-if (a < b) return;',
  '+if (a > b) return <Lexer/>;',
  '```',
  '`echo $$ > lex.pid && sleep 1` was in flight.',
].join('\n');

const request = (first: string): GeminiRequestMessage[] => [
  { role: 'user', content: '<session_context>This is the Gemini CLI.</session_context>' },
  { role: 'user', content: `${first}\n\nCarry on` },
  { role: 'model', content: 'Picking up: a &gt; b stays as the model wrote it.' },
  { role: 'user', content: 'next &lt;prompt&gt;' },
];

test("shim's restore gets its < and > back; the messages after it are not handed back", () => {
  const messages = request(`<hook_context>${escapeLikeGemini(RESTORE)}</hook_context>`);
  const out = unescapeShimBlocks(messages);
  assert.ok(out);
  assert.equal(out.length, 2, 'up to the last message it changed: the CLI keeps the rest as is');
  assert.equal(out[0], messages[0]);
  assert.equal(out[1]!.content, `<hook_context>${RESTORE}</hook_context>\n\nCarry on`);
});

test("another hook's block, and text outside the blocks, stay as the CLI made them", () => {
  const other = '<hook_context>lint says: a &gt; b</hook_context>';
  assert.equal(unescapeShimBlocks(request(other)), null);
  // Two hooks' contexts joined in one block (the CLI joins them with a newline): shim's heading
  // makes it shim's block, but the block's own tags stay escaped, so it cannot close early.
  const joined = `<hook_context>${escapeLikeGemini(`${RESTORE}\nquoted </hook_context> tag`)}</hook_context>`;
  const out = unescapeShimBlocks(request(joined))!;
  assert.match(out[1]!.content, /\+if \(a > b\) return <Lexer\/>;/);
  assert.match(out[1]!.content, /quoted &lt;\/hook_context&gt; tag/);
});

test('the quick test before parsing: no restore heading or nothing escaped, no parse at all', () => {
  assert.equal(mayHoldShimBlock('{"llm_request":{"messages":[]}}'), false);
  assert.equal(mayHoldShimBlock('(shim checkpoint #3) with nothing escaped'), false);
  assert.equal(mayHoldShimBlock('(shim checkpoint #3) a &gt; b'), true);
});

test('the answer is BeforeModel’s llm_request with the changed messages; else nothing', () => {
  const payload = (messages: unknown) =>
    JSON.stringify({
      session_id: 's',
      hook_event_name: 'BeforeModel',
      llm_request: { model: 'gemini-2.5-pro', messages, config: {} },
    });
  const messages = request(`<hook_context>${escapeLikeGemini(RESTORE)}</hook_context>`);
  const answer = JSON.parse(renderBeforeModelAnswer(payload(messages))) as {
    hookSpecificOutput: { hookEventName: string; llm_request: Record<string, unknown> };
  };
  assert.equal(answer.hookSpecificOutput.hookEventName, 'BeforeModel');
  // Messages only: the model and its settings stay the CLI's.
  assert.deepEqual(Object.keys(answer.hookSpecificOutput.llm_request), ['messages']);
  assert.deepEqual(answer.hookSpecificOutput.llm_request.messages, unescapeShimBlocks(messages));
  assert.equal(renderBeforeModelAnswer(payload(request('no restore'))), '');
  for (const bad of [
    '',
    'not json (shim checkpoint #1) &gt;',
    payload('x (shim checkpoint #1) &gt;'),
  ])
    assert.equal(renderBeforeModelAnswer(bad), '');
  assert.equal(
    renderBeforeModelAnswer(payload([{ role: 'user', content: 7 }, escapeLikeGemini(RESTORE)])),
    '',
  );
});
