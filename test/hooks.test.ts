/** End-to-end: `shim hook <Event>` and `shim statusline` as Claude Code runs them, on real transcripts. */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { BIN, runShim } from './helpers/cli.ts';
import { endWarmLooksUnder, waitForProcessesUnder } from './helpers/processes.ts';
import { fixturePath, makeTempDir } from './helpers/fixtures.ts';
import { sharingCodeCache, withSharedCodeCache } from './helpers/shared-code-cache.ts';
import { assistantLine, toolUseBlock } from './helpers/transcript-builders.ts';

const ESC = '\u001b[';
const FIXTURE = 'entire-9b04c3d92e38-auto-compact-167k-taskcreate-v2.1.39.jsonl';
const SESSION = '4f8c1176-7025-4530-a860-c6fc4c63a150';
const CWD = '/Users/gtrrz-victor/wks/cli';
const LINES = readFileSync(fixturePath(FIXTURE), 'utf8').split('\n');

type Setup = { home: string; transcript: string };

/** Every SHIM_HOME this file's hooks ran in: the warm looks they started end with the file. */
const homes: string[] = [];
after(() => Promise.all(homes.map(endWarmLooksUnder)));

/**
 * A scratch directory for a SHIM_HOME, remembered for the end of the file; it starts with the code
 * caches the file's earlier homes wrote, as a user's home holds them after its first call.
 */
function scratchHome(prefix?: string): string {
  const dir = makeTempDir(prefix);
  homes.push(dir);
  return withSharedCodeCache(dir);
}

/** A scratch SHIM_HOME and a transcript holding the fixture's first `lines` lines. */
function setup(lines: number): Setup {
  const home = scratchHome('shim-hooks-');
  const transcript = join(home, 'session.jsonl');
  writeFileSync(transcript, `${LINES.slice(0, lines).join('\n')}\n`);
  return { home, transcript };
}

function grow(s: Setup, from: number, to: number): void {
  appendFileSync(s.transcript, `${LINES.slice(from, to).join('\n')}\n`);
}

function hook(s: Setup, event: string, extra: Record<string, unknown> = {}, sessionId = SESSION) {
  const payload = {
    session_id: sessionId,
    transcript_path: s.transcript,
    cwd: CWD,
    hook_event_name: event,
    ...extra,
  };
  const r = sharingCodeCache(s.home, () =>
    spawnSync(process.execPath, [BIN, 'hook', event], {
      input: JSON.stringify(payload),
      encoding: 'utf8',
      env: { ...process.env, SHIM_HOME: s.home, CLAUDE_CONFIG_DIR: join(s.home, 'no-claude') },
    }),
  );
  assert.equal(r.status, 0, `hook ${event} exited ${r.status}: ${r.stderr}`);
  const out = r.stdout.trim();
  assert.ok(out === '' || out.split('\n').length === 1, 'stdout is empty or one protocol line');
  return out
    ? (JSON.parse(out) as {
        systemMessage?: string;
        hookSpecificOutput?: { hookEventName: string; additionalContext: string };
      })
    : null;
}

function checkpoints(
  s: Setup,
): Array<{ id: string; triggeredBy: string; sessionId: string; restoredAt: string | null }> {
  const run = runShim(s.home, ['list', '--all', '--json']);
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as Array<{
    id: string;
    triggeredBy: string;
    sessionId: string;
    restoredAt: string | null;
  }>;
}

