/**
 * `shim rescue` through the built binary (issue 42 item 11): a dry run stores nothing (no
 * checkpoint, no git snapshot), and a Claude Code session refused over the context limit is told
 * on its statusline and by `shim status` that `shim rescue` exists. The fork itself runs in test/e2e/rescue.test.ts.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runShim } from './helpers/cli.ts';
import { makeTempDir } from './helpers/fixtures.ts';
import {
  assistantLine,
  compactBoundaryLine,
  SESSION_ID,
  toJsonl,
  toolResultLine,
  toolUseBlock,
  userPromptLine,
} from './helpers/transcript-builders.ts';

/** A session in `repo` whose last turn Claude Code refused as too long, as its transcript says. */
function refusedSession(repo: string): string {
  const at = { extra: { cwd: repo } };
  const entries = [
    userPromptLine('Write the KOALA-5 notes into notes.txt', at),
    assistantLine({
      ...at,
      id: 'msg_1',
      content: [toolUseBlock('toolu_1', 'Bash', { command: 'echo KOALA-5 > notes.txt' })],
      usage: { input: 10, cacheRead: 60_000, output: 20 },
    }),
    toolResultLine({ ...at, toolUseId: 'toolu_1', content: '' }),
    assistantLine({
      ...at,
      id: 'msg_2',
      content: [{ type: 'text', text: 'Written.' }],
      usage: { input: 10, cacheRead: 61_000, output: 20 },
    }),
    userPromptLine('Now paste the whole build log here', at),
    {
      ...assistantLine({ ...at, id: 'msg_3', model: '<synthetic>' }),
      isApiErrorMessage: true,
      message: {
        id: 'msg_3',
        model: '<synthetic>',
        role: 'assistant',
        type: 'message',
        content: [{ type: 'text', text: 'Prompt is too long' }],
        usage: { input_tokens: 0, output_tokens: 0 },
      },
    },
  ];
  const transcript = join(repo, '..', `${SESSION_ID}.jsonl`);
  writeFileSync(transcript, toJsonl(entries));
  return transcript;
}

function gitRepo(): string {
  const repo = join(makeTempDir('shim-rescue-'), 'repo');
  execFileSync('git', ['init', '-q', repo]);
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', repo, '-c', 'user.email=t@t', '-c', 'user.name=t', ...args]);
  writeFileSync(join(repo, 'notes.txt'), 'one\n');
  git('add', '.');
  git('commit', '-qm', 'one');
  writeFileSync(join(repo, 'notes.txt'), 'KOALA-5 uncommitted\n');
  return repo;
}

const refs = (repo: string) =>
  execFileSync('git', ['-C', repo, 'for-each-ref', '--format=%(refname)'], { encoding: 'utf8' });

describe('shim rescue', () => {
  test('--dry-run stores no checkpoint and takes no snapshot', () => {
    const home = makeTempDir();
    const repo = gitRepo();
    const transcript = refusedSession(repo);
    const saved = runShim(home, ['checkpoint', '--transcript', transcript, '--json'], {
      cwd: repo,
    });
    assert.equal(saved.status, 0, saved.stderr);
    const listed = () => {
      const run = runShim(home, ['list', '--all', '--json'], { cwd: repo });
      assert.equal(run.status, 0, run.stderr);
      return (JSON.parse(run.stdout) as Array<{ id: string }>).map((c) => c.id);
    };
    const before = { checkpoints: listed(), refs: refs(repo) };
    assert.equal(before.checkpoints.length, 1);

    const dry = runShim(home, ['rescue', '--dry-run', '--json', '--session', SESSION_ID], {
      cwd: repo,
    });
    assert.equal(dry.status, 0, dry.stderr);
    const plan = JSON.parse(dry.stdout) as { checkpointId: unknown; prompt: string };
    assert.equal(plan.checkpointId, null, 'a dry run names no stored checkpoint');
    assert.match(plan.prompt, /KOALA-5/, 'the restore it would start with is shown');
    assert.deepEqual(listed(), before.checkpoints, 'no checkpoint stored');
    assert.equal(refs(repo), before.refs, 'no snapshot ref written');

    const told = runShim(home, ['rescue', '--dry-run', '--session', SESSION_ID], { cwd: repo });
    assert.equal(told.status, 0, told.stderr);
    assert.match(told.stdout, /^Would fork session .*Nothing was stored or started\.\n$/s);
    assert.deepEqual(listed(), before.checkpoints);
  });

  test('the statusline and status say `shim rescue` after "Prompt is too long", until a compaction', () => {
    const home = makeTempDir();
    const repo = gitRepo();
    const transcript = refusedSession(repo);
    const statusline = () => {
      const run = runShim(home, ['statusline'], {
        cwd: repo,
        env: { COLUMNS: '200' },
        input: JSON.stringify({ session_id: SESSION_ID, transcript_path: transcript, cwd: repo }),
      });
      assert.equal(run.status, 0, run.stderr);
      return run.stdout;
    };
    assert.match(statusline(), /\[context limit hit: shim rescue\]/);
    const status = runShim(home, ['status', transcript], { cwd: repo });
    assert.equal(status.status, 0, status.stderr);
    assert.match(status.stdout, /1 "Prompt is too long" \(`shim rescue` forks the session/);
    appendFileSync(
      transcript,
      toJsonl([compactBoundaryLine({ trigger: 'auto', preTokens: 61_000, extra: { cwd: repo } })]),
    );
    assert.doesNotMatch(statusline(), /shim rescue/);
  });
});
