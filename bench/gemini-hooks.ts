/**
 * Gemini CLI's hooks as it pays for them: a fresh `shim gemini-hook AfterTool` process per tool
 * call on a chat that grows by one model message (with a tool call and its result) before each
 * call, against `node -e ''` in the same run, interleaved. The chat starts from the one the real
 * Gemini CLI 0.61.0 wrote offline (test/fixtures/gemini), repeated to a few thousand lines.
 * BeforeModel runs before every model request with the request's text on stdin: measured on a
 * request of 300 messages without a restore (the common case) and with one (every request of a
 * session that started with shim's restore).
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { median, timeNode } from './child-time.ts';
import { makeTempDir } from '../test/helpers/fixtures.ts';
import { awaitWarmLook, stopWarmLooks } from './hooks.ts';

type Report = (name: string, value: string, note?: string) => void;

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'shim.cjs');
const CHAT = join(ROOT, 'test', 'fixtures', 'gemini', 'resumed-compressed-0.61.0.jsonl');
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

/** A model message with one finished shell call, as Gemini appends it (tokens, then the call). */
function modelMessage(n: number, input: number): string {
  const id = `bench-${n}`;
  const base = {
    id,
    timestamp: new Date(Date.UTC(2026, 10, 25, 12, 0, n % 60)).toISOString(),
    type: 'gemini',
    content: '',
    thoughts: [],
    tokens: { input, output: 40, cached: 0, thoughts: 0, tool: 0, total: input + 40 },
    model: 'gemini-2.5-pro',
  };
  const call = {
    id: `call-${n}`,
    name: 'run_shell_command',
    args: { command: `ls src/${n}` },
    status: 'success',
    result: [
      {
        functionResponse: {
          id: `call-${n}`,
          name: 'run_shell_command',
          response: { output: 'a.ts\nb.ts' },
        },
      },
    ],
  };
  return `${JSON.stringify(base)}\n${JSON.stringify({ ...base, toolCalls: [call] })}\n`;
}

/** A BeforeModel payload: 300 messages (~190 KB), the first prompt carrying `first`. */
function beforeModelPayload(first: string): string {
  const messages = [
    { role: 'user', content: '<session_context>This is the Gemini CLI.</session_context>' },
    { role: 'user', content: `${first}\n\nCarry on with the lexer` },
  ];
  for (let n = 0; messages.length < 300; n++)
    messages.push(
      n % 2 === 0
        ? { role: 'model', content: `Step ${n}: ${'the lexer reads the next token. '.repeat(20)}` }
        : { role: 'user', content: `next ${n}: ${'check that it still passes. '.repeat(20)}` },
    );
  return JSON.stringify({
    session_id: '071c8f8b-c20a-4dc3-b5ee-f4d826d5c890',
    hook_event_name: 'BeforeModel',
    timestamp: new Date().toISOString(),
    llm_request: { model: 'gemini-2.5-pro', messages, config: {} },
  });
}

/** A restore as Gemini CLI hands it over: `<` and `>` escaped (~12 KB). */
const ESCAPED_RESTORE = `<hook_context># The session was interrupted (shim checkpoint #4)\n\n\`\`\`diff\n${'+if (a &gt; b) return &lt;Token/&gt;;\n'.repeat(300)}\`\`\`</hook_context>`;

