/**
 * Minimal transcript entries shaped like real Claude Code lines (field names and nesting copied
 * from the fixtures), for tests that need a line the fixtures do not contain.
 */

export type RawEntry = Record<string, unknown>;

export const SESSION_ID = '55604662-cf2a-4331-851a-ec234028f8ca';

type EnvelopeOptions = {
  uuid?: string;
  timestamp?: string;
  sidechain?: boolean;
  extra?: RawEntry;
};

let counter = 0;

function envelope(options: EnvelopeOptions): RawEntry {
  counter++;
  return {
    parentUuid: null,
    isSidechain: options.sidechain ?? false,
    userType: 'external',
    cwd: '/home/user/project',
    sessionId: SESSION_ID,
    version: '2.1.39',
    gitBranch: 'main',
    slug: 'radiant-floating-music',
    uuid: options.uuid ?? `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    timestamp: options.timestamp ?? '2026-02-12T20:30:28.504Z',
    ...options.extra,
  };
}

export type UsageInput = {
  input?: number;
  cacheCreation?: number;
  cacheRead?: number;
  output?: number;
};

/** One streamed line of an assistant response (a single content block, as Claude Code writes). */
export function assistantLine(
  options: EnvelopeOptions & {
    id: string;
    requestId?: string;
    model?: string;
    content?: unknown[];
    usage?: UsageInput;
  },
): RawEntry {
  const usage = options.usage ?? { input: 3, cacheCreation: 1000, cacheRead: 20000, output: 10 };
  return {
    ...envelope(options),
    type: 'assistant',
    requestId: options.requestId ?? `req_${options.id}`,
    message: {
      model: options.model ?? 'claude-opus-4-6',
      id: options.id,
      type: 'message',
      role: 'assistant',
      content: options.content ?? [{ type: 'text', text: 'ok' }],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: usage.input ?? 0,
        cache_creation_input_tokens: usage.cacheCreation ?? 0,
        cache_read_input_tokens: usage.cacheRead ?? 0,
        output_tokens: usage.output ?? 0,
        service_tier: 'standard',
      },
    },
  };
}

export function toolUseBlock(id: string, name: string, input: unknown): RawEntry {
  return { type: 'tool_use', id, name, input, caller: { type: 'direct' } };
}

/** A user message typed at the prompt (string content, as Claude Code writes prompts). */
export function userPromptLine(text: string, options: EnvelopeOptions = {}): RawEntry {
  return {
    ...envelope(options),
    type: 'user',
    message: { role: 'user', content: text },
    permissionMode: 'default',
  };
}

export function toolResultLine(
  options: EnvelopeOptions & {
    toolUseId: string;
    content: unknown;
    isError?: boolean;
    toolUseResult?: unknown;
  },
): RawEntry {
  const block: RawEntry = {
    tool_use_id: options.toolUseId,
    type: 'tool_result',
    content: options.content,
  };
  if (options.isError !== undefined) block.is_error = options.isError;
  const entry: RawEntry = {
    ...envelope(options),
    type: 'user',
    message: { role: 'user', content: [block] },
  };
  if (options.toolUseResult !== undefined) entry.toolUseResult = options.toolUseResult;
  return entry;
}

export function compactBoundaryLine(
  options: EnvelopeOptions & { trigger: 'auto' | 'manual'; preTokens: number },
): RawEntry {
  return {
    ...envelope(options),
    parentUuid: null,
    logicalParentUuid: '459e838f-0000-4000-8000-000000000000',
    type: 'system',
    subtype: 'compact_boundary',
    content: 'Conversation compacted',
    isMeta: false,
    level: 'info',
    compactMetadata: { trigger: options.trigger, preTokens: options.preTokens },
  };
}

export function microcompactBoundaryLine(
  options: EnvelopeOptions & { preTokens: number; tokensSaved: number },
): RawEntry {
  return {
    ...envelope(options),
    type: 'system',
    subtype: 'microcompact_boundary',
    content: 'Context microcompacted',
    isMeta: false,
    level: 'info',
    microcompactMetadata: {
      trigger: 'auto',
      preTokens: options.preTokens,
      tokensSaved: options.tokensSaved,
      compactedToolIds: ['toolu_01'],
      clearedAttachmentUUIDs: [],
    },
  };
}

/** A `system/api_error` retry entry as Claude Code v2.1.5 wrote it (HTTP 529 overloaded). */
export function apiErrorLine(
  options: EnvelopeOptions & { status: number; type: string },
): RawEntry {
  return {
    ...envelope(options),
    type: 'system',
    subtype: 'api_error',
    level: 'error',
    error: {
      status: options.status,
      headers: { 'x-should-retry': 'true' },
      requestID: 'req_011CX78UXorYWagzw8sZE6NQ',
      error: {
        type: 'error',
        error: { type: options.type, message: 'Overloaded' },
        request_id: 'req_011CX78UXorYWagzw8sZE6NQ',
      },
    },
    retryInMs: 545.2,
    retryAttempt: 1,
    maxRetries: 10,
  };
}

/** Entries as JSONL text: one JSON document per line, each ending in a newline. */
export function toJsonl(entries: readonly unknown[]): string {
  return entries.map((e) => `${JSON.stringify(e)}\n`).join('');
}

/** A small deterministic PRNG (mulberry32), so random-looking tests replay exactly. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The user entry Claude Code writes after a compact boundary, holding its summary. */
export function compactSummaryLine(summary: string, options: EnvelopeOptions = {}): RawEntry {
  return {
    ...envelope(options),
    type: 'user',
    isCompactSummary: true,
    isVisibleInTranscriptOnly: true,
    message: {
      role: 'user',
      content: `This session is being continued from a previous conversation that ran out of context. Summary:\n${summary}`,
    },
  };
}

/**
 * A long session: `requests` user requests, each answered by a Bash call and its result, with an
 * auto compaction after every `compactEvery` requests (Claude Code's summary keeps only the
 * newest request, as the real ones often do). Requests are long and distinct.
 */
export function buildLongSession(options: {
  requests: number;
  compactEvery: number;
  requestText?: (i: number) => string;
}): RawEntry[] {
  const text =
    options.requestText ??
    ((i: number) =>
      `Request ${i + 1}: please change module-${i + 1} so that it validates its input and reports errors with line numbers; ${'keep the public API unchanged and document the change. '.repeat(6)}`);
  const entries: RawEntry[] = [];
  let context = 20_000;
  for (let i = 0; i < options.requests; i++) {
    const at = new Date(Date.parse('2026-03-01T10:00:00.000Z') + i * 60_000).toISOString();
    entries.push(userPromptLine(text(i), { timestamp: at }));
    context += 9_000;
    entries.push(
      assistantLine({
        id: `msg_long_${i}`,
        timestamp: at,
        usage: { input: 10, cacheRead: context, output: 50 },
        content: [toolUseBlock(`toolu_long_${i}`, 'Bash', { command: `echo step ${i + 1}` })],
      }),
    );
    entries.push(
      toolResultLine({ toolUseId: `toolu_long_${i}`, content: `step ${i + 1}`, timestamp: at }),
    );
    if ((i + 1) % options.compactEvery === 0 && i + 1 < options.requests) {
      entries.push(compactBoundaryLine({ trigger: 'auto', preTokens: context, timestamp: at }));
      entries.push(
        compactSummaryLine(`The user last asked: ${text(i).slice(0, 80)}`, { timestamp: at }),
      );
      context = 30_000;
    }
  }
  return entries;
}

/** A response of `context` tokens calling `tool` (id `toolu_<n>`), and the tool's result. */
export function toolCallLines(
  n: number,
  context: number,
  tool: string,
  input: unknown,
): RawEntry[] {
  return [
    assistantLine({
      id: `msg_${n}`,
      usage: { input: 5, cacheCreation: 0, cacheRead: context - 5, output: 30 },
      content: [toolUseBlock(`toolu_${n}`, tool, input)],
    }),
    toolResultLine({ toolUseId: `toolu_${n}`, content: 'ok' }),
  ];
}

/** TodoWrite's input for a two-item list in the given states. */
export function twoTodos(first: string, second: string): unknown {
  return {
    todos: [
      { content: 'Parse the input', status: first, activeForm: 'Parsing' },
      { content: 'Write the tests', status: second, activeForm: 'Writing' },
    ],
  };
}
