/**
 * Restores under the real Claude Code CLI (pinned 2.1.330), offline against the mock Messages
 * API: (a) kill -9 while a long command runs, right after a TaskCreate, a TaskUpdate and a failed
 * command (the restore names the interrupted command, the one before it and the failure); (b) a
 * second kill -9 in the resumed session; (c) an auto-compaction checkpointed (PreCompact's
 * checkpoint and handoff), steered and restored; (d) two projects that never see each other's
 * work, a session killed mid-task resumed by the next one in its project. SHIM_SKIP_E2E=1 skips
 * them.
 *
 *   node scripts/build.mjs && node scripts/test.mjs test/e2e/restore
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { DatabaseSync } from '@photostructure/sqlite';
import { BIN } from '../helpers/cli.ts';
import {
  claudeInstallProblem,
  createScratch,
  describeRun,
  installShimHooks,
  E2E_SKIP,
  killWhenTranscriptHas,
  readJsonl,
  runClaude,
  spawnClaude,
  type Scratch,
} from './claude.ts';
import { startMockApi, type MockApi, type RecordedRequest, type Scenario } from './mock-api.ts';

const skip = E2E_SKIP || claudeInstallProblem() || false;

const FIRST_REQUEST = 'Please build the ZEBRA-42 importer and keep the CSV parser strict.';
const SECOND_REQUEST = 'Also make the QUOKKA-7 export reuse the same parser.';
/** The restore's first line after a crash, and after a compaction (core/resume/resume-prompt.ts). */
const CRASH_HEAD = '# Resuming after a crash (shim checkpoint #';
const COMPACTION_HEAD = '# Continuing after compaction (shim checkpoint #';
/** In every restore's heading. */
const ANY_RESTORE = '(shim checkpoint #';
/** A command that fails (exit 2) before the one killed, and one that succeeds between them. */
const FAILING_COMMAND = 'ls no-such-QUOKKA-dir';
const FAILURE_OUTPUT = 'No such file or directory';
const COMMAND_BEFORE = 'echo exported-WALRUS-3';
/** Task tools are off in `-p` unless named (docs/claude-code.md, "Task tools"). */
const TOOLS = ['--tools', 'Bash,Read,TaskCreate,TaskUpdate'];

/** A second git project beside the scratch one, sharing its HOME (and so SHIM_HOME). */
function addProject(scratch: Scratch, name: string): Scratch {
  const project = join(scratch.root, name);
  mkdirSync(project);
  spawnSync('git', ['init', '-q', '-b', 'main'], { cwd: project });
  installShimHooks({ ...scratch, project });
  return { ...scratch, project };
}

async function setup(
  t: TestContext,
  scenario: Scenario,
): Promise<{ scratch: Scratch; mock: MockApi; shimHome: string }> {
  const scratch = createScratch('shim-e2e-restore-');
  const mock = await startMockApi(scenario);
  t.after(async () => {
    await mock.close();
    scratch.cleanup();
  });
  installShimHooks(scratch);
  // A command that runs long enough to be killed mid-way (the Bash tool refuses `sleep N; …`).
  writeFileSync(join(scratch.project, 'slow.sh'), 'sleep 60\n');
  return { scratch, mock, shimHome: join(scratch.home, '.shim') };
}

const bash = (command: string) => ({
  content: [{ type: 'tool_use' as const, name: 'Bash', input: { command } }],
});
const taskCreate = (subject: string) => ({
  content: [
    {
      type: 'tool_use' as const,
      name: 'TaskCreate',
      input: { subject, description: `${subject} (details)`, activeForm: subject },
    },
  ],
});
const taskUpdate = (taskId: string, status: string) => ({
  content: [{ type: 'tool_use' as const, name: 'TaskUpdate', input: { taskId, status } }],
});

/** The text of every message and system block of a request, for assertions with context. */
function textOf(request: RecordedRequest): string {
  return JSON.stringify(request.body?.messages ?? []) + JSON.stringify(request.body?.system ?? '');
}

