/**
 * Proves the e2e harness against the real, pinned Claude Code CLI, fully offline: a Bash tool turn,
 * project hooks with SessionStart context, reactive compaction, and kill -9 mid-tool.
 *
 *   node scripts/test.mjs test/e2e             # runs them (each CLI run takes ~1–3 s)
 *   SHIM_SKIP_E2E=1 node scripts/test.mjs      # reports them as skipped
 *   SHIM_E2E_KEEP=1 …                          # keeps the scratch dirs for a look afterwards
 *
 * A missing or wrong claude binary fails every test here with a message saying how to install it.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import {
  claudeInstallProblem,
  createScratch,
  describeRun,
  E2E_SKIP,
  FAKE_API_KEY,
  pollUntil,
  projectTranscriptDir,
  readJsonl,
  runClaude,
  spawnClaude,
  writeRecordingHooks,
  type ClaudeRun,
  type Scratch,
} from './claude.ts';
import {
  PROMPT_TOO_LONG_STEP,
  startMockApi,
  type ContentBlock,
  type MockApi,
  type Scenario,
} from './mock-api.ts';

type Entry = {
  type: string;
  subtype?: string;
  isCompactSummary?: boolean;
  compactMetadata?: { trigger?: string };
  attachment?: { type?: string; [key: string]: unknown };
  message?: { role?: string; content?: string | ContentBlock[] };
};
type HookInput = {
  hook_event_name: string;
  session_id: string;
  transcript_path: string;
  cwd: string;
  [key: string]: unknown;
};

const MARKER = 'MARKER-RESTORE-e2e';

/** A fresh scratch dir and mock for one test, both cleaned up after it. */
async function setup(
  t: TestContext,
  scenario: Scenario,
): Promise<{ scratch: Scratch; mock: MockApi }> {
  const scratch = createScratch();
  const mock = await startMockApi(scenario);
  t.after(async () => {
    await mock.close();
    scratch.cleanup();
  });
  return { scratch, mock };
}

function assertSuccess(run: ClaudeRun): void {
  assert.equal(run.exitCode, 0, describeRun(run));
  const result = run.events.find((e) => e.type === 'result');
  assert.equal(result?.subtype, 'success', describeRun(run));
  assert.equal(result?.is_error, false, describeRun(run));
  assert.ok(run.sessionId, 'no session id in the stream');
  assert.ok(existsSync(run.transcriptPath), `no transcript at ${run.transcriptPath}`);
}

function blocks(entry: Entry): ContentBlock[] {
  const content = entry.message?.content;
  return Array.isArray(content) ? content : [];
}

const installProblem = E2E_SKIP ? null : claudeInstallProblem();
const needsClaude = {
  skip: installProblem ? 'no usable Claude Code CLI: see the failing install test' : false,
};