describe('shim hook: never breaks the agent', () => {
  for (const [what, input, logged] of [
    ['empty stdin', '', true],
    ['garbage', 'not json at all', true],
    ['an array', '[1,2,3]', true],
    // Early events come before Claude Code has written the transcript: normal, not an error.
    [
      'a payload pointing at a transcript not written yet',
      JSON.stringify({
        session_id: 's',
        transcript_path: '/nonexistent.jsonl',
        hook_event_name: 'PostToolUse',
      }),
      false,
    ],
  ] as const) {
    test(`${what}: exit 0, nothing on stdout${logged ? ', a log entry' : ''}`, async () => {
      const home = scratchHome();
      const r = sharingCodeCache(home, () =>
        spawnSync(process.execPath, [BIN, 'hook', 'PostToolUse'], {
          input,
          encoding: 'utf8',
          env: { ...process.env, SHIM_HOME: home },
        }),
      );
      assert.equal(r.status, 0);
      assert.equal(r.stdout, '');
      // The warm look a hook may start notes its own coming and going (info): only a warning or
      // an error is the hook's complaint about its input.
      await waitForProcessesUnder(home);
      const log = join(home, 'logs', 'shim.log');
      const complaints = existsSync(log)
        ? readFileSync(log, 'utf8')
            .split('\n')
            .filter((line) => /"level":"(?:warn|error)"/.test(line))
        : [];
      assert.equal(complaints.length > 0, logged, complaints.join('\n'));
    });
  }

  test('an unknown event does nothing', () => {
    const s = setup(30);
    assert.equal(hook(s, 'NoSuchEvent'), null);
  });
});