/** The first request the model got in a run (not the title or other side requests). */
function firstModelRequest(mock: MockApi): RecordedRequest {
  const first = mock.requests.find((r) => r.kind === 'step' || r.kind === 'final');
  assert.ok(first, 'the run sent a request to the model');
  return first;
}

function shim(home: string, cwd: string, args: string[]) {
  return spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, HOME: home, SHIM_HOME: join(home, '.shim') },
  });
}

function triggers(shimHome: string): string[] {
  const db = new DatabaseSync(join(shimHome, 'shim.db'), { readOnly: true, timeout: 5000 });
  try {
    return (
      db.prepare('SELECT triggered_by FROM checkpoints ORDER BY created_at').all() as Array<{
        triggered_by: string;
      }>
    ).map((r) => r.triggered_by);
  } finally {
    db.close();
  }
}

describe('restores under the real Claude Code CLI', { skip }, () => {
  test('(a) kill -9 mid-command after TaskCreate + TaskUpdate and a failed command: the next first request says where it was; (b) a second kill -9: the third session still carries the first request and open tasks', async (t) => {
    const { scratch, mock, shimHome } = await setup(t, {
      steps: [taskCreate('Parse the CSV header strictly'), bash('echo parsed')],
      final: { content: [{ type: 'text', text: 'First part done.' }] },
    });
    const first = await runClaude({ scratch, mock, prompt: FIRST_REQUEST, args: TOOLS });
    assert.equal(first.exitCode, 0, describeRun(first));

    // The same session takes a second request, then dies while a long command runs.
    mock.reset({
      steps: [
        taskUpdate('1', 'in_progress'),
        taskCreate('Write the QUOKKA-7 export tests'),
        bash(FAILING_COMMAND),
        bash(COMMAND_BEFORE),
        bash('sh slow.sh'),
      ],
      final: { content: [{ type: 'text', text: 'never reached' }] },
    });
    const killed = spawnClaude({
      scratch,
      mock,
      prompt: SECOND_REQUEST,
      args: [...TOOLS, '--continue'],
    });
    await killWhenTranscriptHas(killed, 'sh slow.sh', shimHome);

    // `shim resume --print` right after the crash reads the transcript as the hook will.
    const printed = shim(scratch.home, scratch.project, ['resume', '--print']);
    assert.equal(printed.status, 0, printed.stderr);
    assert.ok(printed.stdout.startsWith(CRASH_HEAD), printed.stdout.slice(0, 200));
    for (const needle of ['sh slow.sh', 'Write the QUOKKA-7 export tests', SECOND_REQUEST])
      assert.ok(printed.stdout.includes(needle), `resume --print names ${needle}`);
    assert.ok(!printed.stdout.includes('re-run TaskCreate'), 'the task is a task, not a call');

    // (a) The next session's first request carries all of it.
    mock.reset({
      steps: [bash('echo resumed'), bash('sh slow.sh')],
      final: { content: [{ type: 'text', text: 'never reached' }] },
    });
    const second = spawnClaude({ scratch, mock, prompt: 'continue', args: TOOLS });
    await killWhenTranscriptHas(second, 'sh slow.sh', shimHome);
    const restored = textOf(firstModelRequest(mock));
    assert.ok(restored.includes(CRASH_HEAD), 'the first request carries the restore');
    for (const needle of [
      FIRST_REQUEST,
      SECOND_REQUEST,
      'sh slow.sh',
      'Parse the CSV header strictly — **in progress**',
      'Write the QUOKKA-7 export tests',
    ]) {
      assert.ok(restored.includes(needle), `the restore names ${needle}`);
    }
    assert.match(restored, /interrupted/i, 'the command is named as interrupted');
    // Where it was (issue 40): the interrupted command, the one before it, the newest failure.
    assert.ok(restored.includes('## Where you were'), 'the restore says where the work was');
    for (const needle of [COMMAND_BEFORE, FAILING_COMMAND, FAILURE_OUTPUT])
      assert.ok(restored.includes(needle), `where it was names ${needle}`);
    assert.ok(!restored.includes('{\\"command\\":'), 'no raw tool input in the restore');
    assert.ok(triggers(shimHome).includes('crash_recovery'), 'built from the live transcript');

    // (b) The second session died too: the third still carries the original request and tasks.
    mock.reset({ steps: [], final: { content: [{ type: 'text', text: 'Resumed again.' }] } });
    const third = await runClaude({ scratch, mock, prompt: 'go on', args: TOOLS });
    assert.equal(third.exitCode, 0, describeRun(third));
    const again = textOf(firstModelRequest(mock));
    assert.ok(again.includes(CRASH_HEAD), 'the third session is restored too');
    for (const needle of [
      FIRST_REQUEST,
      SECOND_REQUEST,
      'Parse the CSV header strictly',
      'Write the QUOKKA-7 export tests',
    ]) {
      assert.ok(again.includes(needle), `the third session still has ${needle}`);
    }
  });

  test("(c) auto-compaction: PreCompact saves a checkpoint and a handoff, the summary request carries shim's instructions; the next request carries the restore, framed as a compaction with the last test result and no stale level note", async (t) => {
    const { scratch, mock, shimHome } = await setup(t, {
      steps: [
        bash('npm test'),
        bash('echo two'),
        {
          ...bash('echo three'),
          usage: { input_tokens: 1000, cache_read_input_tokens: 168_900, output_tokens: 100 },
        },
      ],
      final: { content: [{ type: 'text', text: 'Finished after compaction.' }] },
      summary: {
        content: [
          { type: 'text', text: '<analysis>ok</analysis>\n<summary>Ran commands.</summary>' },
        ],
      },
    });
    writeFileSync(
      join(scratch.project, 'package.json'),
      `${JSON.stringify({ name: 'p', scripts: { test: 'echo 12 passing' } })}\n`,
    );
    const run = await runClaude({
      scratch,
      mock,
      prompt: FIRST_REQUEST,
      env: { CLAUDE_CODE_DISABLE_1M_CONTEXT: '1' },
    });
    assert.equal(run.exitCode, 0, describeRun(run));
    const entries = readJsonl<{ subtype?: string; compactMetadata?: { trigger?: string } }>(
      run.transcriptPath,
    );
    assert.ok(
      entries.some(
        (e) => e.subtype === 'compact_boundary' && e.compactMetadata?.trigger === 'auto',
      ),
      'Claude Code auto-compacted',
    );
    // PreCompact's checkpoint, and one more from the transcript at SessionStart(compact) when
    // Claude Code wrote lines after PreCompact ran: the newest is the one restored.
    const db = new DatabaseSync(join(shimHome, 'shim.db'), { readOnly: true, timeout: 5000 });
    const checkpoints = db
      .prepare('SELECT triggered_by, restored_at FROM checkpoints ORDER BY created_at')
      .all() as Array<{ triggered_by: string; restored_at: string | null }>;
    // One handoff before the compaction. When the transcript already shows the response that
    // crossed the threshold as its tool's PostToolUse runs, L3 writes one of its own first.
    const kinds = (
      db.prepare('SELECT kind FROM handoffs ORDER BY created_at').all() as Array<{ kind: string }>
    ).map((r) => r.kind);
    db.close();
    const preCompact = checkpoints.filter((r) => r.triggered_by === 'pre_compact');
    assert.ok(preCompact.length > 0, `checkpoints: ${checkpoints.map((r) => r.triggered_by)}`);
    assert.ok(
      preCompact.some((r) => r.restored_at),
      'SessionStart(compact) recorded the restore',
    );
    assert.equal(kinds.at(-1), 'pre_compact', 'a handoff document was written');
    assert.ok(kinds.length === 1 || kinds[0] === 'level_L3', kinds.join(', '));
    assert.equal(readdirSync(join(shimHome, 'handoffs')).length, kinds.length);

    const summary = mock.requests.find((r) => r.kind === 'summary');
    assert.ok(summary, 'Claude Code compacted');
    const summaryText = textOf(summary);
    assert.ok(
      summaryText.includes('Context checkpoint (shim)'),
      "the compaction request carries shim's PreCompact instructions",
    );
    assert.ok(summaryText.includes('ZEBRA-42 importer'), 'they quote the request');

    const after = mock.requests
      .slice(summary.index + 1)
      .find((r) => r.kind === 'step' || r.kind === 'final');
    assert.ok(after, 'a request followed the compaction');
    const restore = textOf(after);
    assert.ok(
      restore.includes(COMPACTION_HEAD),
      'the first request after it carries the restore, headed as a compaction',
    );
    assert.ok(restore.includes('ZEBRA-42 importer'), "the user's request is in it");
    assert.ok(
      restore.includes('Claude Code compacted this conversation'),
      'framed as a compaction',
    );
    assert.ok(!/crashed|without a clean end|still running/.test(restore), 'not framed as a crash');
    assert.match(restore, /last test run `npm test`: passing/, 'the last test result is stated');
    assert.ok(!restore.includes('[shim] Context is at'), 'no stale level note');
  });

  test("(d) two projects: nothing of project A reaches a session in project B; A's next session resumes its killed one", async (t) => {
    const { scratch, mock, shimHome } = await setup(t, {
      steps: [taskCreate('Import the ZEBRA-42 rows'), bash('sh slow.sh')],
      final: { content: [{ type: 'text', text: 'never reached' }] },
    });
    const killed = spawnClaude({ scratch, mock, prompt: FIRST_REQUEST, args: TOOLS });
    await killWhenTranscriptHas(killed, 'sh slow.sh', shimHome);

    const projectB = addProject(scratch, 'project-b');
    mock.reset({ steps: [], final: { content: [{ type: 'text', text: 'Hello from B.' }] } });
    const inB = await runClaude({ scratch: projectB, mock, prompt: 'What is in this repo?' });
    assert.equal(inB.exitCode, 0, describeRun(inB));
    for (const request of mock.requests) {
      assert.ok(!textOf(request).includes('ZEBRA-42'), `request ${request.index} leaks project A`);
      assert.ok(!textOf(request).includes(ANY_RESTORE), 'no restore in project B');
    }
    const printed = shim(scratch.home, projectB.project, ['resume', '--print']);
    assert.equal(printed.status, 0, printed.stderr);
    assert.ok(printed.stdout.includes('What is in this repo?'), "B's own session");
    assert.ok(!printed.stdout.includes('ZEBRA-42'), "resume --print in B never prints A's work");
    const empty = join(scratch.root, 'empty');
    mkdirSync(empty);
    const none = shim(scratch.home, empty, ['resume', '--print']);
    assert.equal(none.status, 1);
    assert.equal(none.stdout, '');
    assert.match(none.stderr, /no checkpoints in project .*empty/);
    // Project A still gets its own restore.
    mock.reset({ steps: [], final: { content: [{ type: 'text', text: 'Back in A.' }] } });
    const inA = await runClaude({ scratch, mock, prompt: 'continue', args: TOOLS });
    assert.equal(inA.exitCode, 0, describeRun(inA));
    assert.ok(textOf(firstModelRequest(mock)).includes('ZEBRA-42'), 'A is restored in A');
    // As a crash, in the first turn request of A's next session, restored once.
    const first = mock.firstTurnRequest(inA.sessionId);
    assert.ok(first, 'a turn request from the next session in A');
    assert.ok(textOf(first).includes(CRASH_HEAD), 'it carries the resume context');
    assert.ok(textOf(first).includes('ZEBRA-42 importer'), "the killed session's request");
    const restored = new DatabaseSync(join(shimHome, 'shim.db'), { readOnly: true, timeout: 5000 });
    try {
      const { n } = restored
        .prepare('SELECT count(*) AS n FROM checkpoints WHERE restored_at IS NOT NULL')
        .get() as { n: number };
      assert.equal(n, 1, 'one checkpoint restored');
    } finally {
      restored.close();
    }
    assert.notEqual(inA.sessionId, killed.sessionId);
  });
});
