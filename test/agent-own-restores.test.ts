/**
 * A Codex CLI or Gemini CLI session is served as its own agent, through the built shim's hooks:
 * the background checkpoint reads the log with the reader of the agent the hook was called for
 * (not one guessed from the log's path: these logs lie outside $CODEX_HOME/sessions and
 * $GEMINI_CLI_HOME), and the restore the next session's SessionStart injects names that agent
 * (never Claude Code), carries the agent's own instruction files (AGENTS.md, GEMINI.md — not the
 * CLAUDE.md beside them), names the agent's own task tool and fits the agent's own text limit.
 * Issue 39: each of these was Claude Code's before the agent was handed in (686e892).
 *
 * The file's name says no agent: a hook records its parent as the session's process, and only a
 * process whose command line names an agent counts as one still running.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runShim, type Run } from './helpers/cli.ts';
import { makeTempDir } from './helpers/fixtures.ts';
import { withSharedCodeCache } from './helpers/shared-code-cache.ts';
import { waitForProcessesUnder } from './helpers/processes.ts';

/** A pid no process has (above the kernel's default pid_max): the session's process is gone. */
const GONE_PID = 2 ** 22 - 7;

const AGENTS_MD = '# Team rules\n\n## Build with zebra-make\n\nAlways build with zebra-make.\n';
const GEMINI_MD = '# Team rules\n\n## Test with okapi-check\n\nRun okapi-check before done.\n';
const CLAUDE_MD = '# Claude rules\n\n## Claude-only habits\n\nNever meant for other agents.\n';

type Project = { home: string; project: string; elsewhere: string };

// Its home shares the code caches of the file's other one (helpers/shared-code-cache.ts): nothing
// here is about the cache.
function makeProject(prefix: string, instructions: Record<string, string>): Project {
  const home = withSharedCodeCache(makeTempDir(prefix));
  const project = join(home, 'project');
  const elsewhere = join(home, 'copied-logs');
  mkdirSync(project);
  mkdirSync(elsewhere);
  for (const [name, text] of Object.entries(instructions)) writeFileSync(join(project, name), text);
  return { home, project, elsewhere };
}

function parseOutput(run: Run, what: string): { context: string; userMessage: string } {
  assert.equal(run.status, 0, `${what}: ${run.stderr}`);
  if (run.stdout.trim() === '') return { context: '', userMessage: '' };
  const out = JSON.parse(run.stdout) as {
    hookSpecificOutput?: { additionalContext?: string };
    systemMessage?: string;
  };
  return {
    context: out.hookSpecificOutput?.additionalContext ?? '',
    userMessage: out.systemMessage ?? '',
  };
}

function logText(home: string): string {
  try {
    return readFileSync(join(home, 'logs', 'shim.log'), 'utf8');
  } catch {
    return '';
  }
}

function checkpointsOf(home: string, sessionId: string): { id: string; sessionId: string }[] {
  const list = runShim(home, ['list', '--all', '--json']);
  assert.equal(list.status, 0, list.stderr);
  return (JSON.parse(list.stdout) as { id: string; sessionId: string }[]).filter(
    (c) => c.sessionId === sessionId,
  );
}

