/**
 * A scripted mock of the Anthropic Messages API on 127.0.0.1, for running the real Claude Code CLI
 * offline (see /work/shared/reference/claude-code-offline-e2e.md). node:http only.
 *
 *   const mock = await startMockApi({
 *     steps: [
 *       { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo hi > out.txt' } }] },
 *       { error: { status: 400, type: 'invalid_request_error', message: PROMPT_TOO_LONG } },
 *     ],
 *     final: { content: [{ type: 'text', text: 'Done.' }] },
 *   });
 *   // ANTHROPIC_BASE_URL=mock.url …   then assert on mock.requests / mock.requestsContaining('X')
 *   await mock.close();
 *
 * Each POST /v1/messages is answered by the next step (an assistant reply, or an API error with its
 * HTTP status); when the steps run out, by `final`. Two kinds of request never consume a step:
 * compaction summary requests (the last user message contains SUMMARY_REQUEST_MARKER) get `summary`,
 * and tool-less side requests (title generation and the like) get `side`. The tool name `@todo`
 * becomes TodoWrite or TaskCreate, whichever the request offers. Streaming requests get SSE in the
 * real API's format; others get one JSON message. Any other path gets a 404 in the API's error shape.
 * Every request is recorded in `mock.requests`; `reset(scenario)` swaps the script and clears them.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createAnswerHolds } from '../helpers/answer-holds.ts';

export type Usage = {
  input_tokens: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
  output_tokens?: number;
};

export type TextBlock = { type: 'text'; text: string };
export type ToolUseBlock = {
  type: 'tool_use';
  /** A tool name, or `@todo` for TodoWrite / TaskCreate (whichever the request offers). */
  name: string;
  /**
   * The tool input, or a function of the resolved tool name (useful with `@todo`) and the request
   * being answered (an input naming what an earlier tool returned, e.g. a CronCreate job id).
   */
  input:
    | Record<string, unknown>
    | ((toolName: string, request: MessagesBody) => Record<string, unknown>);
  /** Defaults to a generated `toolu_mock_…` id. */
  id?: string;
};

export type Reply = {
  content: Array<TextBlock | ToolUseBlock>;
  usage?: Usage;
  /** Defaults to `tool_use` when the reply has a tool_use block, else `end_turn`. */
  stop_reason?: 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence';
  /** Wait this long before answering (keeps the CLI mid-request, e.g. for a kill test). */
  delayMs?: number;
  /**
   * Hold the answer until this settles: a test waiting for shim's own work (the mod's queued
   * reports handled) the way a user at the prompt gives it time, where `claude -p` would exit.
   */
  holdUntil?: () => Promise<unknown>;
  /**
   * Wait this long after the last content block, before the message's end (`message_delta`):
   * the CLI may run a finished tool call while the response is still streaming.
   */
  endDelayMs?: number;
};

export type ErrorStep = {
  error: { status: number; type: string; message: string };
  /** Extra response headers (e.g. `anthropic-ratelimit-unified-*` for a usage-limit refusal). */
  headers?: Record<string, string>;
};

export type Step = Reply | ErrorStep;

export type Scenario = {
  steps: Step[];
  /** Used once the steps run out. Default: the text "Done." */
  final?: Reply;
  /** Answers compaction summary requests. Default: a short `<summary>` text. */
  summary?: Reply;
  /** Answers tool-less side requests (e.g. title generation). Default: a short text. */
  side?: Reply;
};

/** How the mock classified a request. */
export type RequestKind = 'step' | 'final' | 'summary' | 'side' | 'count_tokens' | 'other';

export type ContentBlock = { type: string; [key: string]: unknown };
export type Message = { role: string; content: string | ContentBlock[] };
export type MessagesBody = {
  model?: string;
  stream?: boolean;
  max_tokens?: number;
  system?: string | ContentBlock[];
  messages?: Message[];
  tools?: Array<{ name?: string; [key: string]: unknown }>;
  [key: string]: unknown;
};