export function runGeminiHookBench(report: Report, results: Record<string, unknown>): void {
  const dir = makeTempDir('shim-bench-gemini-');
  const home = join(dir, 'home');
  const project = join(dir, 'project');
  mkdirSync(join(home, '.gemini', 'tmp', 'project', 'chats'), { recursive: true });
  mkdirSync(project, { recursive: true });
  const chat = join(
    home,
    '.gemini',
    'tmp',
    'project',
    'chats',
    'session-2026-11-25T12-00-bench000.jsonl',
  );
  const lines = readFileSync(CHAT, 'utf8');
  writeFileSync(chat, lines);
  for (let n = 0; n < 1500; n++) appendFileSync(chat, modelMessage(n, 9_000 + n * 2));
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, SHIM_HOME: join(dir, 'shim') };
  delete env.NODE_EXTRA_CA_CERTS;
  const payload = JSON.stringify({
    session_id: '071c8f8b-c20a-4dc3-b5ee-f4d826d5c890',
    transcript_path: chat,
    cwd: project,
    hook_event_name: 'AfterTool',
    timestamp: new Date().toISOString(),
    tool_name: 'run_shell_command',
    tool_input: { command: 'ls' },
    tool_response: { llmContent: 'a.ts' },
  });
  // BeforeTool notes the call (a command in flight is not in the chat until it completes:
  // store/cache/calls-started.ts); AfterTool takes the note out.
  const before = payload
    .replace('"AfterTool"', '"BeforeTool"')
    .replace(/,"tool_response":\{[^}]*\}/, '');
  const hook = [BIN, 'gemini-hook', 'AfterTool'];
  const beforeHook = [BIN, 'gemini-hook', 'BeforeTool'];
  const modelHook = [BIN, 'gemini-hook', 'BeforeModel'];
  const plainRequest = beforeModelPayload('Write the lexer');
  const restoredRequest = beforeModelPayload(ESCAPED_RESTORE);
  timeNode(modelHook, plainRequest, env);
  // Warm-up: the first call folds the whole chat, writes the code cache and starts the warm
  // look (src/hook/warm-look/) the next AfterTool calls ask first, as in a working session.
  timeNode(beforeHook, before, env);
  timeNode(hook, payload, env);
  const warm = awaitWarmLook(env.SHIM_HOME!);
  timeNode(['-e', ''], '', env);
  const node: number[] = [];
  const shim: number[] = [];
  const beforeShim: number[] = [];
  const modelPlain: number[] = [];
  const modelRestored: number[] = [];
  try {
    for (let i = 0; i < 25; i++) {
      node.push(timeNode(['-e', ''], '', env));
      modelPlain.push(timeNode(modelHook, plainRequest, env));
      modelRestored.push(timeNode(modelHook, restoredRequest, env));
      beforeShim.push(timeNode(beforeHook, before, env));
      appendFileSync(chat, modelMessage(10_000 + i, 12_000 + i * 10));
      shim.push(timeNode(hook, payload, env));
    }
  } finally {
    stopWarmLooks(dir);
  }
  const ratio = median(shim) / median(node);
  const beforeRatio = median(beforeShim) / median(node);
  report('Gemini AfterTool hook (median)', fmt(median(shim)), `node -e '' ${fmt(median(node))}`);
  report(
    'Gemini AfterTool hook / bare node',
    `${ratio.toFixed(2)}×`,
    `(one message appended per call${warm ? ', the warm look asked first' : ', no warm look came'})`,
  );
  report('Gemini BeforeTool hook (median)', fmt(median(beforeShim)), '(notes the call started)');
  report('Gemini BeforeTool hook / bare node', `${beforeRatio.toFixed(2)}×`);
  report(
    'Gemini BeforeModel hook / bare node',
    `${(median(modelPlain) / median(node)).toFixed(2)}×`,
    `${fmt(median(modelPlain))}, a 300-message request without a restore; with one (unescaped): ${fmt(median(modelRestored))} = ${(median(modelRestored) / median(node)).toFixed(2)}×`,
  );
  results.geminiHook = { medianMs: median(shim), nodeMs: median(node), ratio };
  results.geminiBeforeModel = {
    plainMs: median(modelPlain),
    restoredMs: median(modelRestored),
    nodeMs: median(node),
    ratio: median(modelPlain) / median(node),
  };
  results.geminiBeforeTool = {
    medianMs: median(beforeShim),
    nodeMs: median(node),
    ratio: beforeRatio,
  };
}
