import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { createSessionState, LIMITS, type SessionState } from '../../core/session.ts';
import { fixturePath, listFixtures } from '../../../test/helpers/fixtures.ts';
import {
  assistantLine,
  compactBoundaryLine,
  toolResultLine,
  toolUseBlock,
  userPromptLine,
  type RawEntry,
} from '../../../test/helpers/transcript-builders.ts';
import { readEntry } from './entry.ts';
import { finalizeResponse, foldEntry } from './fold.ts';
import { readTranscript } from './transcript-reader.ts';

// --- An independent reading of the fixtures: plain JSON.parse, no shim code. ---

type Block = {
  type?: string;
  id?: string;
  name?: string;
  input?: { todos?: { content: string; status: string; activeForm?: string }[] };
  tool_use_id?: string;
};
type RawUsage = {
  input_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
};
type Raw = {
  type?: string;
  subtype?: string;
  isSidechain?: boolean;
  isMeta?: boolean;
  isCompactSummary?: boolean;
  requestId?: string;
  compactMetadata?: { trigger?: string; preTokens?: number };
  microcompactMetadata?: { tokensSaved?: number };
  toolUseResult?: {
    task?: { id?: string; subject?: string };
    statusChange?: { to?: string };
    taskId?: string;
  };
  message?: { id?: string; model?: string; usage?: RawUsage; content?: string | Block[] };
};
type RawLine = { line: number; entry: Raw };

const rawCache = new Map<string, RawLine[]>();
function rawLines(name: string): RawLine[] {
  let lines = rawCache.get(name);
  if (!lines) {
    lines = readFileSync(fixturePath(name), 'utf8')
      .split('\n')
      .filter((text) => text.length > 0)
      .map((text, i) => ({ line: i + 1, entry: JSON.parse(text) as Raw }));
    rawCache.set(name, lines);
  }
  return lines;
}

const blocks = (entry: Raw): Block[] =>
  Array.isArray(entry.message?.content) ? entry.message.content : [];

const isMain = (entry: Raw): boolean => entry.isSidechain !== true;

/** Main-chain, non-synthetic assistant lines that carry usage: the lines a response is made of. */
function responseLines(name: string): RawLine[] {
  return rawLines(name).filter(
    ({ entry }) =>
      entry.type === 'assistant' &&
      isMain(entry) &&
      entry.message?.model !== '<synthetic>' &&
      typeof entry.message?.usage === 'object',
  );
}

const contextOf = (entry: Raw): number => {
  const u = entry.message?.usage ?? {};
  return (
    (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0)
  );
};

const distinctIds = (lines: RawLine[]): number =>
  new Set(lines.map(({ entry }) => entry.message?.id)).size;

/** The first line of each distinct response, in file order. */
function firstLinesOfResponses(name: string): RawLine[] {
  const first = new Map<string, RawLine>();
  for (const l of responseLines(name)) {
    const id = l.entry.message?.id ?? '';
    if (!first.has(id)) first.set(id, l);
  }
  return [...first.values()];
}

/** Responses with a main-chain user line between two of their own lines. */
function interleavedResponses(name: string): number {
  const interleaved = new Set<string>();
  let lastId: string | undefined;
  let userSince = false;
  for (const { entry } of rawLines(name).filter(({ entry }) => isMain(entry))) {
    if (entry.type === 'user') userSince = true;
    if (entry.type !== 'assistant') continue;
    if (entry.message?.id === lastId && userSince) interleaved.add(lastId ?? '');
    lastId = entry.message?.id;
    userSince = false;
  }
  return interleaved.size;
}

/** Task list replayed from the TaskCreate / TaskUpdate results in the file. */
function replayTasks(name: string): { id: string; subject: string; status: string }[] {
  const toolNames = new Map<string, string>();
  const tasks = new Map<string, { id: string; subject: string; status: string }>();
  for (const { entry } of rawLines(name).filter(({ entry }) => isMain(entry))) {
    for (const b of blocks(entry)) {
      if (b.type === 'tool_use') toolNames.set(b.id ?? '', b.name ?? '');
    }
    const tool = toolNames.get(
      blocks(entry).find((b) => b.type === 'tool_result')?.tool_use_id ?? '',
    );
    const result = entry.toolUseResult;
    if (tool === 'TaskCreate' && result?.task?.id) {
      tasks.set(result.task.id, {
        id: result.task.id,
        subject: result.task.subject ?? '',
        status: 'pending',
      });
    }
    const updated = tasks.get(result?.taskId ?? '');
    if (tool === 'TaskUpdate' && updated && result?.statusChange?.to)
      updated.status = result.statusChange.to;
  }
  return [...tasks.values()];
}

