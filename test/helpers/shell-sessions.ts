/**
 * A Codex CLI and a Gemini CLI session driven as the agents drive them: each shell call appended
 * to the session's log (Codex's rollout, Gemini's chat) with its result, then the agent's hook
 * run through the CLI (`shim hook --agent codex PostToolUse`, `shim gemini-hook AfterTool`).
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runShim } from './cli.ts';
import { makeTempDir } from './fixtures.ts';

export type World = { dir: string; home: string; project: string; env: Record<string, string> };

export function world(prefix: string, warmLook = false): World {
  const dir = makeTempDir(prefix);
  const home = join(dir, 'shim');
  const project = join(dir, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(join(home, 'config.json'), `{ "warmLook": ${warmLook} }\n`);
  const env = { HOME: dir, CODEX_HOME: join(dir, 'codex'), GEMINI_CLI_HOME: dir };
  return { dir, home, project, env };
}

/** The hook's run: exit 0 and nothing on stdout (Codex and Gemini get no text after a call). */
export function quietRun(w: World, args: string[], input: object): void {
  const run = runShim(w.home, args, { cwd: w.project, env: w.env, input: JSON.stringify(input) });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout.trim(), '', 'nothing for the model after an ordinary call');
}

/** One tool call of the session: its records appended to the log, then the agent's hook. */
export type Call = (n: number, command: string, extra?: { failed?: boolean }) => void;

export const CODEX_SESSION = '019e0a11-7c3d-7a20-9d51-3a7f0c2b9e41';

/** A Codex rollout in `w` and its calls: each appended (call, usage, output), then PostToolUse. */
export function codexSession(w: World): Call {
  const at = (s: number) => new Date(Date.UTC(2026, 10, 29, 4, 0, s)).toISOString();
  const line = (s: number, type: string, payload: Record<string, unknown>) =>
    `${JSON.stringify({ timestamp: at(s), type, payload })}\n`;
  const rollout = join(w.dir, `rollout-2026-11-29T04-00-00-${CODEX_SESSION}.jsonl`);
  writeFileSync(
    rollout,
    line(0, 'session_meta', { id: CODEX_SESSION, cwd: w.project, cli_version: '0.171.0' }) +
      line(0, 'turn_context', { cwd: w.project, model: 'gpt-5.5' }) +
      line(1, 'event_msg', { type: 'user_message', message: 'tidy the parser' }),
  );
  let total = 0;
  return (n, command, extra) => {
    const id = `call_${n}`;
    const context = 20_000 + n * 500;
    total += context;
    const usage = { input_tokens: context - 60, output_tokens: 60, total_tokens: context };
    appendFileSync(
      rollout,
      line(2 * n, 'response_item', {
        type: 'function_call',
        name: 'exec_command',
        call_id: id,
        arguments: JSON.stringify({ cmd: command }),
      }) +
        line(2 * n, 'event_msg', {
          type: 'token_count',
          info: {
            total_token_usage: { ...usage, total_tokens: total },
            last_token_usage: usage,
            model_context_window: 258_400,
          },
        }) +
        line(2 * n + 1, 'response_item', {
          type: 'function_call_output',
          call_id: id,
          output: `Process exited with code ${extra?.failed ? 2 : 0}\nOutput:\nsrc/a.ts\n`,
        }),
    );
    quietRun(w, ['hook', '--agent', 'codex', 'PostToolUse'], {
      session_id: CODEX_SESSION,
      turn_id: 'turn-1',
      transcript_path: rollout,
      cwd: w.project,
      hook_event_name: 'PostToolUse',
      model: 'gpt-5.5',
      tool_name: 'Bash',
      tool_input: { command },
      tool_response: 'src/a.ts',
      tool_use_id: id,
    });
  };
}

export const GEMINI_SESSION = 'gem-quiet-window-1';

/** A Gemini chat in `w` and its calls: each model message appended (twice), then AfterTool. */
export function geminiSession(w: World): Call {
  const at = (s: number) => new Date(Date.UTC(2026, 10, 29, 4, 0, s)).toISOString();
  const chats = join(w.dir, '.gemini', 'tmp', 'project', 'chats');
  mkdirSync(chats, { recursive: true });
  const chat = join(chats, 'session-2026-11-29T04-00-gemquiet.jsonl');
  const record = (value: object) => `${JSON.stringify(value)}\n`;
  writeFileSync(
    chat,
    record({ sessionId: GEMINI_SESSION, projectHash: 'abc', startTime: at(0), kind: 'main' }) +
      record({
        id: 'u1',
        timestamp: at(1),
        type: 'user',
        content: [{ text: 'tidy the parser' }],
      }),
  );
  return (n, command, extra) => {
    const message = {
      id: `m${n}`,
      timestamp: at(2 * n),
      type: 'gemini',
      content: '',
      model: 'gemini-2.5-pro',
      tokens: { input: 20_000 + n * 500, output: 40, cached: 0, thoughts: 0, tool: 0 },
    };
    const output = extra?.failed ? 'ls: missing: No such file\nExit Code: 2' : 'src/a.ts';
    // Gemini writes a model message again once its calls have their results.
    appendFileSync(
      chat,
      record(message) +
        record({
          ...message,
          toolCalls: [
            {
              id: `c${n}`,
              name: 'run_shell_command',
              args: { command },
              status: 'success',
              timestamp: at(2 * n),
              result: [
                {
                  functionResponse: {
                    id: `c${n}`,
                    name: 'run_shell_command',
                    response: { output },
                  },
                },
              ],
            },
          ],
        }),
    );
    quietRun(w, ['gemini-hook', 'AfterTool'], {
      session_id: GEMINI_SESSION,
      transcript_path: chat,
      cwd: w.project,
      hook_event_name: 'AfterTool',
      timestamp: at(2 * n),
      tool_name: 'run_shell_command',
      tool_input: { command },
      tool_response: { llmContent: output },
    });
  };
}
