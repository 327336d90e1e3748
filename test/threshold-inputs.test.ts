/**
 * One truth for every front door: the hooks run inside Claude Code's environment and record
 * what they resolved; `shim status` and `shim replay` from another shell use that record, and
 * read `autoCompactWindow` from the settings files Claude Code reads.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runShim } from './helpers/cli.ts';
import { makeTempDir } from './helpers/fixtures.ts';
import { withSharedCodeCache } from './helpers/shared-code-cache.ts';
import {
  assistantLine,
  toJsonl,
  toolResultLine,
  toolUseBlock,
  userPromptLine,
} from './helpers/transcript-builders.ts';

/** A 2.1.330 session on a 1M-by-default model, at 150k: 15% of 967k, 90% of 167k. */
// Homes share the code caches of the file's earlier ones (helpers/shared-code-cache.ts): nothing
// here is about the cache, and a user's home holds them from its first call on.
function homeIn(root: string): string {
  const home = withSharedCodeCache(join(root, 'shim'));
  mkdirSync(home, { mode: 0o700 });
  return home;
}

function writeSession(root: string, sessionId: string, cwd: string): string {
  const extra = { sessionId, cwd, version: '2.1.330' };
  const entries = [userPromptLine('Refactor the parser.', { extra })];
  for (let i = 0; i < 6; i++) {
    entries.push(
      assistantLine({
        id: `msg_${i}`,
        model: 'claude-sonnet-5',
        extra,
        timestamp: new Date(Date.UTC(2026, 10, 20, 10, i)).toISOString(),
        usage: { input: 10, cacheRead: 100_000 + i * 10_000, output: 20 },
        content: [toolUseBlock(`toolu_${i}`, 'Read', { file_path: `/p/f${i}.ts` })],
      }),
      toolResultLine({ toolUseId: `toolu_${i}`, content: 'ok', extra }),
    );
  }
  const path = join(root, `${sessionId}.jsonl`);
  writeFileSync(path, toJsonl(entries));
  return path;
}

type Status = {
  assessment: { compactThreshold: number; windowTokens: number; level: string };
  thresholdInputs: { source: string };
};

function status(home: string, transcript: string, env: Record<string, string> = {}): Status {
  const run = runShim(home, ['status', transcript, '--json', '--no-history'], { env });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as Status;
}

function runHook(
  home: string,
  transcript: string,
  sessionId: string,
  cwd: string,
  env: Record<string, string>,
): void {
  const input = JSON.stringify({
    session_id: sessionId,
    transcript_path: transcript,
    cwd,
    hook_event_name: 'PostToolUse',
    tool_name: 'Read',
    tool_input: {},
    tool_response: {},
  });
  const run = runShim(home, ['hook', 'PostToolUse'], { env, input });
  assert.equal(run.status, 0, run.stderr);
}

function lastReplayTurn(home: string, transcript: string): { compactThreshold: number } {
  const run = runShim(home, ['replay', transcript, '--json', '--no-history']);
  assert.equal(run.status, 0, run.stderr);
  const turns = run.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { kind: string; compactThreshold: number })
    .filter((e) => e.kind === 'turn');
  return turns[turns.length - 1]!;
}

describe('threshold inputs: one truth for every front door', () => {
  test("a variable set only in Claude Code's environment reaches status and replay through the hooks' record", () => {
    const root = makeTempDir('shim-inputs-');
    const home = homeIn(root);
    const project = join(root, 'project');
    mkdirSync(project);
    const transcript = writeSession(root, 'sess-1m-off', project);
    // From a plain shell, before any hook: the model's 1M window.
    const before = status(home, transcript);
    assert.equal(before.assessment.windowTokens, 1_000_000);
    assert.equal(before.assessment.compactThreshold, 967_000);
    assert.equal(before.thresholdInputs.source, 'shell');
    // Claude Code runs with the 1M window off: its hooks see it and record it.
    runHook(home, transcript, 'sess-1m-off', project, { CLAUDE_CODE_DISABLE_1M_CONTEXT: '1' });
    const after = status(home, transcript);
    assert.equal(after.thresholdInputs.source, 'recorded');
    assert.equal(after.assessment.windowTokens, 200_000);
    assert.equal(after.assessment.compactThreshold, 167_000);
    assert.equal(after.assessment.level, 'L2');
    assert.equal(lastReplayTurn(home, transcript).compactThreshold, 167_000);
  });

  test('autoCompactWindow in the project settings is honoured by status without any hook', () => {
    const root = makeTempDir('shim-inputs-');
    const home = homeIn(root);
    const project = join(root, 'project');
    mkdirSync(join(project, '.claude'), { recursive: true });
    writeFileSync(
      join(project, '.claude', 'settings.json'),
      JSON.stringify({ autoCompactWindow: 400_000 }),
    );
    const transcript = writeSession(root, 'sess-400k', project);
    const result = status(home, transcript);
    assert.equal(result.assessment.windowTokens, 1_000_000);
    assert.equal(result.assessment.compactThreshold, 367_000);
    assert.equal(lastReplayTurn(home, transcript).compactThreshold, 367_000);
  });

  test("a settings file's env block counts as Claude Code's environment", () => {
    const root = makeTempDir('shim-inputs-');
    const home = homeIn(root);
    const project = join(root, 'project');
    mkdirSync(join(project, '.claude'), { recursive: true });
    writeFileSync(
      join(project, '.claude', 'settings.local.json'),
      JSON.stringify({ env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '50' } }),
    );
    const transcript = writeSession(root, 'sess-pct', project);
    // 50% of the effective window (1,000,000 − 20,000).
    assert.equal(status(home, transcript).assessment.compactThreshold, 490_000);
  });
});

describe('continued-in', () => {
  test('status of a session whose conversation moved on shows the session it continued in', () => {
    const root = makeTempDir('shim-continued-');
    const home = homeIn(root);
    const project = join(root, 'project');
    mkdirSync(project);
    const next = writeSession(root, 'sess-next', project);
    const first = join(root, 'sess-first.jsonl');
    writeFileSync(
      first,
      toJsonl([
        userPromptLine('Start.', { extra: { sessionId: 'sess-first', cwd: project } }),
        { type: 'continued-in', continuedInSessionId: 'sess-next', sessionId: 'sess-first' },
      ]),
    );
    const run = runShim(home, ['status', first, '--json', '--no-history']);
    assert.equal(run.status, 0, run.stderr);
    const result = JSON.parse(run.stdout) as { sessionId: string; transcriptPath: string };
    assert.equal(result.sessionId, 'sess-next');
    assert.equal(result.transcriptPath, next);
  });
});
