/**
 * Where a user hears that shim cannot save — a full disk, a read-only SHIM_HOME, a SHIM_HOME under
 * a file — through every door they look at: the session's start and each request, a risky
 * command's PreToolUse (whose checkpoint is lost: the command would run unprotected without a
 * word), and the statusline, which alone is seen after a PreCompact or SessionEnd lost theirs.
 * Quiet tool calls stay quiet. Real mounts (a small tmpfs, remounted read-only) where this process
 * may mount; the file case runs everywhere.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { BIN, runShim } from './helpers/cli.ts';
import { makeTempDir } from './helpers/fixtures.ts';
import { fillDisk, mountedHome } from './helpers/mounts.ts';
import { waitForProcessesUnder } from './helpers/processes.ts';
import {
  SESSION_ID,
  toJsonl,
  toolCallLines,
  userPromptLine,
} from './helpers/transcript-builders.ts';

type Session = { dir: string; home: string; transcript: string };

function session(home: string): Session {
  const dir = makeTempDir('shim-storage-doors-');
  const transcript = join(dir, `${SESSION_ID}.jsonl`);
  const lines = [userPromptLine('Port the parser to the new API')];
  for (let n = 1; n <= 4; n++)
    lines.push(...toolCallLines(n, 40_000 + n * 1_000, 'Read', { file_path: `/src/f${n}.ts` }));
  writeFileSync(transcript, toJsonl(lines));
  return { dir, home, transcript };
}

function hook(s: Session, event: string, extra: Record<string, unknown> = {}): string {
  const r = spawnSync(process.execPath, [BIN, 'hook', event], {
    input: JSON.stringify({
      session_id: SESSION_ID,
      transcript_path: s.transcript,
      cwd: s.dir,
      hook_event_name: event,
      ...extra,
    }),
    encoding: 'utf8',
    cwd: s.dir,
    env: {
      ...process.env,
      SHIM_HOME: s.home,
      CLAUDE_CONFIG_DIR: join(s.dir, 'no-claude'),
      SHIM_WARM_LOOK_IDLE_MS: '300',
    },
  });
  assert.equal(r.status, 0, `${event}: ${r.stderr}`);
  if (r.stdout.trim()) JSON.parse(r.stdout);
  return r.stdout;
}

const risky = (s: Session) =>
  hook(s, 'PreToolUse', {
    tool_name: 'Bash',
    tool_input: { command: 'git reset --hard' },
    tool_use_id: `toolu_risky_${Date.now()}`,
  });
const quietCall = (s: Session) =>
  hook(s, 'PostToolUse', {
    tool_name: 'Read',
    tool_input: { file_path: '/src/f4.ts' },
    tool_use_id: 'toolu_4',
    tool_response: {},
  });

function statusline(s: Session): string {
  return runShim(s.home, ['statusline'], {
    cwd: s.dir,
    input: JSON.stringify({
      session_id: SESSION_ID,
      transcript_path: s.transcript,
      cwd: s.dir,
      context_window: {
        context_window_size: 200_000,
        current_usage: { input_tokens: 3, cache_read_input_tokens: 44_000 },
      },
    }),
  }).stdout;
}

/** A session that has already run here: its hooks' memory and a checkpoint exist. */
async function lived(home: string): Promise<Session> {
  const s = session(home);
  hook(s, 'SessionStart', { source: 'startup' });
  quietCall(s);
  assert.equal(runShim(home, ['checkpoint', '--transcript', s.transcript]).status, 0);
  await waitForProcessesUnder(s.dir);
  return s;
}

/**
 * `once`: a marker can still be written (a full disk takes an empty file), so the standing state
 * is told at the first door only; where none can, at every start and request.
 */
function assertEveryDoor(s: Session, why: RegExp, label: RegExp, once = false): void {
  assert.match(hook(s, 'SessionStart', { source: 'resume' }), why, 'SessionStart');
  const request = hook(s, 'UserPromptSubmit', { prompt: 'go on' });
  if (once) assert.doesNotMatch(request, why, 'told once');
  else assert.match(request, why, 'UserPromptSubmit');
  const before = risky(s);
  assert.match(before, /no checkpoint could be saved before `git reset --hard`/);
  assert.match(before, why, 'the risky command is told why');
  assert.doesNotMatch(quietCall(s), why, 'not on every tool call');
  hook(s, 'PreCompact', { trigger: 'auto', custom_instructions: '' });
  hook(s, 'SessionEnd', { reason: 'other' });
  assert.match(statusline(s), label, 'the statusline');
}

describe('shim cannot save: every door says so', () => {
  test('SHIM_HOME under a file', () => {
    const dir = makeTempDir('shim-home-under-file-');
    writeFileSync(join(dir, 'file'), '');
    const s = session(join(dir, 'file', 'shim'));
    assertEveryDoor(s, /cannot be a folder/, /\[shim cannot save: SHIM_HOME not a folder\]/);
    const cli = runShim(s.home, ['checkpoint', '--transcript', s.transcript]);
    assert.equal(cli.status, 1);
    assert.doesNotMatch(cli.stderr, /unexpected error|bug in shim/);
  });

  const readOnly = mountedHome('8m');
  test(
    'a read-only SHIM_HOME where the session already ran',
    { skip: readOnly === null && 'cannot mount a tmpfs here' },
    async () => {
      const s = await lived(readOnly!);
      execFileSync('mount', ['-o', 'remount,ro', readOnly!]);
      assertEveryDoor(s, /is read-only/, /\[shim cannot save: SHIM_HOME read-only\]/);
    },
  );

  const full = mountedHome('2m');
  test(
    'a full disk where the session already ran',
    { skip: full === null && 'cannot mount a tmpfs here' },
    async () => {
      const s = await lived(full!);
      mkdirSync(join(full!, 'cache', 'hooks'), { recursive: true });
      fillDisk(full!);
      assertEveryDoor(s, /disk holding .* is full/, /\[shim cannot save: disk full\]/, true);
      const litter = readdirSync(join(full!, 'pending')).filter((f) => f.endsWith('.tmp'));
      assert.deepEqual(litter, [], 'a refused note write leaves no temp file');
    },
  );
});