// --- shim's reading, once per fixture. ---

const stateCache = new Map<string, SessionState>();
function foldFixture(name: string): SessionState {
  let state = stateCache.get(name);
  if (!state) {
    state = readTranscript(fixturePath(name), null, { finalize: true }).cursor.state;
    stateCache.set(name, state);
  }
  return state;
}

const FIXTURES = listFixtures();
const MAIN_CHAIN_FIXTURES = FIXTURES.filter((name) => !name.includes('subagent-acompact'));

/** From SOURCES.md: each compaction's trigger, preTokens and the last context size before it. */
const COMPACTIONS: Record<
  string,
  { trigger: string; preTokens: number; lastContextTokens?: number }[]
> = {
  'spotter-4d5611e5-auto-compact-v2.1.39.jsonl': [
    { trigger: 'auto', preTokens: 170251, lastContextTokens: 164831 },
  ],
  'entire-2372de7ea2ff-auto-compact-155k-todowrite-v2.1.5.jsonl': [
    { trigger: 'auto', preTokens: 158105, lastContextTokens: 155015 },
  ],
  'entire-b02936744f3b-2x-auto-compact-api-errors-v2.1.5.jsonl': [
    { trigger: 'auto', preTokens: 155829 },
    { trigger: 'auto', preTokens: 155203 },
  ],
  'entire-9b04c3d92e38-auto-compact-167k-taskcreate-v2.1.39.jsonl': [
    { trigger: 'auto', preTokens: 167361, lastContextTokens: 167213 },
  ],
  'entire-ed51f6581660-auto-compact-v2.1.42.jsonl': [
    { trigger: 'auto', preTokens: 170485, lastContextTokens: 167543 },
  ],
  'entire-649d11045222-manual-compact-v2.1.25.jsonl': [{ trigger: 'manual', preTokens: 163509 }],
};