export type RecordedRequest = {
  /** 0-based position among all requests this mock saw since the last reset. */
  index: number;
  method: string;
  /** Path without the query string, e.g. `/v1/messages`. */
  path: string;
  /** Path with the query string, e.g. `/v1/messages?beta=true`. */
  url: string;
  /** Only the headers listed in HEADERS_OF_INTEREST. */
  headers: Record<string, string>;
  model: string | undefined;
  stream: boolean;
  /** The parsed JSON body (undefined for bodiless or unparsable requests). */
  body: MessagesBody | undefined;
  kind: RequestKind;
  /** The index into `scenario.steps` this request consumed (kind `step` only). */
  stepIndex: number | undefined;
  /** The HTTP status the mock answered with. */
  status: number;
  /** The content blocks sent back (tool names resolved, ids filled in), for replies. */
  reply: ContentBlock[] | undefined;
  /** Time the request was received (Date.now()). */
  at: number;
};

export type MockApi = {
  /** Base URL for ANTHROPIC_BASE_URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  port: number;
  /** Every request since the last reset, in arrival order (the same array across resets). */
  requests: RecordedRequest[];
  /** POST /v1/messages requests only. */
  messageRequests(): RecordedRequest[];
  /** Message requests whose system prompt or any message content (any role, tool results, tool
   *  inputs) contains `text`. */
  requestsContaining(text: string): RecordedRequest[];
  /**
   * The first turn request (one with tools: not a side request) the given session sent. A killed
   * session's late side request or a title request can arrive first; this one is the turn's.
   */
  firstTurnRequest(sessionId: string | null): RecordedRequest | undefined;
  /** Index into `scenario.steps` of the next step to be used. */
  readonly nextStep: number;
  /** Replace the scenario, rewind to its first step and clear `requests`. */
  reset(scenario?: Scenario): void;
  close(): Promise<void>;
};

export type MockOptions = {
  /** Delay between SSE events, default 0. */
  chunkDelayMs?: number;
  /** Socket idle timeout, default 30 s. */
  socketTimeoutMs?: number;
};

/** The phrase Claude Code puts in the last user message of a compaction summary request. */
export const SUMMARY_REQUEST_MARKER =
  'Your task is to create a detailed summary of the conversation so far';

/** The real API's message for an over-long prompt; as a 400 it triggers reactive compaction. */
export const PROMPT_TOO_LONG = 'prompt is too long: 210000 tokens > 200000 maximum';

/** A ready-made error step that makes Claude Code compact reactively. */
export const PROMPT_TOO_LONG_STEP: ErrorStep = {
  error: { status: 400, type: 'invalid_request_error', message: PROMPT_TOO_LONG },
};

export const MAX_BODY_BYTES = 50 * 1024 * 1024;

const HEADERS_OF_INTEREST = [
  'user-agent',
  'x-api-key',
  'authorization',
  'anthropic-version',
  'anthropic-beta',
  'x-app',
  'x-claude-code-session-id',
  'content-type',
  'accept',
];

const DEFAULT_USAGE: Usage = {
  input_tokens: 50,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  output_tokens: 20,
};
const DEFAULT_FINAL: Reply = { content: [{ type: 'text', text: 'Done.' }] };
const DEFAULT_SUMMARY: Reply = {
  content: [
    {
      type: 'text',
      text: '<analysis>Mock analysis.</analysis>\n<summary>Mock summary of the conversation so far.</summary>',
    },
  ],
};
const DEFAULT_SIDE: Reply = { content: [{ type: 'text', text: 'Mock side reply' }] };

export function isErrorStep(step: Step): step is ErrorStep {
  return 'error' in step;
}

/** Every string inside the system prompt and the messages (all roles, all block kinds). */
export function searchableText(body: MessagesBody | undefined): string {
  if (!body) return '';
  const out: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') out.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(body.system);
  walk(body.messages);
  return out.join('\n');
}

