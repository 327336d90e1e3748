/**
 * A scripted mock of the Gemini API (generativelanguage v1beta) on 127.0.0.1, for running the real
 * Gemini CLI offline through GOOGLE_GEMINI_BASE_URL. node:http only.
 *
 *   const mock = await startMockGemini({
 *     steps: [
 *       { parts: [{ functionCall: { name: 'run_shell_command', args: { command: 'echo hi' } } }],
 *         usage: { promptTokenCount: 12000 } },
 *     ],
 *   });
 *   // GOOGLE_GEMINI_BASE_URL=mock.url …   then assert on mock.requests
 *
 * Each main request (one that offers tools: `POST /v1beta/models/<model>:streamGenerateContent`)
 * is answered by the next step; when the steps run out, by `final`. Tool-less requests (the
 * compression's `<state_snapshot>` and its self-check, routing, next-speaker checks) never consume
 * a step: they get `side`. Streaming requests get SSE (`?alt=sse`) in the API's shape; others one
 * JSON response. Every answer carries `usageMetadata` with the usage the step gave.
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createAnswerHolds } from '../helpers/answer-holds.ts';

export type UsageMetadata = {
  promptTokenCount: number;
  candidatesTokenCount?: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
};

export type Part =
  { text: string } | { functionCall: { name: string; args: Record<string, unknown>; id?: string } };

export type GeminiReply = {
  parts: Part[];
  usage?: UsageMetadata;
  /** Wait this long before answering (keeps the CLI mid-request, e.g. for a kill test). */
  delayMs?: number;
};

export type GeminiScenario = {
  steps: GeminiReply[];
  /** Used once the steps run out. Default: the text "Done." */
  final?: GeminiReply;
  /** Answers tool-less requests (compression, routing, checks). */
  side?: GeminiReply;
};

export type GeminiContent = { role?: string; parts?: Array<Record<string, unknown>> };
export type GenerateBody = {
  contents?: GeminiContent[];
  systemInstruction?: GeminiContent;
  tools?: unknown[];
  generationConfig?: Record<string, unknown>;
};

export type GeminiRequestKind = 'step' | 'final' | 'side' | 'other';

export type RecordedGeminiRequest = {
  path: string;
  model: string | null;
  stream: boolean;
  kind: GeminiRequestKind;
  body: GenerateBody | undefined;
  /** The usage this request was answered with (null for `other`). */
  usage: UsageMetadata | null;
  /** All text of the request's contents and system instruction, joined. */
  text: string;
};

export type MockGemini = {
  url: string;
  requests: RecordedGeminiRequest[];
  /** The main (step or final) requests, in order. */
  mainRequests(): RecordedGeminiRequest[];
  requestsContaining(needle: string): RecordedGeminiRequest[];
  reset(scenario: GeminiScenario): void;
  close(): Promise<void>;
};

const DEFAULT_USAGE: UsageMetadata = { promptTokenCount: 1000, candidatesTokenCount: 20 };

function contentText(content: GeminiContent | undefined): string {
  const out: string[] = [];
  for (const part of content?.parts ?? []) {
    if (typeof part.text === 'string') out.push(part.text);
    else if (part.functionResponse !== undefined) out.push(JSON.stringify(part.functionResponse));
    else if (part.functionCall !== undefined) out.push(JSON.stringify(part.functionCall));
  }
  return out.join('\n');
}

/** Everything a test may look for in a request: contents and the system instruction. */
export function requestText(body: GenerateBody | undefined): string {
  if (!body) return '';
  return [contentText(body.systemInstruction), ...(body.contents ?? []).map(contentText)].join(
    '\n',
  );
}

/** The text of the request's first user content (where SessionStart context lands). */
export function firstUserText(body: GenerateBody | undefined): string {
  return contentText(body?.contents?.find((c) => c.role === 'user'));
}

function offersTools(body: GenerateBody | undefined): boolean {
  return Array.isArray(body?.tools) && body.tools.length > 0;
}

function usageMetadata(usage: UsageMetadata): Record<string, number> {
  const candidates = usage.candidatesTokenCount ?? 20;
  const thoughts = usage.thoughtsTokenCount ?? 0;
  return {
    promptTokenCount: usage.promptTokenCount,
    candidatesTokenCount: candidates,
    ...(usage.cachedContentTokenCount !== undefined
      ? { cachedContentTokenCount: usage.cachedContentTokenCount }
      : {}),
    ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
    totalTokenCount: usage.promptTokenCount + candidates + thoughts,
  };
}

function responseBody(reply: GeminiReply, model: string): Record<string, unknown> {
  return {
    candidates: [
      {
        content: { role: 'model', parts: reply.parts },
        finishReason: 'STOP',
        index: 0,
      },
    ],
    usageMetadata: usageMetadata(reply.usage ?? DEFAULT_USAGE),
    modelVersion: model,
    responseId: `mock-${Math.random().toString(36).slice(2, 10)}`,
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function sendError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { code: status, message, status: 'NOT_FOUND' } }));
}

export async function startMockGemini(initial: GeminiScenario): Promise<MockGemini> {
  let scenario = initial;
  let next = 0;
  const requests: RecordedGeminiRequest[] = [];
  const sockets = new Set<Socket>();
  const holds = createAnswerHolds();

  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const match = /^\/v1beta\/models\/([^/:]+):(streamGenerateContent|generateContent)$/.exec(
        url.pathname,
      );
      if (req.method !== 'POST' || !match) {
        requests.push({
          path: url.pathname,
          model: null,
          stream: false,
          kind: 'other',
          body: undefined,
          usage: null,
          text: '',
        });
        sendError(res, 404, `mock-gemini: no route for ${req.method} ${url.pathname}`);
        return;
      }
      let body: GenerateBody | undefined;
      try {
        body = JSON.parse(raw) as GenerateBody;
      } catch {
        body = undefined;
      }
      const model = match[1] ?? 'gemini-2.5-pro';
      const stream = match[2] === 'streamGenerateContent';
      let kind: GeminiRequestKind;
      let reply: GeminiReply;
      if (offersTools(body)) {
        const step = scenario.steps[next];
        if (step) {
          next++;
          kind = 'step';
          reply = step;
        } else {
          kind = 'final';
          reply = scenario.final ?? { parts: [{ text: 'Done.' }] };
        }
      } else {
        kind = 'side';
        reply = scenario.side ?? {
          parts: [
            { text: '<state_snapshot>\n<overall_goal>mock</overall_goal>\n</state_snapshot>' },
          ],
        };
      }
      const usage = reply.usage ?? DEFAULT_USAGE;
      requests.push({
        path: url.pathname,
        model,
        stream,
        kind,
        body,
        usage,
        text: requestText(body),
      });
      if (reply.delayMs) await holds.wait(reply.delayMs, res);
      if (res.destroyed) return;
      const payload = responseBody({ ...reply, usage }, model);
      if (stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`data: ${JSON.stringify(payload)}\r\n\r\n`);
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      }
    })().catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, String(error));
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    mainRequests: () => requests.filter((r) => r.kind === 'step' || r.kind === 'final'),
    requestsContaining: (needle) => requests.filter((r) => r.text.includes(needle)),
    reset(s) {
      scenario = s;
      next = 0;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        holds.endAll();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