describe('folding the real fixtures', () => {
  describe('counts each streamed response once', () => {
    for (const name of FIXTURES) {
      it(`in ${name}`, () => {
        assert.equal(foldFixture(name).turns, distinctIds(responseLines(name)));
      });
    }
  });

  it('needs the de-duplication: responses are streamed over more lines than there are responses', () => {
    const name = 'spotter-4d5611e5-auto-compact-v2.1.39.jsonl';
    const state = foldFixture(name);
    assert.equal(state.turns, 139);
    assert.ok(responseLines(name).length > 200);
  });

  it('counts a response once even when its lines are interleaved with tool results', () => {
    const name = 'entire-6d63c3a51594-subagent-prompt-too-long-v2.1.37.jsonl';
    const interleaved = interleavedResponses(name);
    assert.ok(interleaved > 10, `${interleaved} interleaved responses`);
    assert.equal(foldFixture(name).turns, distinctIds(responseLines(name)));
  });

  describe('reports the context of the last main-chain response as input + cache creation + cache read', () => {
    for (const name of MAIN_CHAIN_FIXTURES) {
      it(`in ${name}`, () => {
        const last = responseLines(name).at(-1)!;
        const state = foldFixture(name);
        assert.equal(state.lastResponse?.contextTokens, contextOf(last.entry));
        assert.equal(state.lastResponse?.lastLine, last.line);
        assert.equal(state.current, null);
      });
    }
  });

  it('keeps the latest post-compaction responses, each starting at its first line with its context', () => {
    const name = 'spotter-4d5611e5-auto-compact-v2.1.39.jsonl';
    const expected = firstLinesOfResponses(name)
      .filter(({ line }) => line > 754)
      .slice(-LIMITS.responses)
      .map(({ line, entry }) => ({ firstLine: line, contextTokens: contextOf(entry) }));
    const actual = foldFixture(name).responses.map((r) => ({
      firstLine: r.firstLine,
      contextTokens: r.contextTokens,
    }));
    assert.deepEqual(actual, expected);
  });

  it('does not count a subagent transcript, all sidechain, as main-chain turns', () => {
    const state = foldFixture('spotter-4d5611e5-subagent-acompact-e1f845.jsonl');
    assert.equal(state.turns, 0);
    assert.equal(state.sidechainResponses, 1);
    assert.equal(state.lastResponse, null);
    assert.equal(state.userMessages, 0);
  });

  it('records the spotter auto compaction at line 754 with preTokens 170251', () => {
    const state = foldFixture('spotter-4d5611e5-auto-compact-v2.1.39.jsonl');
    assert.equal(state.compactionCount, 1);
    assert.deepEqual(
      state.compactions.map((c) => [c.line, c.trigger, c.preTokens, c.postTokens]),
      [[754, 'auto', 170251, null]],
    );
    assert.equal(state.compactions[0]?.cliVersion, '2.1.39');
    assert.equal(state.compactions[0]?.model, 'claude-opus-4-6');
    assert.equal(state.lastCompactSummaryLine, 755);
  });

  it('records both auto compactions of entire-b029… with preTokens 155829 and 155203', () => {
    const state = foldFixture('entire-b02936744f3b-2x-auto-compact-api-errors-v2.1.5.jsonl');
    assert.equal(state.compactionCount, 2);
    assert.deepEqual(
      state.compactions.map((c) => [c.trigger, c.preTokens]),
      [
        ['auto', 155829],
        ['auto', 155203],
      ],
    );
  });

  describe('records every compaction at its boundary line, with what the monitor saw before it', () => {
    for (const name of FIXTURES) {
      it(`in ${name}`, () => {
        const lines = rawLines(name);
        const boundaries = lines.filter(
          ({ entry }) => entry.subtype === 'compact_boundary' && isMain(entry),
        );
        const responses = responseLines(name);
        const expected = boundaries.map(({ line, entry }, i) => {
          const before = responses.filter((r) => r.line < line);
          const known = COMPACTIONS[name]?.[i];
          return {
            line,
            trigger: known?.trigger,
            preTokens: known?.preTokens,
            lastContextTokens: known?.lastContextTokens ?? contextOf(before.at(-1)!.entry),
            afterTurn: distinctIds(before),
            rawPreTokens: entry.compactMetadata?.preTokens,
          };
        });
        const actual = foldFixture(name).compactions.map((c) => ({
          line: c.line,
          trigger: c.trigger,
          preTokens: c.preTokens,
          lastContextTokens: c.lastContextTokens,
          afterTurn: c.afterTurn,
          rawPreTokens: c.preTokens,
        }));
        assert.deepEqual(actual, expected);
        assert.equal(actual.length, COMPACTIONS[name]?.length ?? 0);
      });
    }
  });

  it('keeps only the responses after the last compaction in the responses window', () => {
    const state = foldFixture('entire-b02936744f3b-2x-auto-compact-api-errors-v2.1.5.jsonl');
    const lastBoundary = state.compactions.at(-1)!.line;
    assert.ok(state.responses.length > 0);
    assert.ok(state.responses.every((r) => r.firstLine > lastBoundary));
  });

  it('counts the subagent "Prompt is too long" tool result and lists it among the error patterns', () => {
    const name = 'entire-6d63c3a51594-subagent-prompt-too-long-v2.1.37.jsonl';
    const counts: { line: number; count: number }[] = [];
    readTranscript(fixturePath(name), null, {
      onEntry: (_entry, line, state) => counts.push({ line, count: state.promptTooLongCount }),
    });
    const seenAt = counts
      .filter((c, i) => c.count !== (counts[i - 1]?.count ?? 0))
      .map((c) => c.line);
    const state = foldFixture(name);
    assert.deepEqual(seenAt, [256]);
    assert.equal(state.promptTooLongCount, 1);
    assert.ok(
      state.errorPatterns.includes('prompt_too_long (subagent)'),
      String(state.errorPatterns),
    );
  });

  it('counts all 29 api_error retries of entire-b029… and keeps the latest ten', () => {
    const name = 'entire-b02936744f3b-2x-auto-compact-api-errors-v2.1.5.jsonl';
    const apiErrorLines = rawLines(name)
      .filter(({ entry }) => entry.subtype === 'api_error')
      .map(({ line }) => line);
    const state = foldFixture(name);
    assert.equal(apiErrorLines.length, 29);
    assert.equal(state.apiErrorCount, 29);
    assert.deepEqual(
      state.apiErrors.map((e) => e.line),
      apiErrorLines.slice(-10),
    );
    assert.ok(state.apiErrors.every((e) => e.status === 529 && e.message === 'overloaded_error'));
    assert.ok(
      state.errorPatterns.includes('api_error 529 overloaded_error'),
      String(state.errorPatterns),
    );
  });

  it('notes the <synthetic> API error message as an error without counting it as a turn', () => {
    const state = foldFixture('entire-b02936744f3b-2x-auto-compact-api-errors-v2.1.5.jsonl');
    assert.ok(
      state.errorPatterns.some((p) => p.startsWith('api_error: API Error: 529')),
      String(state.errorPatterns),
    );
  });

  describe('keeps the todo list of the last TodoWrite call', () => {
    for (const name of [
      'entire-2372de7ea2ff-auto-compact-155k-todowrite-v2.1.5.jsonl',
      'entire-d599f72ee73a-microcompact-todowrite-v2.1.12.jsonl',
    ]) {
      it(`in ${name}`, () => {
        const calls = rawLines(name)
          .filter(({ entry }) => entry.type === 'assistant' && isMain(entry))
          .flatMap(({ entry }) =>
            blocks(entry).filter((b) => b.type === 'tool_use' && b.name === 'TodoWrite'),
          );
        const lastTodos = calls.at(-1)?.input?.todos ?? [];
        assert.ok(lastTodos.length > 0);
        assert.deepEqual(
          foldFixture(name).todos,
          lastTodos.map((t) => ({
            content: t.content,
            status: t.status,
            activeForm: t.activeForm,
          })),
        );
      });
    }
  });

  describe('keeps the final state of TaskCreate/TaskUpdate tasks', () => {
    for (const name of [
      'entire-6d63c3a51594-subagent-prompt-too-long-v2.1.37.jsonl',
      'entire-9b04c3d92e38-auto-compact-167k-taskcreate-v2.1.39.jsonl',
      'entire-ed51f6581660-auto-compact-v2.1.42.jsonl',
    ]) {
      it(`in ${name}`, () => {
        const tasks = replayTasks(name);
        assert.ok(tasks.length >= 2);
        assert.deepEqual(
          foldFixture(name).tasks.map((t) => ({ id: t.id, subject: t.subject, status: t.status })),
          tasks,
        );
      });
    }
  });

  it('ends entire-9b04… with tasks 1–4 completed and task 5 in progress', () => {
    const state = foldFixture('entire-9b04c3d92e38-auto-compact-167k-taskcreate-v2.1.39.jsonl');
    assert.deepEqual(
      state.tasks.map((t) => [t.id, t.status]),
      [
        ['1', 'completed'],
        ['2', 'completed'],
        ['3', 'completed'],
        ['4', 'completed'],
        ['5', 'in_progress'],
      ],
    );
    assert.ok(state.tasks.every((t) => t.subject.length > 0 && (t.description?.length ?? 0) > 0));
  });

  describe('pairs every tool call with its result, leaving only the unanswered ones pending', () => {
    for (const name of FIXTURES) {
      it(`in ${name}`, () => {
        const main = rawLines(name).filter(({ entry }) => isMain(entry));
        const answered = new Set(
          main.flatMap(({ entry }) =>
            entry.type === 'user'
              ? blocks(entry)
                  .filter((b) => b.type === 'tool_result')
                  .map((b) => b.tool_use_id)
              : [],
          ),
        );
        const unanswered = main.flatMap(({ line, entry }) =>
          entry.type === 'assistant'
            ? blocks(entry)
                .filter((b) => b.type === 'tool_use' && !answered.has(b.id))
                .map((b) => [b.id, line])
            : [],
        );
        const state = foldFixture(name);
        assert.deepEqual(
          state.pendingTools.map((p) => [p.id, p.line]),
          unanswered,
        );
        const results = main.flatMap(({ entry }) =>
          entry.type === 'user' ? blocks(entry).filter((b) => b.type === 'tool_result') : [],
        );
        assert.equal(state.toolCalls, results.length);
      });
    }
  });

  it('leaves the two genuinely unanswered calls of entire-ed51… pending', () => {
    const state = foldFixture('entire-ed51f6581660-auto-compact-v2.1.42.jsonl');
    assert.deepEqual(
      state.pendingTools.map((p) => [p.tool, p.line]),
      [
        ['Read', 392],
        ['Bash', 539],
      ],
    );
  });

  it('names the tool of each recent result from its call', () => {
    const state = foldFixture('spotter-short-v2.1.38.jsonl');
    assert.deepEqual(
      state.recentTools.map((t) => [t.tool, t.success, t.line]),
      [
        ['Bash', false, 11],
        ['Glob', false, 12],
      ],
    );
    assert.equal(state.toolFailures, 2);
    assert.equal(state.consecutiveToolFailures, 2);
  });

  it('lists typed prompts and slash commands but not tool results, meta entries, command output or the compact summary', () => {
    const state = foldFixture('entire-649d11045222-manual-compact-v2.1.25.jsonl');
    assert.deepEqual(
      state.prompts.map((p) => [p.line, p.text.slice(0, 30)]),
      [
        [4, 'need to confirm a few things f'],
        [55, 'and are we sure that the full.'],
        [127, 'for explain, the prompts we sh'],
        [322, "/compact let's do a review"],
        [329, "let's review the code we've cr"],
      ],
    );
    assert.equal(state.promptCount, 5);
    assert.equal(state.lastCompactSummaryLine, 320);
  });

  describe('never takes a tool result, meta entry or compact summary for a prompt', () => {
    for (const name of FIXTURES) {
      it(`in ${name}`, () => {
        const byLine = new Map(rawLines(name).map(({ line, entry }) => [line, entry]));
        const state = foldFixture(name);
        for (const prompt of state.prompts) {
          const entry = byLine.get(prompt.line);
          assert.equal(entry?.type, 'user');
          assert.notEqual(entry?.isMeta, true);
          assert.notEqual(entry?.isCompactSummary, true);
          assert.ok(!blocks(entry ?? {}).some((b) => b.type === 'tool_result'));
        }
      });
    }
  });

  it('skips "[Request interrupted…]" markers when listing prompts', () => {
    const state = foldFixture('spotter-short-v2.1.38.jsonl');
    assert.deepEqual(
      state.prompts.map((p) => [p.line, p.text]),
      [[4, 'mix phx.server doesnt seem to start']],
    );
  });

  it('counts the microcompaction of entire-d599… and the tokens it saved', () => {
    const name = 'entire-d599f72ee73a-microcompact-todowrite-v2.1.12.jsonl';
    const boundary = rawLines(name).find(({ entry }) => entry.subtype === 'microcompact_boundary')!;
    const state = foldFixture(name);
    assert.equal(state.microcompactions, 1);
    assert.equal(state.microcompactTokensSaved, 20801);
    assert.equal(state.compactionCount, 0);
    assert.ok(state.responses.length > 0);
    assert.ok(state.responses.every((r) => r.firstLine > boundary.line));
  });

  it('counts no microcompaction where there is none', () => {
    const state = foldFixture('spotter-4d5611e5-auto-compact-v2.1.39.jsonl');
    assert.equal(state.microcompactions, 0);
    assert.equal(state.microcompactTokensSaved, 0);
  });

  it('takes session metadata from the main chain', () => {
    const state = foldFixture('spotter-short-v2.1.38.jsonl');
    assert.equal(state.sessionId, '55604662-cf2a-4331-851a-ec234028f8ca');
    assert.equal(state.cwd, '/home/marco/projects/spotter');
    assert.equal(state.gitBranch, 'master');
    assert.equal(state.cliVersion, '2.1.38');
    assert.equal(state.model, 'claude-opus-4-6');
    assert.equal(state.startedAt, Date.parse('2026-02-10T21:11:52.438Z'));
    assert.equal(state.lastActivityAt, Date.parse('2026-02-10T21:16:12.381Z'));
  });
});

