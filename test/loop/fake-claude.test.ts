import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseStreamLine, type AgentEvent } from '../../src/agents/claude/stream-json.ts';

const FAKE = join(import.meta.dirname, 'fake-claude.mjs');
const STREAM_ARGS = ['--output-format', 'stream-json', '--verbose'];

const scratch = mkdtempSync(join(tmpdir(), 'shim-fake-claude-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

let dirs = 0;

/** A fresh project dir, config dir, scenario and log for one test. */
function setup(scenario?: unknown) {
  const root = join(scratch, String(++dirs));
  const project = join(root, 'project');
  const config = join(root, 'config');
  const scenarioPath = join(root, 'scenario.json');
  const logPath = join(root, 'log.jsonl');
  mkdirSync(project, { recursive: true });
  if (scenario !== undefined) writeFileSync(scenarioPath, JSON.stringify(scenario));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CLAUDE_CONFIG_DIR: config,
    FAKE_CLAUDE_LOG: logPath,
    ...(scenario !== undefined ? { FAKE_CLAUDE_SCENARIO: scenarioPath } : {}),
  };
  const transcriptPath = (sessionId: string) =>
    join(config, 'projects', project.replace(/[^a-zA-Z0-9]/g, '-'), `${sessionId}.jsonl`);
  return { root, project, env, scenarioPath, logPath, transcriptPath };
}

type Fake = {
  pid: number;
  lines: () => string[];
  waitForLines: (count: number, timeoutMs?: number) => Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr: () => string;
  kill: (signal: NodeJS.Signals) => void;
  closeStdout: () => void;
};

/** Starts the fake in its own process group, as the supervisor will. */
function start(
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd: string; stdin?: string },
): Fake {
  const child = spawn(FAKE, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  // A fake that answers without reading its stdin (--version) may exit before the write lands:
  // that EPIPE is no failure of the fake.
  child.stdin.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  if (options.stdin === undefined) child.stdin.end();
  else child.stdin.end(options.stdin);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on('close', (code, signal) => done({ code, signal })),
  );
  const lines = () => stdout.split('\n').filter((l) => l.length > 0);
  return {
    pid: child.pid ?? -1,
    lines,
    stderr: () => stderr,
    exited,
    kill: (signal) => process.kill(-(child.pid ?? 0), signal),
    closeStdout: () => child.stdout.destroy(),
    async waitForLines(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (lines().length < count) {
        if (Date.now() > deadline) throw new Error(`timed out; got ${lines().join('\n')}`);
        await sleep(10);
      }
    },
  };
}

async function run(
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd: string; stdin?: string },
): Promise<{ code: number | null; lines: string[]; events: AgentEvent[]; stderr: string }> {
  const fake = start(args, options);
  const { code } = await fake.exited;
  const lines = fake.lines();
  return { code, lines, events: lines.flatMap(parseStreamLine), stderr: fake.stderr() };
}

