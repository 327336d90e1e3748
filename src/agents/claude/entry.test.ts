import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  apiErrorLine,
  assistantLine,
  compactBoundaryLine,
  microcompactBoundaryLine,
  SESSION_ID,
  toolResultLine,
  toolUseBlock,
  userPromptLine,
} from '../../../test/helpers/transcript-builders.ts';
import { getContextTokens, parseTimestamp, readEntry, readUsage } from './entry.ts';

const TIMESTAMP = '2026-02-12T20:30:28.504Z';
const AT = Date.parse(TIMESTAMP);

/** The envelope every builder line carries, as readEntry reports it. */
const ENVELOPE = {
  sessionId: SESSION_ID,
  cwd: '/home/user/project',
  gitBranch: 'main',
  cliVersion: '2.1.39',
  slug: 'radiant-floating-music',
  at: AT,
  sidechain: false,
};

const NO_ENVELOPE = {
  sessionId: null,
  cwd: null,
  gitBranch: null,
  cliVersion: null,
  slug: null,
  at: null,
  sidechain: false,
};

describe('readEntry', () => {
  it('reads an assistant line with usage, text and a tool_use block', () => {
    const raw = assistantLine({
      id: 'msg_01',
      requestId: 'req_01',
      timestamp: TIMESTAMP,
      usage: { input: 3, cacheCreation: 13835, cacheRead: 11515, output: 13 },
      content: [
        { type: 'thinking', thinking: 'hmm', signature: 'sig' },
        { type: 'text', text: 'Let me check.' },
        toolUseBlock('toolu_01', 'Bash', { command: 'ls' }),
      ],
    });
    assert.deepEqual(readEntry(raw), {
      ...ENVELOPE,
      kind: 'assistant',
      key: 'msg_01:req_01',
      model: 'claude-opus-4-6',
      usage: { input: 3, cacheCreation: 13835, cacheRead: 11515, output: 13, cleared: 0 },
      synthetic: false,
      apiError: false,
      text: 'Let me check.',
      toolUses: [{ id: 'toolu_01', name: 'Bash', input: { command: 'ls' } }],
    });
  });

  it('reads a sidechain assistant line as such', () => {
    const entry = readEntry(assistantLine({ id: 'msg_02', sidechain: true }));
    assert.equal(entry.sidechain, true);
  });

  it('marks a <synthetic> API error message as synthetic and as an api error', () => {
    const raw = assistantLine({
      id: 'f3c1b8a4-0000-4000-8000-000000000001',
      requestId: 'ignored',
      model: '<synthetic>',
      timestamp: TIMESTAMP,
      usage: { input: 0, cacheCreation: 0, cacheRead: 0, output: 0 },
      content: [{ type: 'text', text: 'API Error: 529 {"type":"error"}' }],
      extra: { isApiErrorMessage: true },
    });
    assert.deepEqual(readEntry(raw), {
      ...ENVELOPE,
      kind: 'assistant',
      key: 'f3c1b8a4-0000-4000-8000-000000000001:ignored',
      model: '<synthetic>',
      usage: { input: 0, cacheCreation: 0, cacheRead: 0, output: 0, cleared: 0 },
      synthetic: true,
      apiError: true,
      text: 'API Error: 529 {"type":"error"}',
      toolUses: [],
    });
  });

  it('reads a typed prompt as a user entry with its text', () => {
    const raw = userPromptLine('mix phx.server doesnt seem to start', { timestamp: TIMESTAMP });
    assert.deepEqual(readEntry(raw), {
      ...ENVELOPE,
      kind: 'user',
      isMeta: false,
      isCompactSummary: false,
      text: 'mix phx.server doesnt seem to start',
      toolResults: [],
      toolUseResult: undefined,
      contentChars: 35,
    });
  });

  it('joins the text blocks of a user message and flags meta and compact-summary entries', () => {
    const raw = {
      ...userPromptLine('', { timestamp: TIMESTAMP }),
      isMeta: true,
      isCompactSummary: true,
      message: {
        role: 'user',
        content: [
          { type: 'text', text: 'ab' },
          { type: 'image', source: {} },
          { type: 'text', text: 'cd' },
        ],
      },
    };
    assert.deepEqual(readEntry(raw), {
      ...ENVELOPE,
      kind: 'user',
      isMeta: true,
      isCompactSummary: true,
      text: 'abcd',
      toolResults: [],
      toolUseResult: undefined,
      contentChars: 4 + 6000,
    });
  });

  it('reads a failed tool_result with its error flag, text and structured result', () => {
    const raw = toolResultLine({
      toolUseId: 'toolu_01',
      isError: true,
      content: 'Exit code 1\nboom',
      toolUseResult: 'Error: Exit code 1',
      timestamp: TIMESTAMP,
    });
    assert.deepEqual(readEntry(raw), {
      ...ENVELOPE,
      kind: 'user',
      isMeta: false,
      isCompactSummary: false,
      text: null,
      toolResults: [{ toolUseId: 'toolu_01', isError: true, text: 'Exit code 1\nboom', chars: 16 }],
      toolUseResult: 'Error: Exit code 1',
      contentChars: 16,
    });
  });

  it('reads a tool_result whose content is an array of text blocks', () => {
    const raw = toolResultLine({
      toolUseId: 'toolu_02',
      content: [
        { type: 'text', text: 'Prompt is too long' },
        { type: 'text', text: 'agentId: a7c88b9' },
      ],
    });
    const entry = readEntry(raw);
    assert.equal(entry.kind, 'user');
    assert.deepEqual(entry.toolResults, [
      {
        toolUseId: 'toolu_02',
        isError: false,
        text: 'Prompt is too long\nagentId: a7c88b9',
        chars: 34,
      },
    ]);
  });

  it('keeps at most 2000 characters of a tool result but counts all of them', () => {
    const raw = toolResultLine({ toolUseId: 'toolu_03', content: 'x'.repeat(50_000) });
    const entry = readEntry(raw);
    assert.equal(entry.kind, 'user');
    assert.equal(entry.toolResults[0]?.text.length, 2000);
    assert.equal(entry.toolResults[0]?.chars, 50_000);
    assert.equal(entry.contentChars, 50_000);
  });

  it('reads a compact_boundary with its trigger and preTokens', () => {
    const raw = compactBoundaryLine({ trigger: 'manual', preTokens: 163509, timestamp: TIMESTAMP });
    assert.deepEqual(readEntry(raw), {
      ...ENVELOPE,
      kind: 'compact',
      trigger: 'manual',
      preTokens: 163509,
      postTokens: null,
      precomputed: false,
      idle: false,
    });
  });

  it('reads 2.1.330 compact metadata: postTokens, precomputed, and an idle compaction', () => {
    const raw = {
      type: 'system',
      subtype: 'compact_boundary',
      content: 'Compacted while idle, before the prompt cache expired',
      compactMetadata: {
        trigger: 'auto',
        preTokens: 120_000,
        postTokens: 11_000,
        durationMs: 30_000,
        precomputed: true,
        preserved_segment: { head: 'a', tail: 'b' },
      },
    };
    const entry = readEntry(raw);
    assert.equal(entry.kind, 'compact');
    assert.deepEqual(
      entry.kind === 'compact' && [entry.postTokens, entry.precomputed, entry.idle],
      [11_000, true, true],
    );
  });

  it('reads a continued-in entry: the conversation moved to another session', () => {
    const entry = readEntry({ type: 'continued-in', continuedInSessionId: 'next-session' });
    assert.equal(entry.kind, 'continued');
    assert.equal(entry.kind === 'continued' && entry.continuedInSessionId, 'next-session');
  });

  it('skips entry types it does not know', () => {
    for (const type of ['cost-state', 'worktree-state', 'file-history-delta', 'ai-title'])
      assert.deepEqual(readEntry({ type, sessionId: 'x' }), {
        ...NO_ENVELOPE,
        sessionId: 'x',
        kind: 'other',
        type,
      });
  });

  it('reads postTokens and the older snake_case compact_metadata', () => {
    const raw = {
      type: 'system',
      subtype: 'compact_boundary',
      compact_metadata: { trigger: 'auto', pre_tokens: 170251, post_tokens: 9000 },
    };
    assert.deepEqual(readEntry(raw), {
      ...NO_ENVELOPE,
      kind: 'compact',
      trigger: 'auto',
      preTokens: 170251,
      postTokens: 9000,
      precomputed: false,
      idle: false,
    });
  });

  it('reads a microcompact_boundary with the tokens it saved', () => {
    const raw = microcompactBoundaryLine({
      preTokens: 58573,
      tokensSaved: 20801,
      timestamp: TIMESTAMP,
    });
    assert.deepEqual(readEntry(raw), { ...ENVELOPE, kind: 'microcompact', tokensSaved: 20801 });
  });

  it('reads a system api_error with its HTTP status and error type', () => {
    const raw = apiErrorLine({ status: 529, type: 'overloaded_error', timestamp: TIMESTAMP });
    assert.deepEqual(readEntry(raw), {
      ...ENVELOPE,
      kind: 'api_error',
      status: 529,
      message: 'overloaded_error',
    });
  });

  it('classifies an unknown entry type as other, keeping its type', () => {
    const raw = { type: 'progress', data: { type: 'hook_progress' }, sessionId: SESSION_ID };
    assert.deepEqual(readEntry(raw), {
      ...NO_ENVELOPE,
      sessionId: SESSION_ID,
      kind: 'other',
      type: 'progress',
    });
  });

  it('classifies a system entry of another subtype as other', () => {
    const entry = readEntry({ type: 'system', subtype: 'turn_duration', durationMs: 1234 });
    assert.deepEqual(entry, { ...NO_ENVELOPE, kind: 'other', type: 'system' });
  });

  const junk: [string, unknown][] = [
    ['null', null],
    ['undefined', undefined],
    ['a number', 42],
    ['a string', 'user'],
    ['an array', [{ type: 'user' }]],
    ['an assistant without a message', { type: 'assistant' }],
    ['a user whose message is a string', { type: 'user', message: 'hi' }],
    ['a user whose content is a number', { type: 'user', message: { content: 7 } }],
    [
      'a user with junk content blocks',
      { type: 'user', message: { content: [null, 1, 'x', { type: 'tool_result' }] } },
    ],
    [
      'an assistant with junk content and usage',
      { type: 'assistant', message: { content: [null, { type: 'tool_use' }], usage: 'lots' } },
    ],
    [
      'a compact_boundary with null metadata',
      { type: 'system', subtype: 'compact_boundary', compactMetadata: null },
    ],
    ['an api_error with a string error', { type: 'system', subtype: 'api_error', error: 'nope' }],
    ['a numeric type and a bad timestamp', { type: 5, timestamp: 'yesterday', isSidechain: 'yes' }],
  ];
  for (const [name, value] of junk) {
    it(`never throws on ${name}`, () => {
      const entry = readEntry(value);
      assert.ok(
        ['assistant', 'user', 'compact', 'microcompact', 'api_error', 'other'].includes(entry.kind),
      );
      assert.equal(entry.at, null);
    });
  }

  it('classifies a non-object line as other with no type', () => {
    assert.deepEqual(readEntry([1, 2]), { ...NO_ENVELOPE, kind: 'other', type: null });
  });

  it('reads an assistant line without a message as other, keeping its type', () => {
    assert.deepEqual(readEntry({ type: 'assistant', message: null }), {
      ...NO_ENVELOPE,
      kind: 'other',
      type: 'assistant',
    });
  });

  it('ignores tool_use blocks without an id and names nameless ones unknown', () => {
    const raw = assistantLine({
      id: 'msg_03',
      content: [
        { type: 'tool_use', name: 'Bash' },
        { type: 'tool_use', id: 'toolu_9' },
      ],
    });
    const entry = readEntry(raw);
    assert.equal(entry.kind, 'assistant');
    assert.deepEqual(entry.toolUses, [{ id: 'toolu_9', name: 'unknown', input: undefined }]);
  });
});

