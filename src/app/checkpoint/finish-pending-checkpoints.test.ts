import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { makeTempDir } from '../../../test/helpers/fixtures.ts';
import {
  assistantLine,
  toJsonl,
  toolUseBlock,
  userPromptLine,
} from '../../../test/helpers/transcript-builders.ts';
import { captureGitState } from '../../capture/git.ts';
import { getCheckpointFailure } from '../../store/cache/checkpoint-failures.ts';
import {
  listPendingCheckpoints,
  writePendingCheckpoint,
} from '../../store/checkpoints/pending-checkpoints.ts';
import { finishPendingCheckpoints } from './finish-pending-checkpoints.ts';
import { loadSessionState } from '../session/read-session.ts';
import { withStore } from '../open-store.ts';
import { claudeAgent, testAgents } from '../../../test/helpers/agents.ts';

const AT = Date.parse('2026-11-26T03:00:00.000Z');

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@e', ...args], {
    cwd,
    encoding: 'utf8',
  });
}

/** A repository with a commit, a modified file, a staged new one and an untracked one. */
function makeRepository(root: string): string {
  const repo = join(root, 'repo');
  mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'parser.ts'), 'export const parse = 1;\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'initial');
  writeFileSync(join(repo, 'parser.ts'), 'export const parse = 2; // half-way through\n');
  writeFileSync(join(repo, 'lexer.ts'), 'export const lex = 1;\n');
  git(repo, 'add', 'lexer.ts');
  writeFileSync(join(repo, 'notes.txt'), 'untracked notes\n');
  return repo;
}

/** What PreToolUse does before `git reset --hard`: the snapshot, then the note. */
async function promise(home: string, repo: string, transcript: string, id: string) {
  const capture = await captureGitState(repo, { snapshot: { checkpointId: id }, diff: false });
  assert.equal(capture.uncommittedDiff, '', 'no diff is read for the note');
  writePendingCheckpoint(home, {
    v: 1,
    id,
    sessionId: 'pending-session',
    transcriptPath: transcript,
    transcriptBytes: statSync(transcript).size,
    cwd: repo,
    at: AT,
    trigger: 'risky_operation',
    reason: 'before git reset --hard',
    git: capture,
    attempts: 0,
  });
  return capture;
}

describe('finishing the checkpoints promised before risky commands', () => {
  test('the checkpoint is the one the hook saw: its id, time, session up to its bytes, git before the command', async () => {
    const root = makeTempDir('shim-finish-pending-');
    const home = join(root, 'shim');
    const repo = makeRepository(root);
    const transcript = join(root, 'pending-session.jsonl');
    const cwd = { extra: { cwd: repo, sessionId: 'pending-session' } };
    writeFileSync(
      transcript,
      toJsonl([
        userPromptLine('rewrite the parser', cwd),
        assistantLine({
          ...cwd,
          id: 'msg_1',
          content: [toolUseBlock('toolu_1', 'Bash', { command: 'git reset --hard' })],
        }),
      ]),
    );
    // Earlier hooks of the session left a cursor behind.
    await loadSessionState(transcript, home, claudeAgent);
    const diffBefore = git(repo, 'diff', '--no-color', 'HEAD', '--');
    const id = 'f1f1f1f1-0000-4000-8000-000000000001';
    const capture = await promise(home, repo, transcript, id);
    // The command runs, and the session goes on, before the builder gets to it.
    git(repo, 'reset', '-q', '--hard');
    appendFileSync(transcript, toJsonl([userPromptLine('a prompt typed after the command', cwd)]));

    const done = await finishPendingCheckpoints(home, process.env, testAgents);
    assert.deepEqual(done.failed, []);
    assert.equal(done.stored.length, 1);
    const checkpoint = done.stored[0]!.checkpoint;
    assert.equal(checkpoint.id, id, 'the id the hook announced');
    assert.equal(checkpoint.createdAt, new Date(AT).toISOString());
    assert.equal(checkpoint.triggeredBy, 'risky_operation');
    assert.equal(
      checkpoint.fileState.uncommittedDiff,
      diffBefore,
      'the diff read from the snapshot',
    );
    assert.equal(checkpoint.fileState.snapshot?.commit, capture.snapshot?.commit);
    assert.equal(
      git(repo, 'show', `${capture.snapshot!.ref}:parser.ts`),
      'export const parse = 2; // half-way through\n',
    );
    assert.match(JSON.stringify(checkpoint), /rewrite the parser/);
    assert.doesNotMatch(JSON.stringify(checkpoint), /a prompt typed after the command/);
    assert.deepEqual(listPendingCheckpoints(home), { waiting: [], building: 0 });
    assert.deepEqual(readdirSync(join(home, 'pending')), [], 'the note and its cursor copy go');
    const stored = await withStore(home, (store) => store.checkpoints.getById(id));
    assert.equal(stored?.checkpointNumber, 1);
  });

  test('a build that fails is recorded where the user looks, the note kept and its snapshot too', async () => {
    const root = makeTempDir('shim-finish-pending-');
    const home = join(root, 'shim');
    const repo = makeRepository(root);
    const transcript = join(root, 'pending-session.jsonl');
    writeFileSync(transcript, toJsonl([userPromptLine('rewrite the parser')]));
    const id = 'f2f2f2f2-0000-4000-8000-000000000002';
    const capture = await promise(home, repo, transcript, id);
    // The transcript is gone before the builder reads it.
    execFileSync('rm', [transcript]);
    const done = await finishPendingCheckpoints(home, process.env, testAgents);
    assert.equal(done.stored.length, 0);
    assert.equal(done.failed.length, 1);
    assert.equal(done.failed[0]!.setAside, false);
    assert.match(getCheckpointFailure(home, 'pending-session')?.message ?? '', /pending-session/);
    assert.equal(listPendingCheckpoints(home).waiting.length, 1, 'tried again later');
    assert.equal(git(repo, 'rev-parse', capture.snapshot!.ref).trim(), capture.snapshot!.commit);
  });
});
