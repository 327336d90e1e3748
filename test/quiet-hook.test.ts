/**
 * PostToolUse's quiet window as Claude Code runs the hook: after a full look, ordinary tool
 * calls far from every threshold skip the fold (the cursor cache is not touched); a command that
 * may change the work (a commit, a check run), a big jump of the context or a compaction brings
 * the full look back, with its alert.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { BIN, runShim } from './helpers/cli.ts';
import { waitForProcessesUnder } from './helpers/processes.ts';
import { makeTempDir } from './helpers/fixtures.ts';
import { sharingCodeCache, withSharedCodeCache } from './helpers/shared-code-cache.ts';
import {
  assistantLine,
  SESSION_ID,
  toJsonl,
  toolResultLine,
  toolUseBlock,
  userPromptLine,
} from './helpers/transcript-builders.ts';

type Setup = { home: string; transcript: string; calls: number };

function setup(): Setup {
  const dir = makeTempDir('shim-quiet-');
  const transcript = join(dir, `${SESSION_ID}.jsonl`);
  writeFileSync(transcript, toJsonl([userPromptLine('Refactor the parser')]));
  // The hooks' own quiet window, looked at in their own process: the warm look (which folds the
  // transcript as it is written, src/hook/warm-look/read-ahead.ts) has tests of its own.
  const home = withSharedCodeCache(join(dir, 'shim'));
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'config.json'), '{ "warmLook": false }\n');
  return { home, transcript, calls: 0 };
}

/** One response calling `tool` with `context` tokens, its result, then the PostToolUse hook. */
function toolCall(s: Setup, tool: string, context: number, command = 'ls') {
  const id = `toolu_${++s.calls}`;
  const input = tool === 'Bash' ? { command } : { file_path: `/src/f${s.calls}.ts` };
  appendFileSync(
    s.transcript,
    toJsonl([
      assistantLine({
        id: `msg_${s.calls}`,
        usage: { input: 5, cacheCreation: 1000, cacheRead: context - 1005, output: 40 },
        content: [toolUseBlock(id, tool, input)],
      }),
      toolResultLine({ toolUseId: id, content: 'done' }),
    ]),
  );
  const r = sharingCodeCache(s.home, () =>
    spawnSync(process.execPath, [BIN, 'hook', 'PostToolUse'], {
      input: JSON.stringify({
        session_id: SESSION_ID,
        transcript_path: s.transcript,
        cwd: '/home/user/project',
        hook_event_name: 'PostToolUse',
        tool_name: tool,
        tool_input: input,
        tool_response: {},
      }),
      encoding: 'utf8',
      env: { ...process.env, SHIM_HOME: s.home, CLAUDE_CONFIG_DIR: join(s.home, 'no-claude') },
    }),
  );
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim();
}

/** The cursor cache's text: rewritten by every full look that folded something. */
function cursor(s: Setup): string {
  const dir = join(s.home, 'cache', 'cursors');
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
}

/** Waits for the checkpoint the first full look started in the background (it folds too). */
async function checkpointSaved(s: Setup): Promise<void> {
  await waitForProcessesUnder(s.home);
  const list = runShim(s.home, ['list', '--all', '--json']);
  assert.ok(
    list.status === 0 && (JSON.parse(list.stdout) as unknown[]).length > 0,
    `the background checkpoint was not saved: ${list.stdout}${list.stderr}`,
  );
}

/** The statusline as Claude Code runs it, reporting `context` tokens in use. */
function statusline(s: Setup, context: number): string {
  const r = sharingCodeCache(s.home, () =>
    spawnSync(process.execPath, [BIN, 'statusline'], {
      input: JSON.stringify({
        session_id: SESSION_ID,
        transcript_path: s.transcript,
        cwd: '/home/user/project',
        model: { id: 'claude-opus-4-6', display_name: 'Opus' },
        version: '2.1.39',
        context_window: {
          context_window_size: 200_000,
          current_usage: {
            input_tokens: 5,
            cache_creation_input_tokens: 1000,
            cache_read_input_tokens: context - 1005,
          },
        },
      }),
      encoding: 'utf8',
      env: { ...process.env, SHIM_HOME: s.home, NO_COLOR: '1', COLUMNS: '120' },
    }),
  );
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim();
}

function memoryPath(s: Setup): string {
  return join(s.home, 'cache', 'hooks', `${SESSION_ID}.json`);
}

function memory(s: Setup): { hookToolCalls: number; quiet: { callsLeft: number } | null } {
  return JSON.parse(readFileSync(memoryPath(s), 'utf8'));
}