describe('readUsage', () => {
  it('treats missing and non-finite token counts as zero', () => {
    assert.deepEqual(
      readUsage({ input_tokens: 5, cache_read_input_tokens: Number.NaN, output_tokens: '9' }),
      {
        input: 5,
        cacheCreation: 0,
        cacheRead: 0,
        output: 0,
        cleared: 0,
      },
    );
  });

  it('adds the tokens the server cleared (context_management.applied_edits)', () => {
    const usage = readUsage(
      { input_tokens: 10, cache_read_input_tokens: 90_000, output_tokens: 5 },
      {
        applied_edits: [
          { type: 'clear_tool_uses_20250919', cleared_input_tokens: 30_000, cleared_tool_uses: 4 },
          { type: 'clear_thinking', cleared_input_tokens: 'x' },
        ],
      },
    );
    assert.equal(usage?.cleared, 30_000);
    assert.equal(getContextTokens(usage!), 120_010);
  });

  it('returns null when there is no usage object', () => {
    assert.equal(readUsage(undefined), null);
    assert.equal(readUsage([1]), null);
  });
});

describe('getContextTokens', () => {
  it('sums input, cache creation and cache read tokens but not output', () => {
    assert.equal(
      getContextTokens({
        input: 3,
        cacheCreation: 13835,
        cacheRead: 11515,
        output: 999,
        cleared: 0,
      }),
      25353,
    );
  });
});

describe('parseTimestamp', () => {
  it('parses an ISO timestamp to epoch milliseconds', () => {
    assert.equal(parseTimestamp(TIMESTAMP), AT);
  });

  it('returns null for an invalid or missing timestamp', () => {
    assert.equal(parseTimestamp('not a date'), null);
    assert.equal(parseTimestamp(1700000000000), null);
  });
});