const readJsonl = (path: string): Record<string, unknown>[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

const kinds = (events: AgentEvent[]) => events.map((e) => e.kind);

function only<K extends AgentEvent['kind']>(
  events: AgentEvent[],
  kind: K,
): Extract<AgentEvent, { kind: K }>[] {
  return events.filter((e): e is Extract<AgentEvent, { kind: K }> => e.kind === kind);
}

describe('fake-claude command line', () => {
  it('prints its version like the real CLI', async () => {
    const t = setup();
    const result = await run(['--version'], { env: t.env, cwd: t.project });
    assert.equal(result.code, 0);
    assert.deepEqual(result.lines, ['2.1.330 (Claude Code)']);
  });

  it('refuses stream-json without --verbose, before counting an invocation', async () => {
    const t = setup({ runs: [] });
    const result = await run(['-p', 'hi', '--output-format', 'stream-json'], {
      env: t.env,
      cwd: t.project,
    });
    assert.equal(result.code, 1);
    assert.deepEqual(result.lines, []);
    assert.equal(
      result.stderr,
      'Error: When using --print, --output-format=stream-json requires --verbose\n',
    );
    assert.equal(existsSync(t.logPath), false);
    assert.equal(existsSync(`${t.scenarioPath}.state`), false);
  });

  it('without a scenario answers "Nothing to do.", logs the call and writes the transcript', async () => {
    const t = setup();
    const args = ['-p', 'do the thing', ...STREAM_ARGS, '--model', 'opus', '--max-turns', '3'];
    const fake = start(args, { env: t.env, cwd: t.project });
    const { code } = await fake.exited;
    assert.equal(code, 0);
    const events = fake.lines().flatMap(parseStreamLine);
    assert.deepEqual(kinds(events), ['init', 'response', 'result']);
    const [init] = only(events, 'init');
    assert.equal(init?.cwd, t.project);
    assert.equal(init?.model, 'claude-opus-5-5');
    assert.equal(init?.cliVersion, '2.1.330');
    const [response] = only(events, 'response');
    assert.equal(response?.text, 'Nothing to do.');
    assert.equal(response?.contextTokens, 10000);
    assert.equal(response?.sessionId, init?.sessionId);
    const [result] = only(events, 'result');
    assert.equal(result?.text, 'Nothing to do.');
    assert.equal(result?.isError, false);
    assert.equal(result?.costUsd, 0.001);

    const [log] = readJsonl(t.logPath);
    assert.deepEqual(
      { ...log, at: typeof log?.at },
      {
        invocation: 0,
        argv: args,
        prompt: 'do the thing',
        resume: null,
        sessionId: init?.sessionId,
        cwd: t.project,
        pid: fake.pid,
        pgid: fake.pid, // detached: the fake leads its own group
        at: 'string',
      },
    );

    const transcript = readJsonl(t.transcriptPath(init?.sessionId ?? ''));
    assert.deepEqual(
      transcript.map((e) => e.type),
      ['user', 'assistant'],
    );
    assert.deepEqual(transcript[0]?.message, { role: 'user', content: 'do the thing' });
    assert.equal(transcript[1]?.parentUuid, transcript[0]?.uuid);
    assert.equal(transcript[1]?.version, '2.1.330');
    assert.equal(transcript[1]?.sessionId, init?.sessionId);
    assert.equal(transcript[1]?.cwd, t.project);
  });

  it('reads the prompt from stdin when -p has no value', async () => {
    const t = setup();
    const result = await run(['-p', ...STREAM_ARGS], {
      env: t.env,
      cwd: t.project,
      stdin: 'prompt from stdin',
    });
    assert.equal(result.code, 0);
    assert.equal(readJsonl(t.logPath)[0]?.prompt, 'prompt from stdin');
  });

  it('counts invocations across processes and keeps the session on --resume', async () => {
    const t = setup({
      runs: [
        {
          sessionId: 'aaaaaaaa-0000-4000-8000-000000000001',
          actions: [{ respond: { text: 'first', context: 100 } }],
        },
        { actions: [{ respond: { text: 'second', context: 200 } }] },
      ],
      default: { actions: [{ respond: { text: 'later', context: 300 } }] },
    });
    const texts: string[] = [];
    const sessions: string[] = [];
    const argvs = [
      ['-p', 'one', ...STREAM_ARGS],
      ['-p', 'two', ...STREAM_ARGS, '--resume', 'aaaaaaaa-0000-4000-8000-000000000001'],
      ['-p', 'three', ...STREAM_ARGS, '--session-id', 'bbbbbbbb-0000-4000-8000-000000000002'],
      ['-p', 'four', ...STREAM_ARGS, '-r', 'bbbbbbbb-0000-4000-8000-000000000002'],
    ];
    for (const argv of argvs) {
      const result = await run(argv, { env: t.env, cwd: t.project });
      assert.equal(result.code, 0);
      texts.push(only(result.events, 'response')[0]?.text ?? '');
      sessions.push(only(result.events, 'init')[0]?.sessionId ?? '');
    }
    assert.deepEqual(texts, ['first', 'second', 'later', 'later']);
    assert.deepEqual(sessions, [
      'aaaaaaaa-0000-4000-8000-000000000001',
      'aaaaaaaa-0000-4000-8000-000000000001',
      'bbbbbbbb-0000-4000-8000-000000000002',
      'bbbbbbbb-0000-4000-8000-000000000002',
    ]);
    const log = readJsonl(t.logPath);
    assert.deepEqual(
      log.map((l) => [l.invocation, l.prompt, l.resume]),
      [
        [0, 'one', null],
        [1, 'two', 'aaaaaaaa-0000-4000-8000-000000000001'],
        [2, 'three', null],
        [3, 'four', 'bbbbbbbb-0000-4000-8000-000000000002'],
      ],
    );
    assert.deepEqual(JSON.parse(readFileSync(`${t.scenarioPath}.state`, 'utf8')), {
      invocations: 4,
    });
    // The resumed run continues the same transcript and its parentUuid chain.
    const transcript = readJsonl(t.transcriptPath('aaaaaaaa-0000-4000-8000-000000000001'));
    assert.equal(transcript.length, 4);
    for (let i = 1; i < transcript.length; i++) {
      assert.equal(transcript[i]?.parentUuid, transcript[i - 1]?.uuid);
    }
  });
});

describe('fake-claude actions', () => {
  it('respond: one event per block, usage summing to the context, tool result', async () => {
    const t = setup({
      runs: [
        {
          sessionId: 'cccccccc-0000-4000-8000-000000000003',
          model: 'claude-sonnet-5',
          actions: [
            {
              respond: {
                text: 'Listing.',
                context: 13200,
                output: 40,
                tool: { name: 'Bash', input: { command: 'ls' }, result: 'a\nb' },
              },
            },
            {
              respond: {
                context: 13230,
                tool: { name: 'Bash', input: { command: 'false' }, isError: true },
              },
            },
            { respond: { text: 'All done.', context: 13420 } },
          ],
        },
      ],
    });
    const result = await run(['-p', 'go', ...STREAM_ARGS], { env: t.env, cwd: t.project });
    assert.equal(result.code, 0);
    assert.deepEqual(kinds(result.events), [
      'init',
      'response',
      'response',
      'tool_result',
      'response',
      'tool_result',
      'response',
      'result',
    ]);
    const responses = only(result.events, 'response');
    assert.deepEqual(
      responses.map((r) => r.contextTokens),
      [13200, 13200, 13230, 13420],
    );
    assert.equal(responses[0]?.messageId, responses[1]?.messageId);
    assert.notEqual(responses[1]?.messageId, responses[2]?.messageId);
    assert.deepEqual(responses[0]?.usage, responses[1]?.usage);
    assert.equal(responses[0]?.usage.output, 40);
    assert.ok(responses.every((r) => r.model === 'claude-sonnet-5' && !r.sidechain));
    assert.deepEqual(
      responses.map((r) => [r.text, r.toolUses.map((u) => u.input)]),
      [
        ['Listing.', []],
        ['', [{ command: 'ls' }]],
        ['', [{ command: 'false' }]],
        ['All done.', []],
      ],
    );
    const results = only(result.events, 'tool_result');
    assert.deepEqual(
      results.map((r) => [r.toolUseId, r.isError, r.text]),
      [
        [responses[1]?.toolUses[0]?.id, false, 'a\nb'],
        [responses[2]?.toolUses[0]?.id, true, 'Exit code 1'],
      ],
    );
    const [final] = only(result.events, 'result');
    assert.equal(final?.text, 'All done.');
    assert.equal(final?.costUsd, 0.003);
    assert.equal(final?.numTurns, 3);
    assert.equal(final?.sessionId, 'cccccccc-0000-4000-8000-000000000003');

    // The transcript holds the same entries in the format shim's transcript reader folds.
    const transcript = readJsonl(t.transcriptPath('cccccccc-0000-4000-8000-000000000003'));
    assert.deepEqual(
      transcript.map((e) => e.type),
      ['user', 'assistant', 'assistant', 'user', 'assistant', 'user', 'assistant'],
    );
    const assistant = transcript[1] as { message: { usage: Record<string, number> } };
    const usage = assistant.message.usage;
    assert.equal(
      (usage.input_tokens ?? 0) +
        (usage.cache_creation_input_tokens ?? 0) +
        (usage.cache_read_input_tokens ?? 0),
      13200,
    );
  });

  it('write: writes the file and reports a Write call 200 tokens above the last context', async () => {
    const t = setup({
      runs: [
        {
          actions: [
            { respond: { text: 'Writing.', context: 5000 } },
            { write: { path: 'notes/out.txt', content: 'hello\n' } },
          ],
        },
      ],
    });
    const result = await run(['-p', 'go', ...STREAM_ARGS], { env: t.env, cwd: t.project });
    assert.equal(result.code, 0);
    assert.equal(readFileSync(join(t.project, 'notes', 'out.txt'), 'utf8'), 'hello\n');
    const responses = only(result.events, 'response');
    assert.equal(responses[1]?.contextTokens, 5200);
    assert.deepEqual(
      responses[1]?.toolUses.map((u) => [u.name, u.input]),
      [['Write', { file_path: join(t.project, 'notes', 'out.txt'), content: 'hello\n' }]],
    );
    const [toolResult] = only(result.events, 'tool_result');
    assert.equal(toolResult?.isError, false);
    assert.equal(toolResult?.toolUseId, responses[1]?.toolUses[0]?.id);
    // The automatic result carries the last text any response had.
    assert.equal(only(result.events, 'result')[0]?.text, 'Writing.');
  });

  it('sleep: pauses between lines', async () => {
    const t = setup({ runs: [{ actions: [{ sleep: 300 }, { respond: { context: 1 } }] }] });
    const fake = start(['-p', 'go', ...STREAM_ARGS], { env: t.env, cwd: t.project });
    await fake.waitForLines(1);
    const started = Date.now();
    await fake.exited;
    assert.ok(Date.now() - started >= 250, 'the response came after the sleep');
  });

  it('waitForFile: the next response only once the file exists', async () => {
    const t = setup({ runs: [] });
    const gate = join(t.root, 'gate');
    writeFileSync(
      t.scenarioPath,
      JSON.stringify({
        runs: [
          {
            actions: [
              { respond: { text: 'Before the gate.', context: 1 } },
              { waitForFile: gate },
              { respond: { text: 'After the gate.', context: 2 } },
            ],
          },
        ],
      }),
    );
    const fake = start(['-p', 'go', ...STREAM_ARGS], { env: t.env, cwd: t.project });
    const said = (text: string) => fake.lines().some((line) => line.includes(text));
    let gone = false;
    void fake.exited.then(() => (gone = true));
    while (!said('Before the gate.') && !gone) await sleep(10);
    assert.ok(said('Before the gate.'), fake.stderr());
    // Held at the gate: no second response, no exit, until the file is there.
    const held = await Promise.race([
      fake.exited.then(() => 'exited'),
      sleep(300).then(() => 'held'),
    ]);
    assert.equal(held, 'held');
    assert.ok(!said('After the gate.'));
    writeFileSync(gate, '');
    const { code } = await fake.exited;
    assert.equal(code, 0);
    assert.ok(said('After the gate.'), 'the second response came after the gate');
  });

  it('compact: compacting, status, boundary with the given tokens, then carries on', async () => {
    const t = setup({
      runs: [
        {
          actions: [
            { respond: { text: 'big', context: 169900 } },
            { compact: { preTokens: 169930, postTokens: 2580 } },
            { write: { path: 'x.txt', content: 'x' } },
          ],
        },
      ],
    });
    const result = await run(['-p', 'go', ...STREAM_ARGS], { env: t.env, cwd: t.project });
    assert.deepEqual(kinds(result.events), [
      'init',
      'response',
      'compacting',
      'other',
      'compact',
      'response',
      'tool_result',
      'result',
    ]);
    assert.deepEqual(only(result.events, 'compact'), [
      { kind: 'compact', trigger: 'auto', preTokens: 169930, postTokens: 2580 },
    ]);
    assert.equal(only(result.events, 'response')[1]?.contextTokens, 2780);
    const sessionId = only(result.events, 'init')[0]?.sessionId ?? '';
    const transcript = readJsonl(t.transcriptPath(sessionId));
    const boundary = transcript.find((e) => e.subtype === 'compact_boundary');
    assert.deepEqual(boundary?.compactMetadata, {
      trigger: 'auto',
      preTokens: 169930,
      postTokens: 2580,
    });
    assert.equal(boundary?.logicalParentUuid, transcript[1]?.uuid);
    assert.equal(transcript[transcript.indexOf(boundary ?? {}) + 1]?.isCompactSummary, true);
  });

  for (const [status, error] of [
    [429, 'rate_limit'],
    [529, 'server_error'],
  ] as const) {
    it(`apiError ${status}: the synthetic error message and an error result, exit 1`, async () => {
      const t = setup({ runs: [{ actions: [{ apiError: { status } }] }] });
      const result = await run(['-p', 'go', ...STREAM_ARGS], { env: t.env, cwd: t.project });
      assert.equal(result.code, 1);
      assert.deepEqual(kinds(result.events), ['init', 'api_error', 'result']);
      const [apiError] = only(result.events, 'api_error');
      assert.equal(apiError?.status, status);
      assert.equal(apiError?.error, error);
      assert.equal(apiError?.apiError, null);
      const [final] = only(result.events, 'result');
      assert.equal(final?.isError, true);
      assert.equal(final?.apiErrorStatus, status);
      assert.equal(final?.terminalReason, 'api_error');
      assert.equal(final?.text, apiError?.text);
    });
  }

  it('usageLimit: rejected rate limit, usage_limit_reached message, error result, exit 1', async () => {
    const t = setup({ runs: [{ actions: [{ usageLimit: { resetsAt: 1795000000 } }] }] });
    const result = await run(['-p', 'go', ...STREAM_ARGS], {
      env: { ...t.env, TZ: 'UTC' },
      cwd: t.project,
    });
    assert.equal(result.code, 1);
    const text = "You've hit your limit · resets 11:06am (UTC)";
    assert.deepEqual(result.events.slice(1, 3), [
      { kind: 'rate_limit', status: 'rejected', resetsAt: 1795000000000, limitType: 'five_hour' },
      {
        kind: 'api_error',
        status: 429,
        error: 'rate_limit',
        apiError: 'usage_limit_reached',
        text,
        resetsAt: 1795000000000,
      },
    ]);
    const [final] = only(result.events, 'result');
    assert.deepEqual([final?.isError, final?.text], [true, text]);
  });

  it('crash: stderr and the exit code, no result line', async () => {
    const t = setup({
      runs: [
        {
          actions: [
            { respond: { text: 'working', context: 100 } },
            { crash: { exitCode: 3, stderr: 'boom' } },
          ],
        },
      ],
    });
    const result = await run(['-p', 'go', ...STREAM_ARGS], { env: t.env, cwd: t.project });
    assert.equal(result.code, 3);
    assert.equal(result.stderr, 'boom\n');
    assert.deepEqual(kinds(result.events), ['init', 'response']);
  });

  it('result: the given text, error flag and cost, then run.exitCode', async () => {
    const t = setup({
      runs: [
        {
          exitCode: 7,
          actions: [
            { respond: { text: 'x', context: 100 } },
            { result: { text: 'custom', isError: true, costUsd: 1.25 } },
            { respond: { text: 'never', context: 100 } },
          ],
        },
      ],
    });
    const result = await run(['-p', 'go', ...STREAM_ARGS], { env: t.env, cwd: t.project });
    assert.equal(result.code, 7);
    assert.deepEqual(kinds(result.events), ['init', 'response', 'result']);
    const [final] = only(result.events, 'result');
    assert.deepEqual([final?.text, final?.isError, final?.costUsd], ['custom', true, 1.25]);
  });

  it('exits quietly when its stdout reader goes away', async () => {
    const respond = { respond: { text: 'x'.repeat(10_000), context: 100 } };
    const t = setup({
      runs: [{ exitCode: 5, actions: [{ sleep: 200 }, ...Array(50).fill(respond)] }],
    });
    const fake = start(['-p', 'go', ...STREAM_ARGS], { env: t.env, cwd: t.project });
    fake.closeStdout();
    const { code } = await fake.exited;
    assert.equal(code, 0, 'stopped at the broken pipe, not at the end of the run (exit 5)');
    assert.equal(fake.stderr(), '');
  });
});

describe('fake-claude signals', () => {
  it('exits 143 on SIGTERM without a result line', async () => {
    const t = setup({ runs: [{ actions: [{ respond: { context: 1 } }, { hang: {} }] }] });
    const fake = start(['-p', 'go', ...STREAM_ARGS], { env: t.env, cwd: t.project });
    await fake.waitForLines(2);
    fake.kill('SIGTERM');
    const { code } = await fake.exited;
    assert.equal(code, 143);
    assert.deepEqual(kinds(fake.lines().flatMap(parseStreamLine)), ['init', 'response']);
  });

  it('hang with ignoreTerm survives SIGTERM; SIGKILL of the group also kills its grandchild', async () => {
    const t = setup();
    const pidFile = join(t.root, 'grandchild.pid');
    writeFileSync(
      t.scenarioPath,
      JSON.stringify({
        runs: [
          {
            actions: [
              { spawnGrandchild: { pidFile } },
              { respond: { context: 1 } },
              { hang: { ignoreTerm: true } },
            ],
          },
        ],
      }),
    );
    const fake = start(['-p', 'go', ...STREAM_ARGS], {
      env: { ...t.env, FAKE_CLAUDE_SCENARIO: t.scenarioPath },
      cwd: t.project,
    });
    await fake.waitForLines(2);
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    assert.ok(isAlive(grandchild));

    fake.kill('SIGTERM');
    const outcome = await Promise.race([fake.exited, sleep(300).then(() => 'still running')]);
    assert.equal(outcome, 'still running');

    fake.kill('SIGKILL');
    assert.deepEqual(await fake.exited, { code: null, signal: 'SIGKILL' });
    const deadline = Date.now() + 3000;
    while (isAlive(grandchild) && Date.now() < deadline) await sleep(20);
    assert.equal(isAlive(grandchild), false);
  });
});

/** Alive and not a zombie waiting for its new parent to reap it. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no /proc: kill(0) succeeding is all we know
  }
}