describe('PostToolUse quiet window', () => {
  test('ordinary calls far from the threshold skip the fold; a test run does not', async () => {
    const s = setup();
    assert.equal(toolCall(s, 'Read', 20_000), '');
    assert.equal(memory(s).quiet?.callsLeft, 4, 'a window after the first full look');
    await checkpointSaved(s);
    const folded = cursor(s);
    const granted = readFileSync(memoryPath(s), 'utf8');
    assert.equal(toolCall(s, 'Read', 22_000), '');
    assert.equal(toolCall(s, 'Grep', 24_000), '');
    assert.ok(cursor(s) === folded, 'no fold inside the window');
    assert.equal(readFileSync(memoryPath(s), 'utf8'), granted, 'no write inside the window');
    assert.equal(toolCall(s, 'Bash', 25_000, 'ls src'), '');
    assert.ok(cursor(s) === folded, 'a command that can change no work stays quiet');
    toolCall(s, 'Bash', 26_000, 'npm test');
    assert.ok(cursor(s) !== folded, 'a test run may be a milestone: full look');
    assert.equal(memory(s).hookToolCalls, 5, 'the full look counts the quiet calls too');
  });

  test('under timing "changes" a file written ends a window granted while none had changed', async () => {
    const s = setup();
    toolCall(s, 'Read', 20_000);
    assert.equal(memory(s).quiet?.callsLeft, 4, 'no file changed: as long as by count');
    await checkpointSaved(s);
    const folded = cursor(s);
    toolCall(s, 'Read', 20_500);
    assert.ok(cursor(s) === folded, 'a read stays quiet');
    toolCall(s, 'Edit', 21_000);
    assert.ok(cursor(s) !== folded, 'a file written takes the full look');
    assert.equal(
      memory(s).quiet,
      null,
      'a file changed two calls after the checkpoint: the next call is the fallback',
    );
  });

  test('the window covers as many calls as it was granted, counted from the transcript', async () => {
    const s = setup();
    toolCall(s, 'Read', 20_000);
    const granted = memory(s).quiet?.callsLeft ?? 0;
    assert.ok(granted >= 2, `a window of ${granted} calls`);
    await checkpointSaved(s);
    const folded = cursor(s);
    for (let i = 1; i <= granted; i++) toolCall(s, 'Read', 20_000 + i * 100);
    assert.ok(cursor(s) === folded, `the ${granted} covered calls are quiet`);
    toolCall(s, 'Read', 21_000);
    assert.ok(cursor(s) !== folded, 'the next one takes its full look');
    assert.equal(memory(s).hookToolCalls, granted + 2);
  });

  test('a jump of the context past the bound gets its full look and its alert', () => {
    const s = setup();
    toolCall(s, 'Read', 20_000);
    assert.ok(memory(s).quiet);
    // 125k of Claude Code 2.1.39's 167k threshold for Opus 4.6: 75%, level L1.
    const out = toolCall(s, 'Read', 125_000);
    assert.match(out, /L1/);
    assert.equal(memory(s).quiet, null, 'no window at L1');
  });

  test('the statusline draws from the window without a fold, until the context passes its bound', async () => {
    const s = setup();
    toolCall(s, 'Read', 20_000);
    await checkpointSaved(s);
    const folded = cursor(s);
    toolCall(s, 'Read', 30_000);
    // 30k of the 167k threshold: 18%, L0, from Claude Code's own figure.
    assert.match(statusline(s, 30_000), /\[CTX [█░]+ 18% L0\] \[risk: safe\]/);
    assert.ok(cursor(s) === folded, 'no fold for the quiet render');
    // Past half the threshold the window says nothing: a full render folds the new lines.
    appendFileSync(
      s.transcript,
      toJsonl([assistantLine({ id: 'msg_big', usage: { cacheRead: 90_000 } })]),
    );
    assert.match(statusline(s, 90_000), /54% L0/);
    assert.ok(cursor(s) !== folded, 'a full render folds');
  });
});

describe('PostToolUse while the mod watches', () => {
  test("counts every finished call: the first takes the session's first checkpoint, the interval counts from it", async () => {
    const s = setup();
    // The count policy: under "changes" (the default) a call counted unseen takes no interval
    // checkpoint (the next look decides: core/policy/hook-policy.ts), the test below.
    writeFileSync(
      join(s.home, 'config.json'),
      '{ "warmLook": false, "checkpoints": { "timing": "count" } }\n',
    );
    const modDir = join(s.home, 'cache', 'mod');
    mkdirSync(modDir, { recursive: true });
    const watching = () =>
      writeFileSync(
        join(modDir, `${SESSION_ID}.json`),
        JSON.stringify({
          v: 1,
          sessionId: SESSION_ID,
          seenAt: Date.now(),
          observed: [],
          level: 'L0',
          percent: 12,
          guidance: null,
        }),
      );
    const claims = () =>
      readdirSync(join(s.home, 'cache', 'hooks')).filter((name) => name.includes('.ckpt-'));
    for (let i = 1; i <= 6; i++) {
      watching();
      assert.equal(toolCall(s, 'Bash', 20_000 + i * 1000), '');
      assert.equal(memory(s).hookToolCalls, i);
      // No step report took the first checkpoint (the mod's report may come before the
      // transcript shows the call): the first counted call takes it.
      if (i === 1) assert.deepEqual(claims(), [`${SESSION_ID}.ckpt-0-1-session_start`]);
    }
    assert.deepEqual(
      claims().sort(),
      [`${SESSION_ID}.ckpt-0-1-session_start`, `${SESSION_ID}.ckpt-0-6-tool_call_interval`],
      'five calls after the first checkpoint, the interval one',
    );
    await checkpointSaved(s);
  });

  test('under timing "changes" a counted call takes only the first checkpoint', async () => {
    const s = setup();
    mkdirSync(join(s.home, 'cache', 'mod'), { recursive: true });
    for (let i = 1; i <= 6; i++) {
      writeFileSync(
        join(s.home, 'cache', 'mod', `${SESSION_ID}.json`),
        JSON.stringify({ v: 1, sessionId: SESSION_ID, seenAt: Date.now(), observed: [] }),
      );
      assert.equal(toolCall(s, 'Bash', 20_000 + i * 1000), '');
      assert.equal(memory(s).hookToolCalls, i);
    }
    const claims = readdirSync(join(s.home, 'cache', 'hooks')).filter((n) => n.includes('.ckpt-'));
    assert.deepEqual(claims, [`${SESSION_ID}.ckpt-0-1-session_start`]);
    await checkpointSaved(s);
  });
});
