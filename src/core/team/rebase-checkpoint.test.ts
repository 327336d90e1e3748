import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makeTypicalCheckpoint } from '../checkpoint/checkpoint-fixture.test-helper.ts';
import { rebaseCheckpoint } from './rebase-checkpoint.ts';

test("another clone's paths become this clone's; a longer sibling name and the transcript do not carry over", () => {
  const base = makeTypicalCheckpoint();
  const checkpoint = {
    ...base,
    source: { ...base.source, cwd: '/home/ada/app', transcriptPath: '/home/ada/.claude/x.jsonl' },
    fileState: {
      ...base.fileState,
      repoRoot: '/home/ada/app',
      activeFiles: ['/home/ada/app/src/a.ts', '/home/ada/app-old/b.ts'],
    },
    conversationState: {
      ...base.conversationState,
      summary: 'Claude Code session in /home/ada/app on branch main.',
    },
  };
  const rebased = rebaseCheckpoint(checkpoint, '/srv/work/app-copy/');
  assert.deepEqual(rebased.fileState.activeFiles, [
    '/srv/work/app-copy/src/a.ts',
    '/home/ada/app-old/b.ts',
  ]);
  assert.equal(rebased.fileState.repoRoot, '/srv/work/app-copy');
  assert.equal(rebased.source.cwd, '/srv/work/app-copy');
  assert.equal(
    rebased.conversationState.summary,
    'Claude Code session in /srv/work/app-copy on branch main.',
  );
  assert.equal(rebased.source.transcriptPath, null);
  assert.equal(rebased.id, checkpoint.id);
  // The same root: nothing but the transcript changes.
  const same = rebaseCheckpoint(checkpoint, '/home/ada/app');
  assert.deepEqual(same.fileState, checkpoint.fileState);
});