/** The session's process is gone (killed): what its hooks remembered, with a dead pid. */
function markKilled(home: string, sessionId: string): void {
  const path = join(home, 'cache', 'hooks', `${sessionId}.json`);
  let memory: Record<string, unknown> = {};
  try {
    memory = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch {
    mkdirSync(join(home, 'cache', 'hooks'), { recursive: true });
  }
  writeFileSync(path, JSON.stringify({ ...memory, agentPid: GONE_PID }));
}

describe('Codex CLI: a killed session is restored as a Codex session', () => {
  const SESSION = '01a2140b-6f3a-79f0-b6fd-d2a321939c70';
  const NEXT = '01a2140b-6f3a-79f0-b6fd-d2a321939c71';
  const at = (s: number) => `2026-11-28T10:00:${String(s).padStart(2, '0')}.000Z`;
  const line = (s: number, type: string, payload: Record<string, unknown>) =>
    JSON.stringify({ timestamp: at(s), type, payload });

  test('the background checkpoint reads the rollout as Codex, and the restore says Codex CLI, AGENTS.md and update_plan', async () => {
    const p = makeProject('shim-codex-own-', { 'AGENTS.md': AGENTS_MD, 'CLAUDE.md': CLAUDE_MD });
    const env = { CODEX_HOME: join(p.home, 'codex-home') };
    const rollout = join(p.elsewhere, `rollout-2026-11-28T10-00-00-${SESSION}.jsonl`);
    writeFileSync(
      rollout,
      [
        line(0, 'session_meta', { id: SESSION, cwd: p.project, cli_version: '0.169.0' }),
        line(1, 'event_msg', { type: 'user_message', message: 'port the ZEBRA-12 parser' }),
        line(2, 'response_item', {
          type: 'function_call',
          name: 'update_plan',
          call_id: 'c1',
          arguments: JSON.stringify({
            plan: [
              { step: 'port the lexer', status: 'completed' },
              { step: 'port the ZEBRA-12 grammar', status: 'in_progress' },
            ],
          }),
        }),
        line(3, 'response_item', { type: 'function_call_output', call_id: 'c1', output: 'ok' }),
        line(4, 'response_item', {
          type: 'function_call',
          name: 'exec_command',
          call_id: 'c2',
          arguments: JSON.stringify({ cmd: 'zebra-make test' }),
        }),
        line(5, 'response_item', {
          type: 'function_call_output',
          call_id: 'c2',
          output: 'Process exited with code 0\nOutput:\n12 passed',
        }),
        line(6, 'event_msg', {
          type: 'token_count',
          info: {
            last_token_usage: { input_tokens: 30_000, output_tokens: 80, total_tokens: 30_080 },
            model_context_window: 258_400,
          },
        }),
      ].join('\n') + '\n',
    );
    const payload = {
      session_id: SESSION,
      turn_id: 'turn-1',
      transcript_path: rollout,
      cwd: p.project,
      model: 'gpt-5.5',
    };
    const hook = (event: string, fields: Record<string, unknown>, base = payload) =>
      runShim(p.home, ['hook', '--agent', 'codex', event], {
        cwd: p.project,
        env,
        input: JSON.stringify({ ...base, hook_event_name: event, ...fields }),
      });

    parseOutput(hook('SessionStart', { source: 'startup' }), 'SessionStart');
    parseOutput(
      hook('PostToolUse', {
        tool_name: 'Bash',
        tool_use_id: 'c2',
        tool_input: { command: 'zebra-make test' },
        tool_response: '12 passed',
      }),
      'PostToolUse',
    );
    // The first call of the session is checkpointed in the background: its result, once done.
    await waitForProcessesUnder(p.home);
    assert.doesNotMatch(logText(p.home), /Claude Code conversation|"level":"error"/);
    assert.equal(checkpointsOf(p.home, SESSION).length, 1, logText(p.home));

    markKilled(p.home, SESSION);
    const nextRollout = join(p.elsewhere, `rollout-2026-11-28T11-00-00-${NEXT}.jsonl`);
    writeFileSync(
      nextRollout,
      line(0, 'session_meta', { id: NEXT, cwd: p.project, cli_version: '0.169.0' }) + '\n',
    );
    const next = { ...payload, session_id: NEXT, transcript_path: nextRollout };
    const { context } = parseOutput(
      hook('SessionStart', { source: 'startup' }, next),
      'next SessionStart',
    );
    assert.match(context, /port the ZEBRA-12 grammar/, 'the restore reached the next session');
    assert.doesNotMatch(context, /Claude/, 'no word of Claude Code (nor of its CLAUDE.md)');
    assert.match(context, /Codex CLI/);
    assert.match(context, /process is gone/, 'the kill is told as such');
    assert.match(context, /Build with zebra-make/, "AGENTS.md's instructions");
    assert.match(context, /`AGENTS\.md`/);
    assert.match(context, /update_plan/, 'the task tool Codex has');
    assert.doesNotMatch(context, /TodoWrite|TaskCreate/);
  });
});

describe('Gemini CLI: a killed session is restored as a Gemini session', () => {
  const SESSION = 'gem-own-restore-1';
  const NEXT = 'gem-own-restore-2';
  const at = (s: number) => new Date(Date.UTC(2026, 10, 28, 10, 0, s)).toISOString();

  /** `requests` prompts, each writing a file and updating the task list. */
  function chatRecords(project: string, sessionId: string, requests: number): unknown[] {
    const records: unknown[] = [{ sessionId, projectHash: 'abc', startTime: at(0), kind: 'main' }];
    for (let i = 0; i < requests; i++) {
      const file = join(project, 'src', `okapi-module-${i}.ts`);
      records.push(
        {
          id: `u${i}`,
          timestamp: at(2 * i + 1),
          type: 'user',
          content: [
            {
              text: `Request ${i}: make okapi-module-${i} read the OKAPI-${100 + i} records in batches, keep the order they arrive in, report each malformed record with its line number, and leave the old single-record reader in place until every caller moved over (step ${i} of the okapi migration).`,
            },
          ],
        },
        {
          id: `m${i}`,
          timestamp: at(2 * i + 2),
          type: 'gemini',
          content: `Module ${i} now reads in batches.`,
          model: 'gemini-2.5-pro',
          tokens: {
            input: 20_000 + i * 1_000,
            output: 40,
            cached: 0,
            thoughts: 0,
            tool: 0,
            total: 20_040 + i * 1_000,
          },
          toolCalls: [
            {
              id: `w${i}`,
              name: 'write_file',
              args: { file_path: file, content: `export const batch${i} = true;\n` },
              status: 'success',
              timestamp: at(2 * i + 2),
            },
            {
              id: `t${i}`,
              name: 'write_todos',
              args: {
                todos: Array.from({ length: requests }, (_, k) => ({
                  description: `move okapi-module-${k} to batched reads of OKAPI-${100 + k}`,
                  status: k < i ? 'completed' : k === i ? 'in_progress' : 'pending',
                })),
              },
              status: 'success',
              timestamp: at(2 * i + 2),
            },
          ],
        },
      );
    }
    return records;
  }

  /** The restore a new session of the project gets after a session of `requests` prompts was killed. */
  async function restoreAfterKill(requests: number): Promise<string> {
    const p = makeProject('shim-gem-own-', { 'GEMINI.md': GEMINI_MD, 'CLAUDE.md': CLAUDE_MD });
    const env = { GEMINI_CLI_HOME: join(p.home, 'gemini-home') };
    const chats = join(p.elsewhere, 'chats');
    mkdirSync(chats);
    const chat = join(chats, 'session-2026-11-28T10-00-aaaa1111.jsonl');
    writeFileSync(
      chat,
      chatRecords(p.project, SESSION, requests)
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n',
    );
    const payload = {
      session_id: SESSION,
      transcript_path: chat,
      cwd: p.project,
      timestamp: at(60),
    };
    const hook = (event: string, fields: Record<string, unknown>, base = payload) =>
      runShim(p.home, ['gemini-hook', event], {
        cwd: p.project,
        env,
        input: JSON.stringify({ ...base, hook_event_name: event, ...fields }),
      });

    parseOutput(hook('SessionStart', { source: 'startup' }), 'SessionStart');
    parseOutput(
      hook('AfterTool', {
        tool_name: 'write_todos',
        tool_input: { todos: [] },
        tool_response: { llmContent: 'ok' },
      }),
      'AfterTool',
    );
    await waitForProcessesUnder(p.home);
    assert.doesNotMatch(logText(p.home), /Claude Code conversation|"level":"error"/);
    assert.equal(checkpointsOf(p.home, SESSION).length, 1, logText(p.home));

    markKilled(p.home, SESSION);
    const nextChat = join(chats, 'session-2026-11-28T11-00-bbbb2222.jsonl');
    writeFileSync(
      nextChat,
      JSON.stringify({ sessionId: NEXT, projectHash: 'abc', startTime: at(70), kind: 'main' }) +
        '\n',
    );
    const next = { ...payload, session_id: NEXT, transcript_path: nextChat };
    const { context } = parseOutput(
      hook('SessionStart', { source: 'startup' }, next),
      'next SessionStart',
    );
    return context;
  }

  test('the restore says Gemini CLI, the process gone, GEMINI.md and write_todos', async () => {
    const context = await restoreAfterKill(3);
    assert.match(context, /OKAPI-102/, 'the restore reached the next session');
    assert.doesNotMatch(context, /Claude/, 'no word of Claude Code (nor of its CLAUDE.md)');
    assert.match(context, /Gemini CLI/);
    assert.match(context, /process is gone/, 'the kill is told as such');
    assert.match(context, /Test with okapi-check/, "GEMINI.md's instructions");
    assert.match(context, /`GEMINI\.md`/);
    assert.match(context, /write_todos/, 'the task tool Gemini has');
    assert.doesNotMatch(context, /TodoWrite|TaskCreate/);
  });

  test("a long session's restore keeps what Gemini takes through a hook, more than Claude Code's 9,500 characters", async () => {
    // Its requests and tasks alone (the restore's core, never shrunk below the agent's limit)
    // hold more than 9,500 characters.
    const context = await restoreAfterKill(24);
    assert.match(context, /OKAPI-123/);
    assert.ok(context.length > 9_500, `${context.length} characters`);
    assert.ok(context.length <= 20_000, `${context.length} characters`);
  });
});
