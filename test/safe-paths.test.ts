/**
 * Nothing written outside SHIM_HOME: ids from transcripts and payloads never become paths as
 * they are, and symbolic links planted where shim writes are refused, not followed.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { BIN, runShim } from './helpers/cli.ts';
import { makeTempDir } from './helpers/fixtures.ts';
import {
  assistantLine,
  toJsonl,
  toolUseBlock,
  userPromptLine,
} from './helpers/transcript-builders.ts';

function sandbox() {
  const root = makeTempDir('shim-paths-');
  const home = join(root, 'deep', 'shim');
  mkdirSync(home, { recursive: true });
  return { root, home };
}

/** A transcript whose session id is `sessionId`, with a request and a tool call. */
function transcriptWithId(root: string, sessionId: string): string {
  const path = join(root, 'session.jsonl');
  writeFileSync(
    path,
    toJsonl(
      [
        userPromptLine('Refactor the exporter please, carefully.'),
        assistantLine({ id: 'msg_1', content: [toolUseBlock('t1', 'Bash', { command: 'ls' })] }),
      ].map((e) => ({ ...e, sessionId, cwd: root })),
    ),
  );
  return path;
}

function hook(home: string, event: string, payload: Record<string, unknown>) {
  return spawnSync(process.execPath, [BIN, 'hook', event], {
    input: JSON.stringify({ hook_event_name: event, ...payload }),
    encoding: 'utf8',
    env: { ...process.env, SHIM_HOME: home, CLAUDE_CONFIG_DIR: join(home, 'no-claude') },
  });
}

/** Every file under `dir` (recursively), relative. */
function filesUnder(dir: string, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  );
}

describe('ids never become paths as they are', () => {
  for (const sessionId of ['../../outside/PWNED', '/tmp/absolute/PWNED', '..', 'a/../../b']) {
    test(`session id ${JSON.stringify(sessionId)}: handoff and PreCompact stay inside SHIM_HOME`, () => {
      const { root, home } = sandbox();
      const transcript = transcriptWithId(root, sessionId);
      const before = filesUnder(root).filter((f) => !f.startsWith('deep/shim/'));
      const checkpoint = runShim(home, ['checkpoint', '--transcript', transcript, '--no-snapshot']);
      assert.equal(checkpoint.status, 0, checkpoint.stderr);
      const handoff = runShim(home, ['handoff', '--all']);
      assert.equal(handoff.status, 0, handoff.stderr);
      assert.doesNotMatch(handoff.stderr, /bug in shim/);
      const pre = hook(home, 'PreCompact', {
        session_id: sessionId,
        transcript_path: transcript,
        cwd: root,
        trigger: 'manual',
      });
      assert.equal(pre.status, 0);
      const after = filesUnder(root).filter((f) => !f.startsWith('deep/shim/'));
      assert.deepEqual(after, before, 'nothing was written outside SHIM_HOME');
      assert.ok(!existsSync('/tmp/absolute/PWNED-001.md'));
      const handoffs = readdirSync(join(home, 'handoffs'));
      assert.ok(handoffs.length >= 1);
      for (const name of handoffs) assert.match(name, /^[\w-]+-\d{3}\.md$/, name);
    });
  }
});

describe('planted symbolic links are refused', () => {
  test('a link at the handoff file: shim handoff refuses it and the target is untouched', () => {
    const { root, home } = sandbox();
    const transcript = transcriptWithId(root, 'victim-session');
    assert.equal(
      runShim(home, ['checkpoint', '--transcript', transcript, '--no-snapshot']).status,
      0,
    );
    const target = join(root, 'precious.txt');
    writeFileSync(target, 'keep me');
    mkdirSync(join(home, 'handoffs'), { recursive: true });
    symlinkSync(target, join(home, 'handoffs', 'victim-session-001.md'));
    const run = runShim(home, ['handoff', '--all']);
    assert.equal(run.status, 1);
    assert.match(
      run.stderr,
      /refusing to write through the symbolic link .*victim-session-001\.md/,
    );
    assert.doesNotMatch(run.stderr, /bug in shim/);
    assert.equal(readFileSync(target, 'utf8'), 'keep me');
  });

  test('a link as the log: nothing is appended through it', () => {
    const { root, home } = sandbox();
    const target = join(root, 'precious.log');
    writeFileSync(target, 'keep me\n');
    mkdirSync(join(home, 'logs'), { recursive: true });
    symlinkSync(target, join(home, 'logs', 'shim.log'));
    const r = hook(home, 'PostToolUse', { session_id: 's' }); // no transcript: logged as a warning
    assert.equal(r.status, 0);
    assert.equal(hook(home, 'PostToolUse', {}).status, 0);
    runShim(home, ['show', 'no-such-checkpoint']); // errors are logged too
    assert.equal(readFileSync(target, 'utf8'), 'keep me\n');
  });

  test('a link as a cache directory: the hook still exits 0 and writes nothing through it', () => {
    const { root, home } = sandbox();
    const transcript = transcriptWithId(root, 'cache-session');
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(elsewhere);
    mkdirSync(join(home, 'cache'), { recursive: true });
    symlinkSync(elsewhere, join(home, 'cache', 'cursors'));
    const r = hook(home, 'PostToolUse', {
      session_id: 'cache-session',
      transcript_path: transcript,
      cwd: root,
      tool_name: 'Bash',
    });
    assert.equal(r.status, 0);
    assert.equal(r.stdout.includes('bug in shim'), false);
    assert.deepEqual(readdirSync(elsewhere), []);
  });

  test('a link as the database is refused with a clear message, and doctor names it', () => {
    const { root, home } = sandbox();
    const target = join(root, 'other.db');
    writeFileSync(target, '');
    symlinkSync(target, join(home, 'shim.db'));
    const run = runShim(home, ['list', '--all']);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /refusing to write through the symbolic link .*shim\.db/);
    const doctor = runShim(home, ['doctor', '--json']);
    assert.match(doctor.stdout, /symbolic link.*shim\.db/);
    assert.equal(readFileSync(target, 'utf8'), '');
  });
});
