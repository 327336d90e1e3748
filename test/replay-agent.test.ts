/**
 * `shim replay` and `shim checkpoint` on any agent's log: the format told from the file's name,
 * else its first lines (a rollout or chat under another name), `--agent` forcing it, and a clear
 * error when the file is not that agent's.
 */
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runShim } from './helpers/cli.ts';
import { gzFixturePath, makeTempDir, SHARED_FIXTURES_DIR } from './helpers/fixtures.ts';

const ROLLOUT = 'rollout-2025-10-04T22-31-15-0199b26c-737a-71a2-9939-52ce68c95cbe.jsonl.gz';
const CODEX_FIXTURE = join(SHARED_FIXTURES_DIR, 'agents', 'codex', `coda__${ROLLOUT}`);
const CHAT = 'session-2026-04-25T08-23-e435870b.jsonl.gz';
const GEMINI_FIXTURE = join(SHARED_FIXTURES_DIR, 'agents', 'gemini', `vibecmp__${CHAT}`);
const missing = [CODEX_FIXTURE, GEMINI_FIXTURE].find((p) => !existsSync(p));
const skip = missing ? `no ${missing}` : false;

/** The fixtures under their agents' names, and under a name that says nothing. */
function logs() {
  const home = makeTempDir('shim-replay-agent-');
  const rollout = join(home, ROLLOUT);
  const renamedRollout = join(home, 'exported.jsonl.gz');
  copyFileSync(CODEX_FIXTURE, rollout);
  copyFileSync(CODEX_FIXTURE, renamedRollout);
  mkdirSync(join(home, 'slug', 'chats'), { recursive: true });
  const chat = join(home, 'slug', 'chats', CHAT);
  const renamedChat = join(home, 'chat-copy.jsonl.gz');
  copyFileSync(GEMINI_FIXTURE, chat);
  copyFileSync(GEMINI_FIXTURE, renamedChat);
  const claude = gzFixturePath('spotter-short-v2.1.38.jsonl');
  return { home, rollout, renamedRollout, chat, renamedChat, claude };
}

function turns(stdout: string): number {
  return stdout
    .trim()
    .split('\n')
    .filter((l) => l.includes('"kind":"turn"')).length;
}

describe('shim replay: whose log it is', { skip }, () => {
  test('a rollout or a chat under another name is told from its first lines', () => {
    const w = logs();
    for (const [named, renamed] of [
      [w.rollout, w.renamedRollout],
      [w.chat, w.renamedChat],
    ] as const) {
      const byName = runShim(w.home, ['replay', named!, '--json']);
      assert.equal(byName.status, 0, byName.stderr);
      assert.ok(turns(byName.stdout) > 0, byName.stdout.slice(0, 300));
      const byContent = runShim(w.home, ['replay', renamed!, '--json']);
      assert.equal(byContent.status, 0, byContent.stderr);
      assert.equal(byContent.stdout, byName.stdout);
    }
  });

  test('--agent forces the format: the same objects come out for the right agent', () => {
    const w = logs();
    const detected = runShim(w.home, ['replay', w.renamedRollout, '--json']);
    const forced = runShim(w.home, ['replay', w.renamedRollout, '--json', '--agent', 'codex']);
    assert.equal(forced.status, 0, forced.stderr);
    assert.equal(forced.stdout, detected.stdout);
    const claude = runShim(w.home, ['replay', w.claude, '--json', '--agent', 'claude']);
    assert.equal(claude.status, 0, claude.stderr);
    assert.ok(turns(claude.stdout) > 0);
  });

  test('--agent that does not fit the file: one line saying what the file looks like, and what to use', () => {
    const w = logs();
    const cases = [
      [
        w.rollout,
        'gemini',
        /does not look like a Gemini CLI log: it looks like a Codex CLI one/,
        /--agent codex/,
      ],
      [
        w.renamedChat,
        'claude',
        /does not look like a Claude Code log: it looks like a Gemini CLI one/,
        /--agent gemini/,
      ],
      [
        w.claude,
        'codex',
        /does not look like a Codex CLI log: it looks like a Claude Code one/,
        /--agent claude/,
      ],
    ] as const;
    for (const [path, agent, what, hint] of cases) {
      const run = runShim(w.home, ['replay', path, '--json', '--agent', agent]);
      assert.equal(run.status, 1, `${agent}: ${run.stderr}`);
      assert.equal(run.stdout, '');
      assert.match(run.stderr, what);
      assert.match(run.stderr, hint);
    }
    const unknown = runShim(w.home, ['replay', w.rollout, '--agent', 'copilot']);
    assert.notEqual(unknown.status, 0);
    assert.match(unknown.stderr, /Allowed choices are claude, codex, gemini/);
  });
});

describe('shim checkpoint --agent', { skip }, () => {
  test("a renamed rollout: checkpointed as Codex's, with or without --agent; the wrong agent refused", () => {
    const w = logs();
    const forced = runShim(w.home, [
      'checkpoint',
      '--transcript',
      w.renamedRollout,
      '--agent',
      'codex',
      '--no-snapshot',
      '--json',
    ]);
    assert.equal(forced.status, 0, forced.stderr);
    const id = (JSON.parse(forced.stdout) as { checkpointId: string }).checkpointId;
    const shown = runShim(w.home, ['show', id, '--json']);
    assert.equal(shown.status, 0, shown.stderr);
    assert.equal((JSON.parse(shown.stdout) as { source: { agent: string } }).source.agent, 'codex');

    const detected = runShim(w.home, [
      'checkpoint',
      '--transcript',
      w.renamedRollout,
      '--no-snapshot',
      '--json',
    ]);
    assert.equal(detected.status, 0, detected.stderr);
    const detectedId = (JSON.parse(detected.stdout) as { checkpointId: string }).checkpointId;
    const detectedShown = JSON.parse(runShim(w.home, ['show', detectedId, '--json']).stdout) as {
      source: { agent: string };
    };
    assert.equal(detectedShown.source.agent, 'codex');

    const wrong = runShim(w.home, [
      'checkpoint',
      '--transcript',
      w.renamedRollout,
      '--agent',
      'gemini',
      '--no-snapshot',
    ]);
    assert.equal(wrong.status, 1);
    assert.match(
      wrong.stderr,
      /does not look like a Gemini CLI log: it looks like a Codex CLI one/,
    );
  });

  test("without a file: that agent's newest session of the directory, or a line saying there is none", () => {
    const w = logs();
    const project = join(w.home, 'project');
    mkdirSync(project);
    const none = runShim(w.home, ['checkpoint', '--agent', 'codex', '--no-snapshot'], {
      cwd: project,
      env: { CODEX_HOME: join(w.home, 'codex-home') },
    });
    assert.equal(none.status, 1);
    assert.match(
      none.stderr,
      /no Codex CLI session of .*project \(looked under .*codex-home\/sessions\)/,
    );
  });
});
