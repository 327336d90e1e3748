/**
 * A scripted mock of the OpenAI Responses API (streaming) on 127.0.0.1, for running the real Codex
 * CLI offline through a `model_providers` entry with a local `base_url`
 * (../shared/reference/other-agents-2026-11.md, section 6). node:http only.
 *
 *   const mock = await startOpenAiMock({
 *     steps: [
 *       { calls: [{ name: 'exec_command', arguments: { cmd: 'echo hi > out.txt' } }], usage: { input: 12_000 } },
 *       { text: 'Done.', usage: { input: 13_000 } },
 *     ],
 *   });
 *   // base_url = mock.url + '/v1'; then assert on mock.requests / mock.requestsContaining('X')
 *   await mock.close();
 *
 * Each POST /v1/responses is answered by the next step as a server-sent event stream in the API's
 * shapes (response.created, response.output_item.added/done, response.completed with usage); when
 * the steps run out, by `final`. A compaction request (tool-less, asking for a CONTEXT CHECKPOINT
 * COMPACTION) gets `summary` and consumes no step. Every request body is recorded with how it was
 * answered and the usage the mock sent, so a test can assert what the CLI counted.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createAnswerHolds } from '../helpers/answer-holds.ts';

export type MockUsage = { input: number; cached?: number; output?: number; reasoning?: number };

export type FunctionCall = {
  /** `exec_command`, `update_plan`, … (a function tool) or `apply_patch` (a custom tool). */
  name: string;
  /** Function tools: the arguments object. */
  arguments?: Record<string, unknown>;
  /** Custom tools (apply_patch): the raw input text. */
  input?: string;
  callId?: string;
};

export type MockStep = {
  text?: string;
  calls?: FunctionCall[];
  usage?: MockUsage;
  /** Answer with this HTTP status and error body instead (e.g. 429 for a usage limit). */
  error?: { status: number; code: string; message: string };
  /** Hold the answer this long (a kill test's window). */
  delayMs?: number;
};

export type RecordedRequest = {
  kind: 'step' | 'final' | 'compaction' | 'other';
  path: string;
  body: Record<string, unknown>;
  text: string;
  /** The usage sent back (null for errors). */
  usage: MockUsage | null;
  at: number;
};

export type OpenAiMock = {
  url: string;
  requests: RecordedRequest[];
  requestsContaining: (needle: string) => RecordedRequest[];
  /** Resolves once `count` requests arrived (a result, not a clock). */
  waitForRequests: (count: number) => Promise<void>;
  reset: (scenario: Scenario) => void;
  close: () => Promise<void>;
};

export type Scenario = { steps: MockStep[]; final?: MockStep; summary?: MockStep };

const COMPACTION_MARKER = 'CONTEXT CHECKPOINT COMPACTION';

function isCompaction(body: Record<string, unknown>, text: string): boolean {
  const tools = body.tools;
  return (!Array.isArray(tools) || tools.length === 0) && text.includes(COMPACTION_MARKER);
}

function usageJson(usage: MockUsage): Record<string, unknown> {
  const output = usage.output ?? 50;
  return {
    input_tokens: usage.input,
    input_tokens_details: { cached_tokens: usage.cached ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: usage.reasoning ?? 0 },
    total_tokens: usage.input + output,
  };
}

let counter = 0;
const nextId = (prefix: string): string => `${prefix}_mock_${++counter}`;

function outputItems(step: MockStep): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  if (step.text !== undefined) {
    items.push({
      type: 'message',
      id: nextId('msg'),
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: step.text, annotations: [] }],
    });
  }
  for (const call of step.calls ?? []) {
    const callId = call.callId ?? nextId('call');
    items.push(
      call.input !== undefined
        ? {
            type: 'custom_tool_call',
            id: nextId('ctc'),
            status: 'completed',
            call_id: callId,
            name: call.name,
            input: call.input,
          }
        : {
            type: 'function_call',
            id: nextId('fc'),
            status: 'completed',
            call_id: callId,
            name: call.name,
            arguments: JSON.stringify(call.arguments ?? {}),
          },
    );
  }
  return items;
}

function sse(res: ServerResponse, type: string, data: Record<string, unknown>): void {
  res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
}

function answer(res: ServerResponse, step: MockStep, model: string): MockUsage | null {
  if (step.error) {
    res.writeHead(step.error.status, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        error: { type: step.error.code, code: step.error.code, message: step.error.message },
      }),
    );
    return null;
  }
  const usage = step.usage ?? { input: 1_000 };
  const id = nextId('resp');
  const items = outputItems(step);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const response = { id, object: 'response', model, status: 'in_progress', output: [] };
  sse(res, 'response.created', { response });
  items.forEach((item, index) => {
    sse(res, 'response.output_item.added', { output_index: index, item });
    sse(res, 'response.output_item.done', { output_index: index, item });
  });
  sse(res, 'response.completed', {
    response: { ...response, status: 'completed', output: items, usage: usageJson(usage) },
  });
  res.end();
  return usage;
}

export async function startOpenAiMock(initial: Scenario): Promise<OpenAiMock> {
  let scenario = initial;
  let next = 0;
  const requests: RecordedRequest[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const sockets = new Set<Socket>();
  const holds = createAnswerHolds();
  const settle = (): void => {
    for (const w of [...waiters]) {
      if (requests.length >= w.count) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // recorded as text only
    }
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (req.method !== 'POST' || !path.endsWith('/responses')) {
      requests.push({ kind: 'other', path, body, text, usage: null, at: Date.now() });
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no route ${req.method} ${path}` } }));
      settle();
      return;
    }
    const model = typeof body.model === 'string' ? body.model : 'gpt-5.5';
    let kind: RecordedRequest['kind'];
    let step: MockStep;
    if (isCompaction(body, text)) {
      kind = 'compaction';
      step = scenario.summary ?? { text: 'Summary: the work so far.', usage: { input: 5_000 } };
    } else if (next < scenario.steps.length) {
      kind = 'step';
      step = scenario.steps[next++]!;
    } else {
      kind = 'final';
      step = scenario.final ?? { text: 'Done.', usage: { input: 1_000 } };
    }
    // Recorded on arrival: a kill test waits for the request the CLI is blocked on.
    const record: RecordedRequest = { kind, path, body, text, usage: null, at: Date.now() };
    requests.push(record);
    settle();
    if (step.delayMs) await holds.wait(step.delayMs, res);
    if (res.destroyed) return;
    record.usage = answer(res, step, model);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    requestsContaining: (needle) => requests.filter((r) => r.text.includes(needle)),
    waitForRequests: (count) =>
      new Promise((resolve) => {
        waiters.push({ count, resolve });
        settle();
      }),
    reset: (s) => {
      scenario = s;
      next = 0;
      requests.length = 0;
    },
    close: () =>
      new Promise((resolve) => {
        holds.endAll();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
