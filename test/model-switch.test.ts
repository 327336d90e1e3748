/** PostModelSwitch (2.1.330): the session is re-levelled against the new model's window. */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { DatabaseSync } from '@photostructure/sqlite';
import { runShim } from './helpers/cli.ts';
import { makeTempDir } from './helpers/fixtures.ts';
import {
  assistantLine,
  toJsonl,
  toolResultLine,
  toolUseBlock,
  userPromptLine,
} from './helpers/transcript-builders.ts';

function session(model: string, context: number) {
  const root = makeTempDir('shim-switch-');
  const project = join(root, 'project');
  mkdirSync(project);
  const extra = { sessionId: 'sess-switch', cwd: project, version: '2.1.330' };
  const path = join(root, 'sess-switch.jsonl');
  writeFileSync(
    path,
    toJsonl([
      userPromptLine('Port the importer to streams and keep the CSV parser strict.', { extra }),
      assistantLine({
        id: 'msg_1',
        model,
        extra,
        usage: { input: 10, cacheRead: context, output: 20 },
        content: [toolUseBlock('toolu_1', 'Read', { file_path: '/p/a.ts' })],
      }),
      toolResultLine({ toolUseId: 'toolu_1', content: 'ok', extra }),
    ]),
  );
  return { home: join(root, 'shim'), path, project };
}

function switchModel(
  s: ReturnType<typeof session>,
  from: string,
  to: string,
  contextTokens: number,
): { systemMessage?: string; hookSpecificOutput?: { additionalContext?: string } } {
  const input = JSON.stringify({
    session_id: 'sess-switch',
    transcript_path: s.path,
    cwd: s.project,
    hook_event_name: 'PostModelSwitch',
    from_model: from,
    to_model: to,
    source: 'user',
    context_tokens: contextTokens,
  });
  const run = runShim(s.home, ['hook', 'PostModelSwitch'], { input });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.trim() ? (JSON.parse(run.stdout) as Record<string, never>) : {};
}

describe('PostModelSwitch', () => {
  test('from a 1M model to a 200k one past its threshold: checkpoint now, user told', () => {
    const s = session('claude-sonnet-5', 180_000);
    const out = switchModel(s, 'claude-sonnet-5', 'claude-opus-4-6', 180_010);
    assert.match(out.systemMessage ?? '', /compacts at 167,000 of a 200,000 window/);
    assert.match(out.systemMessage ?? '', /already past it/);
    assert.match(out.systemMessage ?? '', /Checkpoint #1 saved/);
    const db = new DatabaseSync(join(s.home, 'shim.db'), { readOnly: true });
    const rows = db.prepare('SELECT triggered_by FROM checkpoints').all() as Array<{
      triggered_by: string;
    }>;
    db.close();
    assert.deepEqual(
      rows.map((r) => r.triggered_by),
      ['danger_zone'],
    );
  });

  test('from a 200k model to a 1M one: re-levelled, nothing saved', () => {
    const s = session('claude-opus-4-6', 150_000);
    const out = switchModel(s, 'claude-opus-4-6', 'claude-sonnet-5', 150_010);
    assert.match(out.systemMessage ?? '', /compacts at 967,000 of a 1,000,000 window/);
    assert.match(out.systemMessage ?? '', /at 16% \(L0\)/);
    assert.equal(existsSync(join(s.home, 'shim.db')), false);
  });
});

describe('SessionStart context_tokens (resume, fork)', () => {
  test("Claude Code's own count is checked against shim's; a disagreement is logged", () => {
    const s = session('claude-opus-4-6', 150_000);
    const start = (contextTokens: number) => {
      const input = JSON.stringify({
        session_id: 'sess-switch',
        transcript_path: s.path,
        cwd: s.project,
        hook_event_name: 'SessionStart',
        source: 'resume',
        context_tokens: contextTokens,
      });
      const run = runShim(s.home, ['hook', 'SessionStart'], { input });
      assert.equal(run.status, 0, run.stderr);
      const log = join(s.home, 'logs', 'shim.log');
      return existsSync(log) ? readFileSync(log, 'utf8') : '';
    };
    assert.doesNotMatch(start(150_900), /differs from Claude Code/);
    assert.match(start(190_000), /differs from Claude Code's.*"shim":150010.*"claude":190000/);
  });
});
