/**
 * `shim loop --agent` and `--fallback-agent` with the real CLIs, offline: Claude Code (pinned)
 * against the mock Messages API, Codex CLI (pinned) against the mock Responses API, Gemini CLI
 * (pinned) against the mock Gemini API.
 *
 * `--agent codex` and `--agent gemini`: a turn without the marker, then the same session resumed
 * (`codex exec resume <id>`, `gemini --resume <id>`) until it completes.
 *
 * `--fallback-agent codex`: Claude Code's turn is refused
 * with a usage limit (HTTP 429, "You've hit your limit · resets …"); the loop checkpoints its
 * session and carries the work on in Codex at once, whose first request carries the restore
 * rendered for Codex (the Claude session's request, its file, where it came from); the run
 * completes in Codex and records the agent running it.
 *
 *   node scripts/build.mjs && node scripts/test.mjs test/e2e/loop-agents
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  CLAUDE_BIN,
  claudeEnv,
  claudeInstallProblem,
  createScratch,
  E2E_SKIP,
  readJsonl,
} from './claude.ts';
import { CODEX_BIN, CODEX_E2E_SKIP, createCodexScratch } from './codex.ts';
import {
  ensureGemini,
  GEMINI_BIN,
  GEMINI_E2E_SKIP,
  geminiEnv,
  writeGeminiSettings,
} from './gemini.ts';
import { startMockApi } from './mock-api.ts';
import { startMockGemini } from './mock-gemini.ts';
import { startOpenAiMock } from './openai-mock.ts';
import { runShim } from './run-shim.ts';

const skip = E2E_SKIP || claudeInstallProblem() || CODEX_E2E_SKIP || false;
const MARKER = 'SHIM_LOOP_COMPLETE';
const LIMIT = "You've hit your limit · resets 3pm (UTC)";

function shim(args: string[], cwd: string, env: Record<string, string>, timeoutMs: number) {
  return runShim(args, { cwd, env, timeoutMs });
}

describe('shim loop with other agents (real Claude Code, Codex and Gemini CLIs)', { skip }, () => {
  test('a Claude Code loop at its usage limit carries on in Codex with the restore', async (t) => {
    const scratch = createScratch('shim-e2e-loopagents-');
    const anthropic = await startMockApi({
      steps: [
        {
          content: [
            {
              type: 'tool_use',
              name: 'Bash',
              input: { command: 'echo "first half" > wombat-report.txt' },
            },
          ],
        },
        { error: { status: 429, type: 'rate_limit_error', message: LIMIT } },
      ],
    });
    const openai = await startOpenAiMock({
      steps: [],
      final: { text: `The report is finished.\n${MARKER}`, usage: { input: 9_000 } },
    });
    const codex = createCodexScratch(openai, { project: scratch.project });
    t.after(async () => {
      await anthropic.close();
      await openai.close();
      codex.cleanup();
      scratch.cleanup();
    });
    const shimHome = join(scratch.root, 'shim-home');
    const env = claudeEnv(scratch, anthropic, {
      SHIM_HOME: shimHome,
      CLAUDE_CODE_DISABLE_1M_CONTEXT: '1',
      // The 429 ends the turn at once instead of being retried.
      CLAUDE_CODE_MAX_RETRIES: '0',
      CODEX_HOME: codex.codexHome,
      MOCK_API_KEY: 'dummy',
      NO_COLOR: '1',
    });
    const run = await shim(
      [
        'loop',
        '--goal',
        'Write the wombat report into wombat-report.txt.',
        '--claude-bin',
        CLAUDE_BIN,
        '--codex-bin',
        CODEX_BIN,
        '--fallback-agent',
        'codex',
        '--fallback-arg',
        '--dangerously-bypass-approvals-and-sandbox',
        '--iteration-timeout',
        '90s',
        '--json',
        '--',
        '--dangerously-skip-permissions',
      ],
      scratch.project,
      env,
      200_000,
    );
    const runDir = join(shimHome, 'loops');
    const events = existsSync(runDir)
      ? readJsonl<{ name: string; data: Record<string, unknown> }>(
          join(runDir, readdirSync(runDir)[0]!, 'events.jsonl'),
        )
      : [];
    const names = events.map((e) => e.name);
    assert.equal(run.code, 0, `${run.stderr}\n${names.join(' ')}`);

    // Claude Code did the first half and was refused at the limit.
    assert.equal(readFileSync(join(scratch.project, 'wombat-report.txt'), 'utf8'), 'first half\n');
    const result = JSON.parse(run.stdout) as {
      run: { status: string; agent: string };
      iterations: Array<{ outcome: string; checkpointId: string | null }>;
    };
    assert.equal(result.run.status, 'completed');
    assert.equal(result.run.agent, 'codex', 'the run records the agent that finished it');
    assert.deepEqual(
      result.iterations.map((i) => i.outcome),
      ['usage_limit', 'finished'],
    );
    const switched = events.find((e) => e.name === 'loop.agent_switched');
    assert.ok(switched, names.join(' '));
    assert.deepEqual([switched.data.from, switched.data.to], ['claude', 'codex']);
    assert.ok(switched.data.checkpointId, 'the Claude session was checkpointed');
    assert.ok(!names.includes('loop.usage_limit_wait'), 'no wait: the other agent took over');

    // Codex's first request carries the restore, rendered for Codex.
    const first = openai.requests.find((r) => r.kind !== 'other');
    assert.ok(first, 'Codex reached the mock');
    if (process.env.SHIM_E2E_KEEP === '1') process.stderr.write(`${first.text}\n`);
    assert.match(first.text, /Continued in Codex CLI from a Claude Code session/);
    assert.match(first.text, /wombat-report\.txt/);
    assert.match(first.text, /Write the wombat report/);
    const started = events.filter((e) => e.name === 'loop.iteration_started');
    assert.equal(started.at(-1)?.data.agent, 'codex');
  });

  test('--agent codex: a session continued across iterations (codex exec resume)', async (t) => {
    const openai = await startOpenAiMock({
      steps: [
        { calls: [{ name: 'exec_command', arguments: { cmd: 'echo one > half.txt' } }] },
        { text: 'Half of it is done.', usage: { input: 4_000 } },
      ],
      final: { text: `All done.\n${MARKER}`, usage: { input: 5_000 } },
    });
    const codex = createCodexScratch(openai);
    t.after(async () => {
      await openai.close();
      codex.cleanup();
    });
    const run = await shim(
      [
        'loop',
        '--agent',
        'codex',
        '--codex-bin',
        CODEX_BIN,
        '--goal',
        'Write half.txt, then finish.',
        '--iteration-timeout',
        '90s',
        '--json',
        '--',
        '--dangerously-bypass-approvals-and-sandbox',
      ],
      codex.project,
      codex.env,
      200_000,
    );
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as {
      run: { status: string; agent: string; sessionId: string };
      iterations: Array<{ mode: string; outcome: string; sessionId: string | null }>;
    };
    assert.equal(result.run.status, 'completed');
    assert.equal(result.run.agent, 'codex');
    assert.equal(readFileSync(join(codex.project, 'half.txt'), 'utf8'), 'one\n');
    assert.deepEqual(
      result.iterations.map((i) => [i.mode, i.outcome]),
      [
        ['fresh', 'finished'],
        ['continue', 'finished'],
      ],
    );
    // The second iteration resumed the thread the first one started.
    assert.equal(result.iterations[1]!.sessionId, result.iterations[0]!.sessionId);
    assert.match(result.run.sessionId, /^[0-9a-f-]{36}$/);
    const last = openai.requests.filter((r) => r.kind !== 'other').at(-1)!;
    assert.match(last.text, /Half of it is done/, 'the resumed thread holds the earlier turn');
  });

  test(
    '--agent gemini: a session continued across iterations (gemini --resume)',
    { skip: GEMINI_E2E_SKIP },
    async (t) => {
      ensureGemini();
      const scratch = createScratch('shim-e2e-loopgemini-');
      const mock = await startMockGemini({
        steps: [
          {
            parts: [
              {
                functionCall: { name: 'run_shell_command', args: { command: 'echo one > g.txt' } },
              },
            ],
          },
          { parts: [{ text: 'Half of it is done.' }] },
        ],
        final: { parts: [{ text: `All done.\n${MARKER}` }] },
      });
      t.after(async () => {
        await mock.close();
        scratch.cleanup();
      });
      writeGeminiSettings(scratch);
      const shimHome = join(scratch.root, 'shim-home');
      const env = geminiEnv(scratch, mock, shimHome) as Record<string, string>;
      const run = await shim(
        [
          'loop',
          '--agent',
          'gemini',
          '--gemini-bin',
          GEMINI_BIN,
          '--goal',
          'Write g.txt, then finish.',
          '--iteration-timeout',
          '90s',
          '--json',
        ],
        scratch.project,
        env,
        200_000,
      );
      assert.equal(run.code, 0, run.stderr);
      const result = JSON.parse(run.stdout) as {
        run: { status: string; agent: string };
        iterations: Array<{ mode: string; outcome: string; sessionId: string | null }>;
      };
      assert.equal(result.run.status, 'completed');
      assert.equal(result.run.agent, 'gemini');
      assert.equal(readFileSync(join(scratch.project, 'g.txt'), 'utf8'), 'one\n');
      assert.deepEqual(
        result.iterations.map((i) => [i.mode, i.outcome]),
        [
          ['fresh', 'finished'],
          ['continue', 'finished'],
        ],
      );
      assert.ok(result.iterations[0]!.sessionId);
      assert.equal(result.iterations[1]!.sessionId, result.iterations[0]!.sessionId);
    },
  );

  test('a Codex loop at its usage limit carries on in Claude Code with the restore', async (t) => {
    const scratch = createScratch('shim-e2e-loopagents-');
    const openai = await startOpenAiMock({
      steps: [
        { calls: [{ name: 'exec_command', arguments: { cmd: 'echo numbat > numbat.txt' } }] },
        {
          error: {
            status: 429,
            code: 'usage_limit_reached',
            message: 'The usage limit has been reached',
          },
        },
      ],
    });
    const anthropic = await startMockApi({
      steps: [],
      final: { content: [{ type: 'text', text: `Numbat report done.\n${MARKER}` }] },
    });
    const codex = createCodexScratch(openai, { project: scratch.project });
    t.after(async () => {
      await anthropic.close();
      await openai.close();
      codex.cleanup();
      scratch.cleanup();
    });
    const shimHome = join(scratch.root, 'shim-home');
    const env = claudeEnv(scratch, anthropic, {
      SHIM_HOME: shimHome,
      CLAUDE_CODE_DISABLE_1M_CONTEXT: '1',
      CODEX_HOME: codex.codexHome,
      MOCK_API_KEY: 'dummy',
      NO_COLOR: '1',
    });
    const run = await shim(
      [
        'loop',
        '--agent',
        'codex',
        '--fallback-agent',
        'claude',
        '--goal',
        'Write the numbat report into numbat.txt.',
        '--codex-bin',
        CODEX_BIN,
        '--claude-bin',
        CLAUDE_BIN,
        '--fallback-arg',
        '--dangerously-skip-permissions',
        '--iteration-timeout',
        '90s',
        '--json',
        '--',
        '--dangerously-bypass-approvals-and-sandbox',
      ],
      scratch.project,
      env,
      200_000,
    );
    assert.equal(run.code, 0, run.stderr);
    assert.equal(readFileSync(join(scratch.project, 'numbat.txt'), 'utf8'), 'numbat\n');
    const result = JSON.parse(run.stdout) as {
      run: { status: string; agent: string };
      iterations: Array<{ outcome: string }>;
    };
    assert.equal(result.run.status, 'completed');
    assert.equal(result.run.agent, 'claude');
    assert.deepEqual(
      result.iterations.map((i) => i.outcome),
      ['usage_limit', 'finished'],
    );
    // Claude Code's first request carries the Codex session's restore.
    const first = anthropic.messageRequests().find((r) => r.kind === 'step' || r.kind === 'final');
    assert.ok(first, 'Claude Code reached the mock');
    assert.ok(
      anthropic
        .requestsContaining('Continued in Claude Code from a Codex CLI session')
        .some((r) => r.index === first.index),
    );
    assert.ok(anthropic.requestsContaining('numbat.txt').some((r) => r.index === first.index));
  });
});