// --- Small hand-built sequences for what the fixtures show only in passing. ---

function foldAll(entries: RawEntry[]): SessionState {
  const state = createSessionState('claude');
  entries.forEach((raw, i) => foldEntry(state, readEntry(raw), i + 1));
  return state;
}

describe('foldEntry', () => {
  it('extends the streaming response across interleaved tool results and finalizes it on the next one', () => {
    const state = foldAll([
      userPromptLine('go', { timestamp: '2026-01-01T00:00:00.000Z' }),
      assistantLine({
        id: 'msg_a',
        timestamp: '2026-01-01T00:00:02.000Z',
        usage: { input: 1, cacheRead: 1000, output: 5 },
        content: [toolUseBlock('toolu_1', 'Read', { file_path: '/a' })],
      }),
      toolResultLine({ toolUseId: 'toolu_1', content: 'A' }),
      assistantLine({
        id: 'msg_a',
        usage: { input: 1, cacheRead: 1000, output: 40 },
        content: [toolUseBlock('toolu_2', 'Read', { file_path: '/b' })],
      }),
      toolResultLine({ toolUseId: 'toolu_2', content: 'B' }),
      assistantLine({ id: 'msg_b', usage: { input: 1, cacheRead: 1200, output: 7 } }),
    ]);
    assert.equal(state.turns, 2);
    assert.deepEqual(state.responses, [
      {
        turn: 1,
        firstLine: 2,
        lastLine: 4,
        contextTokens: 1001,
        outputTokens: 40,
        at: Date.parse('2026-01-01T00:00:02.000Z'),
        model: 'claude-opus-4-6',
        latencyMs: 2000,
      },
    ]);
    assert.equal(state.current?.contextTokens, 1201);
    assert.deepEqual(state.pendingTools, []);
    assert.equal(state.toolCalls, 2);
  });

  it('does not count a response with zero context tokens as a turn', () => {
    const state = foldAll([assistantLine({ id: 'msg_z', usage: { input: 0, output: 0 } })]);
    assert.equal(state.turns, 0);
    assert.equal(state.current, null);
  });

  it('finalizes the streaming response at a compaction and records what it saw', () => {
    const state = foldAll([
      assistantLine({ id: 'msg_a', usage: { input: 1, cacheRead: 150_000 } }),
      compactBoundaryLine({ trigger: 'auto', preTokens: 151_000 }),
    ]);
    assert.equal(state.current, null);
    assert.deepEqual(state.responses, []);
    assert.equal(state.lastResponse?.contextTokens, 150_001);
    assert.equal(state.compactions[0]?.lastContextTokens, 150_001);
    assert.equal(state.compactions[0]?.afterTurn, 1);
    assert.equal(state.postCompactTokens, 0);
  });

  it('lets finalizeResponse complete the streaming response only once', () => {
    const state = foldAll([assistantLine({ id: 'msg_a' })]);
    const seen: number[] = [];
    finalizeResponse(state, { onResponse: (r) => seen.push(r.turn) });
    finalizeResponse(state, { onResponse: (r) => seen.push(r.turn) });
    assert.deepEqual(seen, [1]);
    assert.equal(state.responses.length, 1);
  });

  it('applies a TaskUpdate whose result arrives to a task created earlier', () => {
    const state = foldAll([
      assistantLine({
        id: 'msg_a',
        content: [
          toolUseBlock('toolu_c', 'TaskCreate', {
            subject: 'Write tests',
            description: 'all of them',
          }),
        ],
      }),
      toolResultLine({
        toolUseId: 'toolu_c',
        content: 'Task #1 created successfully: Write tests',
        toolUseResult: { task: { id: '1', subject: 'Write tests' } },
      }),
      assistantLine({
        id: 'msg_b',
        content: [toolUseBlock('toolu_u', 'TaskUpdate', { taskId: '1', status: 'in_progress' })],
      }),
      toolResultLine({
        toolUseId: 'toolu_u',
        content: 'Updated task #1 status',
        toolUseResult: {
          success: true,
          taskId: '1',
          statusChange: { from: 'pending', to: 'in_progress' },
        },
      }),
    ]);
    assert.deepEqual(state.tasks, [
      { id: '1', subject: 'Write tests', status: 'in_progress', description: 'all of them' },
    ]);
  });

  it('ignores sidechain tool calls and results', () => {
    const state = foldAll([
      assistantLine({
        id: 'msg_s',
        sidechain: true,
        content: [toolUseBlock('toolu_s', 'Bash', {})],
      }),
      toolResultLine({ toolUseId: 'toolu_s', content: 'x', isError: true, sidechain: true }),
    ]);
    assert.deepEqual(state.pendingTools, []);
    assert.equal(state.toolCalls, 0);
    assert.equal(state.toolFailures, 0);
    assert.equal(state.sidechainResponses, 1);
  });
});