describe('PostToolUse', () => {
  test('alerts once when a level is reached, and checkpoints', async () => {
    const s = setup(31);
    const first = hook(s, 'PostToolUse', { tool_name: 'Read' });
    assert.match(first?.systemMessage ?? '', /context at 72% of the auto-compact threshold \(L1\)/);
    assert.match(first?.hookSpecificOutput?.additionalContext ?? '', /\[shim\] Context is at 72%/);
    assert.equal(
      hook(s, 'PostToolUse', { tool_name: 'Read' }),
      null,
      'the same level is not alerted twice',
    );
    await waitForProcessesUnder(s.home);
    assert.ok(existsSync(join(s.home, 'shim.db')) && checkpoints(s).length > 0);

    grow(s, 31, 264);
    const critical = hook(s, 'PostToolUse', { tool_name: 'Bash' });
    assert.match(critical?.systemMessage ?? '', /\(L3\).*Checkpoint #\d+ saved/);
    assert.ok(
      checkpoints(s).some((c) => c.triggeredBy === 'danger_zone'),
      'the urgent checkpoint is there when the hook returns',
    );
  });

  test('parallel hooks of one batch alert exactly once', async () => {
    const s = setup(264);
    const payload = JSON.stringify({
      session_id: SESSION,
      transcript_path: s.transcript,
      cwd: CWD,
      hook_event_name: 'PostToolUse',
      tool_name: 'Read',
    });
    const outputs = await Promise.all(
      Array.from(
        { length: 8 },
        () =>
          new Promise<string>((resolve) => {
            const child = spawn(process.execPath, [BIN, 'hook', 'PostToolUse'], {
              env: { ...process.env, SHIM_HOME: s.home },
            });
            let out = '';
            child.stdout.on('data', (d: Buffer) => (out += d.toString()));
            child.on('close', () => resolve(out.trim()));
            child.stdin.end(payload);
          }),
      ),
    );
    assert.equal(outputs.filter((o) => o.includes('"systemMessage"')).length, 1);
  });
});

describe('PreToolUse', () => {
  test('a risky command gets a checkpoint before it runs; an ordinary one does not', async () => {
    const s = setup(120);
    const risky = hook(s, 'PreToolUse', {
      tool_name: 'Bash',
      tool_use_id: 'toolu_1',
      tool_input: { command: 'git reset --hard HEAD~3' },
    });
    // The hook returns once the note is written; a detached process builds the checkpoint.
    assert.match(risky?.systemMessage ?? '', /checkpoint saved before `git reset --hard`/);
    await waitForProcessesUnder(s.home);
    assert.deepEqual(
      checkpoints(s).map((c) => c.triggeredBy),
      ['risky_operation'],
    );
    assert.equal(
      hook(s, 'PreToolUse', {
        tool_name: 'Bash',
        tool_use_id: 'toolu_2',
        tool_input: { command: 'ls -la' },
      }),
      null,
    );
    assert.equal(checkpoints(s).length, 1);
  });
});

describe('PreToolUse: the checkpoint promised before a risky command', () => {
  /** A repository with a commit and an uncommitted change, for a snapshot to hold. */
  function makeRepository(s: Setup): string {
    const repo = join(s.home, 'repo');
    mkdirSync(repo);
    const git = (...args: string[]) =>
      spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@e', ...args], { cwd: repo });
    git('init', '-q', '-b', 'main');
    writeFileSync(join(repo, 'a.txt'), 'one\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'initial');
    writeFileSync(join(repo, 'a.txt'), 'two\n');
    return repo;
  }

  test('survives its builder killed with -9 while building: the next shim command builds it, once', async () => {
    const s = setup(120);
    const repo = makeRepository(s);
    const pending = join(s.home, 'pending');
    let killed = 0;
    let promised = 0;
    // The builder is killed the moment it holds the note (a few tries: on a fast machine it may
    // finish before this process sees its claim).
    for (let i = 0; i < 5 && killed === 0; i++) {
      const out = hook(s, 'PreToolUse', {
        cwd: repo,
        tool_name: 'Bash',
        tool_use_id: `toolu_kill_${i}`,
        tool_input: { command: 'git reset --hard' },
      });
      assert.match(out?.systemMessage ?? '', /checkpoint saved with a git snapshot/);
      promised++;
      for (;;) {
        const names = existsSync(pending) ? readdirSync(pending) : [];
        const taken = names.map((n) => /\.json\.taken-(\d+)$/.exec(n)).find((m) => m !== null);
        if (taken) {
          try {
            process.kill(Number(taken[1]), 'SIGKILL');
            killed++;
          } catch {
            // it finished between the listing and the kill
          }
          break;
        }
        if (!names.some((n) => n.endsWith('.json'))) break;
      }
      await waitForProcessesUnder(s.home);
    }
    assert.ok(killed > 0, 'a builder was killed while it held the note');
    const risky = checkpoints(s).filter((c) => c.triggeredBy === 'risky_operation');
    const log = join(s.home, 'logs', 'shim.log');
    assert.equal(
      risky.length,
      promised,
      `each promised checkpoint stored exactly once; log: ${existsSync(log) ? readFileSync(log, 'utf8') : '(none)'}; pending: ${readdirSync(pending).join(', ')}`,
    );
    assert.deepEqual(
      readdirSync(pending).filter((n) => n !== 'failed'),
      [],
      'no note left behind',
    );
  });
});

describe('compaction: PreCompact saves, SessionStart(compact) restores', () => {
  test('the state captured before compaction is injected after it and the restore is recorded', () => {
    const s = setup(300);
    assert.equal(hook(s, 'PreCompact', { trigger: 'auto', custom_instructions: '' }), null);
    assert.deepEqual(
      checkpoints(s).map((c) => c.triggeredBy),
      ['pre_compact'],
    );
    assert.equal(readdirSync(join(s.home, 'handoffs')).length, 1);
    grow(s, 300, 362);
    const start = hook(s, 'SessionStart', { source: 'compact', model: 'claude-opus-4-6' });
    const context = start?.hookSpecificOutput?.additionalContext ?? '';
    assert.equal(start?.hookSpecificOutput?.hookEventName, 'SessionStart');
    assert.match(context, /Implement the following plan/);
    assert.match(context, /Run fmt, lint, and tests/);
    assert.ok(context.length <= 9500);
    assert.ok(checkpoints(s)[0]!.restoredAt, 'the restore is recorded');
  });

  test('after the session ends, `shim show` prints the restore the model got: "Continuing after compaction" (issue 42 item 3)', () => {
    const s = setup(300);
    hook(s, 'PreCompact', { trigger: 'auto', custom_instructions: '' });
    grow(s, 300, 362);
    const context =
      hook(s, 'SessionStart', { source: 'compact' })?.hookSpecificOutput?.additionalContext ?? '';
    assert.match(context, /^# Continuing after compaction \(shim checkpoint #\d+\)/);
    // The user then quits cleanly: a new session would be told the work was left open at exit.
    hook(s, 'SessionEnd', { reason: 'other' });
    const restored = checkpoints(s).find((c) => c.restoredAt !== null);
    assert.ok(restored);
    const shown = runShim(s.home, ['show', '--all', restored.id]);
    assert.equal(shown.status, 0, shown.stderr);
    assert.equal(shown.stdout.split('\n')[0], context.split('\n')[0]);
    assert.doesNotMatch(shown.stdout, /left open at exit|ended the previous session/);
    assert.match(shown.stderr, /the restore given to session /);
    // The same sections as the model got, from the one renderer.
    for (const heading of context.match(/^## .+$/gm) ?? [])
      assert.ok(shown.stdout.includes(`${heading}\n`), heading);
    const handoff = runShim(s.home, ['show', '--all', '--handoff', restored.id]);
    assert.match(handoff.stdout, /\ninterruption_reason: compaction\n/);
  });
});

describe('startup after an interrupted session', () => {
  function writeMemory(s: Setup, pid: number): void {
    mkdirSync(join(s.home, 'cache', 'hooks'), { recursive: true });
    writeFileSync(
      join(s.home, 'cache', 'hooks', `${SESSION}.json`),
      JSON.stringify({ agentPid: pid }),
    );
  }

  test('a killed session (its Claude Code process is gone) is resumed in the next session of the project', () => {
    const s = setup(200);
    hook(s, 'PreToolUse', {
      tool_name: 'Bash',
      tool_use_id: 't',
      tool_input: { command: 'rm -rf build' },
    });
    writeMemory(s, 2 ** 22 - 7);
    const start = hook(s, 'SessionStart', { source: 'startup' }, 'new-session-1');
    assert.match(
      start?.systemMessage ?? '',
      /restored checkpoint #1 from the interrupted session 4f8c1176 \(crash\)/,
    );
    assert.match(
      start?.hookSpecificOutput?.additionalContext ?? '',
      /Implement the following plan/,
    );
    assert.equal(
      hook(s, 'SessionStart', { source: 'startup' }, 'new-session-2'),
      null,
      'a checkpoint is restored once',
    );
  });

  test('a session whose Claude Code process still runs is left alone', () => {
    const s = setup(200);
    hook(s, 'PreToolUse', {
      tool_name: 'Bash',
      tool_use_id: 't',
      tool_input: { command: 'rm -rf build' },
    });
    const alive = spawn('bash', ['-c', 'exec -a claude-test sleep 30'], { stdio: 'ignore' });
    try {
      writeMemory(s, alive.pid!);
      assert.equal(hook(s, 'SessionStart', { source: 'startup' }, 'parallel-session'), null);
    } finally {
      alive.kill();
    }
  });

  test('a session that compacted and still runs is left alone too (parallel work, issue 38)', () => {
    // Its checkpoint, then Claude Code's compaction in its transcript; it goes on running.
    const s = setup(300);
    hook(s, 'PreCompact', { trigger: 'auto', custom_instructions: '' });
    grow(s, 300, 362);
    const alive = spawn('bash', ['-c', 'exec -a claude-test sleep 30'], { stdio: 'ignore' });
    try {
      writeMemory(s, alive.pid!);
      assert.equal(hook(s, 'SessionStart', { source: 'startup' }, 'parallel-session'), null);
    } finally {
      alive.kill();
    }
  });

  test('SessionEnd takes a final checkpoint and records the clean end', () => {
    const s = setup(200);
    hook(s, 'SessionEnd', { reason: 'prompt_input_exit' });
    assert.deepEqual(
      checkpoints(s).map((c) => c.triggeredBy),
      ['session_end'],
    );
    const resume = JSON.parse(runShim(s.home, ['resume', '--all', '--json']).stdout) as {
      detection: { interruptionReason: string };
    };
    assert.equal(resume.detection.interruptionReason, 'manual_exit');
  });
});

describe('UserPromptSubmit and Stop', () => {
  test('from L1 on, a prompt gets one factual line of context; below, nothing', () => {
    assert.equal(hook(setup(22), 'UserPromptSubmit', { prompt: 'go on' }), null);
    const out = hook(setup(31), 'UserPromptSubmit', { prompt: 'go on' });
    assert.match(
      out?.hookSpecificOutput?.additionalContext ?? '',
      /^\[shim\] Context is at 72%.*carry on with the user's request\.$/,
    );
  });

  test('Stop above 50% suggests a handoff once per 10% band', () => {
    // Cut where a turn ended (Stop comes after a response that asks for no tool): 72%.
    const s = setup(26);
    assert.match(hook(s, 'Stop', { stop_hook_active: false })?.systemMessage ?? '', /shim handoff/);
    assert.equal(hook(s, 'Stop', { stop_hook_active: false }), null);
  });
});

describe('shim statusline', () => {
  const input = (transcript: string) =>
    JSON.stringify({
      session_id: SESSION,
      transcript_path: transcript,
      model: { id: 'claude-opus-4-6', display_name: 'Opus' },
      context_window: {
        context_window_size: 200000,
        current_usage: {
          input_tokens: 10,
          cache_creation_input_tokens: 2000,
          cache_read_input_tokens: 140000,
        },
      },
    });

  function statusline(s: Setup, args: string[] = [], env: Record<string, string> = {}) {
    const r = sharingCodeCache(s.home, () =>
      spawnSync(process.execPath, [BIN, 'statusline', ...args], {
        input: input(s.transcript),
        encoding: 'utf8',
        env: { ...process.env, SHIM_HOME: s.home, NO_COLOR: '1', COLUMNS: '120', ...env },
      }),
    );
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.replace(/\n$/, '');
  }

  test("uses Claude Code's own context figures and renders the seed line", () => {
    const s = setup(120);
    assert.match(
      statusline(s),
      /^\[CTX [█░]{10} 85% L2\] \[risk: (warning|danger)\] .*\[(no ckpt yet|ckpt \d+[smh] ago)\]( \[\/defer: one more task\])?$/,
    );
    assert.ok(
      existsSync(join(s.home, 'cache', 'statusline', `${SESSION}.json`)),
      'the figures are recorded for the hooks',
    );
  });

  test('fits narrow terminals and honours NO_COLOR', () => {
    const s = setup(120);
    const narrow = statusline(s, [], { COLUMNS: '30' });
    assert.ok(narrow.length <= 30, narrow);
    assert.ok(!narrow.includes(ESC));
    const colored = statusline(s, [], { NO_COLOR: '' });
    assert.ok(colored.includes(ESC));
  });

  test('--wrap keeps the previous statusline and adds shim after it', () => {
    const s = setup(120);
    const original = Buffer.from('cat >/dev/null; echo "my line"').toString('base64');
    assert.match(statusline(s, ['--wrap', original]), /^my line │ \[CTX /);
  });

  test('bad input prints nothing and exits 0', () => {
    const r = spawnSync(process.execPath, [BIN, 'statusline'], {
      input: 'nope',
      encoding: 'utf8',
      env: { ...process.env, SHIM_HOME: scratchHome() },
    });
    assert.equal(r.status, 0);
    assert.equal(r.stdout, '');
  });
});

describe('PreCompact blocking (opt-in)', () => {
  test('blocks a proactive auto-compaction only when blockAutoCompact is on', () => {
    const off = setup(300);
    assert.equal(hook(off, 'PreCompact', { trigger: 'auto' }), null, 'off by default');
    const on = setup(300);
    writeFileSync(join(on.home, 'config.json'), JSON.stringify({ blockAutoCompact: true }));
    const out = hook(on, 'PreCompact', { trigger: 'auto' }) as {
      decision?: string;
      reason?: string;
    } | null;
    assert.equal(out?.decision, 'block');
    assert.match(out?.reason ?? '', /blocked this auto-compaction/);
    assert.equal(
      hook(on, 'PreCompact', { trigger: 'manual' }),
      null,
      'a manual /compact is never blocked',
    );
  });

  test('never blocks a reactive compaction (recovering from "Prompt is too long")', () => {
    const s = setup(300);
    writeFileSync(join(s.home, 'config.json'), JSON.stringify({ blockAutoCompact: true }));
    const tooLong = {
      type: 'assistant',
      isSidechain: false,
      sessionId: SESSION,
      timestamp: '2026-02-12T04:14:00.000Z',
      isApiErrorMessage: true,
      message: {
        id: 'x',
        model: '<synthetic>',
        role: 'assistant',
        content: [{ type: 'text', text: 'Prompt is too long' }],
        usage: { input_tokens: 0, output_tokens: 0 },
      },
    };
    appendFileSync(s.transcript, `${JSON.stringify(tooLong)}\n`);
    assert.equal(hook(s, 'PreCompact', { trigger: 'auto' }), null);
  });
});

describe('restore-related hook behaviour', () => {
  const bigResponse = (id: string, tokens: number) =>
    JSON.stringify({
      ...assistantLine({
        id,
        usage: { input: 10, cacheRead: tokens, output: 20 },
        content: [toolUseBlock(`${id}_t`, 'Bash', { command: 'echo more' })],
      }),
      sessionId: SESSION,
      cwd: CWD,
      version: '2.1.39',
    });

  test('at L3 a handoff with maximum preservation is written beside the urgent checkpoint', () => {
    const s = setup(31);
    hook(s, 'PostToolUse', { tool_name: 'Read' });
    grow(s, 31, 264);
    const critical = hook(s, 'PostToolUse', { tool_name: 'Bash' });
    assert.match(critical?.systemMessage ?? '', /Checkpoint #\d+ saved\. Handoff written\./);
    const handoffs = readdirSync(join(s.home, 'handoffs'));
    assert.equal(handoffs.length, 1);
    const doc = readFileSync(join(s.home, 'handoffs', handoffs[0]!), 'utf8');
    assert.match(doc, /## Context to reload/);
    assert.doesNotMatch(doc, /cut to fit/);
  });

  test('past the threshold the model gets no level note: the compaction comes first', () => {
    const s = setup(31);
    appendFileSync(s.transcript, `${bigResponse('msg_over', 170_000)}\n`);
    const over = hook(s, 'PostToolUse', { tool_name: 'Bash' });
    assert.match(over?.systemMessage ?? '', /\(L3\)/);
    assert.equal(over?.hookSpecificOutput, undefined, 'no stale note for the model');
  });

  test('PreCompact prints instructions for the summary where Claude Code takes them (2.1.241+)', () => {
    const home = scratchHome('shim-hooks-');
    const transcript = join(home, 'session.jsonl');
    writeFileSync(
      transcript,
      `${LINES.slice(0, 200)
        .map((l) => l.replace(/"version":"2\.1\.39"/g, '"version":"2.1.330"'))
        .join('\n')}\n`,
    );
    const r = sharingCodeCache(home, () =>
      spawnSync(process.execPath, [BIN, 'hook', 'PreCompact'], {
        input: JSON.stringify({
          session_id: SESSION,
          transcript_path: transcript,
          cwd: CWD,
          hook_event_name: 'PreCompact',
          trigger: 'auto',
        }),
        encoding: 'utf8',
        env: { ...process.env, SHIM_HOME: home },
      }),
    );
    assert.equal(r.status, 0);
    assert.match(r.stdout, /^Context checkpoint \(shim\)/);
    assert.match(r.stdout, /Implement the following plan/);
    assert.match(r.stdout, /\[in_progress\]|\[pending\]|\[completed\]/);
    assert.ok(r.stdout.length <= 10_000);
  });

  test('the Stop hint tells the truth: a handoff is picked up by the next session here', () => {
    const s = setup(199); // a turn's last response
    const stop = hook(s, 'Stop', { stop_hook_active: false });
    assert.match(
      stop?.systemMessage ?? '',
      /run `shim handoff`, then start a new session in this project — it picks the handoff up/,
    );
  });
});