describe('e2e harness: the real Claude Code CLI against the mock API', { skip: E2E_SKIP }, () => {
  test('the pinned Claude Code CLI is installed', () => {
    if (installProblem) assert.fail(installProblem);
  });

  test(
    'a scripted Bash tool call runs for real and lands in the transcript',
    needsClaude,
    async (t) => {
      const { scratch, mock } = await setup(t, {
        steps: [
          {
            content: [
              { type: 'text', text: 'I will create the file.' },
              {
                type: 'tool_use',
                name: 'Bash',
                input: { command: 'echo hi > out.txt', description: 'Write hi' },
              },
            ],
          },
        ],
        final: { content: [{ type: 'text', text: 'Created out.txt.' }] },
      });

      const run = await runClaude({ scratch, mock, prompt: 'make out.txt' });

      assertSuccess(run);
      assert.equal(readFileSync(join(scratch.project, 'out.txt'), 'utf8'), 'hi\n');
      assert.equal(
        run.transcriptPath,
        join(projectTranscriptDir(scratch.home, scratch.project), `${run.sessionId}.jsonl`),
      );
      const entries = readJsonl<Entry>(run.transcriptPath);
      const toolUse = entries
        .filter((e) => e.type === 'assistant')
        .flatMap(blocks)
        .find((b) => b.type === 'tool_use' && b.name === 'Bash');
      assert.ok(toolUse, 'no Bash tool_use in the transcript');
      const toolResult = entries
        .filter((e) => e.type === 'user')
        .flatMap(blocks)
        .find((b) => b.type === 'tool_result' && b.tool_use_id === toolUse.id);
      assert.ok(toolResult, 'no tool_result for the Bash call in the transcript');

      const requests = mock.messageRequests();
      assert.ok(requests.length >= 2, `mock saw ${requests.length} message requests`);
      assert.ok(requests.every((r) => r.stream && r.headers['x-api-key'] === FAKE_API_KEY));
      assert.deepEqual(
        requests.map((r) => r.kind),
        ['step', 'final'],
      );
      assert.deepEqual(
        mock.requestsContaining(String(toolUse.id)).map((r) => r.index),
        [requests[1]!.index],
        'the tool_use id travels back in the second request only',
      );
      assert.ok(
        run.events.some((e) => e.type === 'user'),
        'no tool_result line in stream-json',
      );
    },
  );

  test(
    'project hooks fire with their inputs, and SessionStart context reaches the model',
    needsClaude,
    async (t) => {
      const { scratch, mock } = await setup(t, {
        steps: [
          { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo hooked' } }] },
        ],
      });
      const hookLog = writeRecordingHooks(scratch, { marker: MARKER });

      const run = await runClaude({ scratch, mock, prompt: 'run a command' });

      assertSuccess(run);
      const hooks = readJsonl<HookInput>(hookLog);
      const byEvent = (name: string): HookInput[] =>
        hooks.filter((h) => h.hook_event_name === name);
      for (const name of ['SessionStart', 'PreToolUse', 'PostToolUse', 'Stop', 'SessionEnd']) {
        assert.equal(byEvent(name).length, 1, `${name} fired ${byEvent(name).length} times`);
      }
      for (const hook of hooks) {
        assert.equal(hook.session_id, run.sessionId);
        assert.equal(hook.transcript_path, run.transcriptPath);
        assert.equal(hook.cwd, scratch.project);
      }
      assert.equal(byEvent('SessionStart')[0]!.source, 'startup');
      const pre = byEvent('PreToolUse')[0]!;
      assert.equal(pre.tool_name, 'Bash');
      assert.deepEqual(pre.tool_input, { command: 'echo hooked' });
      const post = byEvent('PostToolUse')[0]!;
      assert.equal(post.tool_use_id, pre.tool_use_id);
      assert.equal((post.tool_response as { stdout?: string }).stdout, 'hooked');
      assert.equal(byEvent('Stop')[0]!.last_assistant_message, 'Done.');
      assert.equal(byEvent('SessionEnd')[0]!.reason, 'other');
      assert.deepEqual(
        hooks.map((h) => h.hook_event_name),
        ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SessionEnd'],
      );

      // The context is in the very first request (in a role:"system" message, with 2.1.330) …
      const first = mock.messageRequests()[0]!;
      assert.equal(mock.requestsContaining(`${MARKER} source=startup`)[0]?.index, first.index);
      // … and recorded in the transcript as a hook_additional_context attachment.
      const attachments = readJsonl<Entry>(run.transcriptPath).filter(
        (e) => e.attachment?.type === 'hook_additional_context',
      );
      assert.ok(JSON.stringify(attachments).includes(`${MARKER} source=startup`));
    },
  );

  test(
    'a prompt-too-long error compacts reactively, with PreCompact and SessionStart(compact)',
    needsClaude,
    async (t) => {
      const summaryText = 'Ran two commands for the user.';
      const { scratch, mock } = await setup(t, {
        steps: [
          { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo one' } }] },
          { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo two' } }] },
          PROMPT_TOO_LONG_STEP,
        ],
        final: { content: [{ type: 'text', text: 'Finished after compaction.' }] },
        summary: {
          content: [
            { type: 'text', text: `<analysis>ok</analysis>\n<summary>${summaryText}</summary>` },
          ],
        },
      });
      const hookLog = writeRecordingHooks(scratch, { marker: MARKER });

      const run = await runClaude({ scratch, mock, prompt: 'run two commands' });

      assertSuccess(run);
      const entries = readJsonl<Entry>(run.transcriptPath);
      const boundary = entries.find((e) => e.type === 'system' && e.subtype === 'compact_boundary');
      assert.ok(boundary, 'no compact_boundary in the transcript');
      assert.equal(boundary.compactMetadata?.trigger, 'auto');
      const continued = entries.find((e) => e.type === 'user' && e.isCompactSummary);
      assert.ok(JSON.stringify(continued?.message?.content).includes(summaryText));
      assert.ok(run.events.some((e) => e.type === 'system' && e.subtype === 'compact_boundary'));

      const hooks = readJsonl<HookInput>(hookLog);
      const preCompact = hooks.find((h) => h.hook_event_name === 'PreCompact');
      assert.equal(preCompact?.trigger, 'auto');
      const sources = hooks
        .filter((h) => h.hook_event_name === 'SessionStart')
        .map((h) => h.source);
      assert.deepEqual(sources, ['startup', 'compact']);
      assert.ok(hooks.findIndex((h) => h.hook_event_name === 'PreCompact') < hooks.length - 1);

      const kinds = mock.messageRequests().map((r) => r.kind);
      assert.deepEqual(kinds, ['step', 'step', 'step', 'summary', 'final']);
      const summaryRequest = mock.messageRequests().find((r) => r.kind === 'summary')!;
      const withCompactMarker = mock.requestsContaining(`${MARKER} source=compact`);
      assert.ok(
        withCompactMarker.length > 0 && withCompactMarker[0]!.index > summaryRequest.index,
        'SessionStart(compact) context did not reach a request after the compaction',
      );
    },
  );

  test('spawnClaude can kill -9 the CLI in the middle of a tool call', needsClaude, async (t) => {
    const { scratch, mock } = await setup(t, {
      steps: [
        { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo one > one.txt' } }] },
        {
          content: [
            {
              type: 'tool_use',
              name: 'Bash',
              input: { command: 'sleep 20; echo late > late.txt' },
            },
          ],
        },
      ],
    });
    const hookLog = writeRecordingHooks(scratch);

    const claude = spawnClaude({ scratch, mock, prompt: 'run a slow command', timeoutMs: 30_000 });
    await claude.waitForEvent(
      (e) => e.type === 'assistant' && JSON.stringify(e).includes('sleep 20'),
      20_000,
    );
    // The transcript is written asynchronously: crash only once the tool call is on disk.
    await pollUntil(() => readFileSync(claude.transcriptPath, 'utf8').includes('sleep 20'));
    claude.kill('SIGKILL');
    const run = await claude.result;

    assert.equal(run.signal, 'SIGKILL', describeRun(run));
    assert.equal(run.timedOut, false);
    assert.ok(run.durationMs < 15_000, `took ${run.durationMs} ms`);
    assert.ok(existsSync(join(scratch.project, 'one.txt')));
    const events = readJsonl<HookInput>(hookLog).map((h) => h.hook_event_name);
    assert.ok(!events.includes('Stop') && !events.includes('SessionEnd'), events.join(','));
    const entries = readJsonl<Entry>(run.transcriptPath);
    const ids = (type: string, kind: string, key: string): unknown[] =>
      entries
        .filter((e) => e.type === type)
        .flatMap(blocks)
        .filter((b) => b.type === kind)
        .map((b) => b[key]);
    const open = ids('assistant', 'tool_use', 'id').filter(
      (id) => !ids('user', 'tool_result', 'tool_use_id').includes(id),
    );
    assert.equal(open.length, 1, 'the slow tool call should be left without a result');
  });
});