/** Text of the last user message (string content, text blocks and tool_result text). */
export function lastUserText(body: MessagesBody | undefined): string {
  const messages = body?.messages ?? [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role === 'user') return searchableText({ messages: [message] });
  }
  return '';
}

export async function startMockApi(initial: Scenario, options: MockOptions = {}): Promise<MockApi> {
  let scenario = initial;
  let nextStep = 0;
  let ids = 0;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const holds = createAnswerHolds();
  const chunkDelayMs = options.chunkDelayMs ?? 0;

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, 'api_error', String(error));
      else res.destroy();
    });
  });
  server.requestTimeout = 60_000;
  server.headersTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  server.setTimeout(options.socketTimeoutMs ?? 30_000, (socket) => socket.destroy());
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const at = Date.now();
    const url = req.url ?? '/';
    const path = url.split('?')[0] ?? '/';
    const method = req.method ?? 'GET';
    const headers: Record<string, string> = {};
    for (const name of HEADERS_OF_INTEREST) {
      const value = req.headers[name];
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const record: RecordedRequest = {
      index: requests.length,
      method,
      path,
      url,
      headers,
      model: undefined,
      stream: false,
      body: undefined,
      kind: 'other',
      stepIndex: undefined,
      status: 404,
      reply: undefined,
      at,
    };
    requests.push(record);

    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_BODY_BYTES) {
      record.status = 413;
      sendError(res, 413, 'request_too_large', `body over ${MAX_BODY_BYTES} bytes`, true);
      return;
    }
    const raw = await readBody(req);
    if (raw === null) {
      record.status = 413;
      sendError(res, 413, 'request_too_large', `body over ${MAX_BODY_BYTES} bytes`, true);
      return;
    }
    let body: MessagesBody | undefined;
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw) as MessagesBody;
      } catch {
        body = undefined;
      }
    }
    record.body = body;
    record.model = body?.model;
    record.stream = body?.stream === true;

    if (method === 'POST' && path === '/v1/messages/count_tokens') {
      record.kind = 'count_tokens';
      record.status = 200;
      sendJson(res, 200, { input_tokens: Math.ceil(searchableText(body).length / 4) });
      return;
    }
    if (method !== 'POST' || path !== '/v1/messages') {
      sendError(res, 404, 'not_found_error', `Not found: ${method} ${path}`);
      return;
    }
    if (!body || !Array.isArray(body.messages)) {
      record.status = 400;
      sendError(res, 400, 'invalid_request_error', 'body must be JSON with a messages array');
      return;
    }

    const { kind, step, stepIndex } = pick(body);
    record.kind = kind;
    record.stepIndex = stepIndex;
    if (isErrorStep(step)) {
      record.status = step.error.status;
      for (const [name, value] of Object.entries(step.headers ?? {})) res.setHeader(name, value);
      sendError(res, step.error.status, step.error.type, step.error.message);
      return;
    }
    if (step.delayMs) await holds.wait(step.delayMs, res);
    if (step.holdUntil) await step.holdUntil();
    if (res.destroyed) return;
    const content = materialize(step, body);
    record.reply = content;
    record.status = 200;
    const model = body.model ?? 'claude-mock';
    const usage = { ...DEFAULT_USAGE, ...step.usage };
    const stopReason =
      step.stop_reason ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
    if (record.stream) await streamReply(res, model, content, usage, stopReason, step.endDelayMs);
    else {
      sendJson(res, 200, {
        id: `msg_mock_${++ids}`,
        type: 'message',
        role: 'assistant',
        model,
        content,
        stop_reason: stopReason,
        stop_sequence: null,
        usage,
      });
    }
  }

  function pick(body: MessagesBody): { kind: RequestKind; step: Step; stepIndex?: number } {
    if (lastUserText(body).includes(SUMMARY_REQUEST_MARKER)) {
      return { kind: 'summary', step: scenario.summary ?? DEFAULT_SUMMARY };
    }
    if (!body.tools || body.tools.length === 0) {
      return { kind: 'side', step: scenario.side ?? DEFAULT_SIDE };
    }
    const step = scenario.steps[nextStep];
    if (step) return { kind: 'step', step, stepIndex: nextStep++ };
    return { kind: 'final', step: scenario.final ?? DEFAULT_FINAL };
  }

  function materialize(reply: Reply, body: MessagesBody): ContentBlock[] {
    const offered = new Set((body.tools ?? []).map((t) => t.name));
    return reply.content.map((block): ContentBlock => {
      if (block.type === 'text') return { type: 'text', text: block.text };
      let name = block.name;
      if (name === '@todo')
        name = offered.has('TodoWrite') || !offered.has('TaskCreate') ? 'TodoWrite' : 'TaskCreate';
      const input = typeof block.input === 'function' ? block.input(name, body) : block.input;
      return { type: 'tool_use', id: block.id ?? `toolu_mock_${++ids}`, name, input };
    });
  }

  async function streamReply(
    res: ServerResponse,
    model: string,
    content: ContentBlock[],
    usage: Usage,
    stopReason: string,
    endDelayMs = 0,
  ): Promise<void> {
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'request-id': `req_mock_${ids}`,
    });
    const send = async (event: string, data: unknown): Promise<void> => {
      if (res.destroyed) return;
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      if (chunkDelayMs > 0) await holds.wait(chunkDelayMs, res);
    };
    await send('message_start', {
      type: 'message_start',
      message: {
        id: `msg_mock_${++ids}`,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    });
    await send('ping', { type: 'ping' });
    for (const [index, block] of content.entries()) {
      if (block.type === 'text') {
        const text = String(block.text);
        await send('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: { type: 'text', text: '' },
        });
        for (const part of halves(text)) {
          await send('content_block_delta', {
            type: 'content_block_delta',
            index,
            delta: { type: 'text_delta', text: part },
          });
        }
      } else {
        await send('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
        });
        for (const part of halves(JSON.stringify(block.input ?? {}))) {
          await send('content_block_delta', {
            type: 'content_block_delta',
            index,
            delta: { type: 'input_json_delta', partial_json: part },
          });
        }
      }
      await send('content_block_stop', { type: 'content_block_stop', index });
    }
    if (endDelayMs) await holds.wait(endDelayMs, res);
    await send('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: usage.output_tokens ?? 0 },
    });
    await send('message_stop', { type: 'message_stop' });
    res.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  const messageRequests = (): RecordedRequest[] =>
    requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages');

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    messageRequests,
    requestsContaining: (text) =>
      messageRequests().filter((r) => searchableText(r.body).includes(text)),
    firstTurnRequest: (sessionId) =>
      messageRequests().find(
        (r) =>
          (r.kind === 'step' || r.kind === 'final') &&
          r.headers['x-claude-code-session-id'] === sessionId,
      ),
    get nextStep() {
      return nextStep;
    },
    reset(next = scenario) {
      scenario = next;
      nextStep = 0;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        holds.endAll();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** Splits a string in two (so clients must join deltas); empty strings stay one part. */
function halves(text: string): string[] {
  if (text.length < 2) return [text];
  const mid = Math.floor(text.length / 2);
  return [text.slice(0, mid), text.slice(mid)];
}

/** The body as UTF-8, or null once it passes MAX_BODY_BYTES (the request is then drained). */
function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooBig = false;
    req.on('data', (chunk: Buffer) => {
      if (tooBig) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        tooBig = true;
        chunks.length = 0;
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!tooBig) resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, payload: unknown): void {
  const text = JSON.stringify(payload);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'request-id': 'req_mock',
  });
  res.end(res.req.method === 'HEAD' ? undefined : text);
}

function sendError(
  res: ServerResponse,
  status: number,
  type: string,
  message: string,
  close = false,
): void {
  if (close) res.setHeader('connection', 'close');
  sendJson(res, status, { type: 'error', error: { type, message } });
  if (close) res.on('finish', () => res.req.socket.destroy());
}
