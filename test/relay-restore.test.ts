/**
 * Issue 42 item 5: the relay after `/clear` (config "relay") is headed as what it is — the user
 * cleared the context and shim carries the cleared session's whole state into it — not as a
 * handoff the user wrote with `shim handoff`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { BIN, runShim } from './helpers/cli.ts';
import { makeTempDir } from './helpers/fixtures.ts';
import {
  SESSION_ID,
  assistantLine,
  toJsonl,
  toolResultLine,
  toolUseBlock,
  userPromptLine,
} from './helpers/transcript-builders.ts';

const REQUEST = 'Port the PLATYPUS-31 parser to the new tokenizer';
const CLEARED_INTO = '7d1c0b9e-3f55-4c1a-9a51-0e6f3b2d4c10';

function hook(home: string, event: string, payload: Record<string, unknown>) {
  const r = spawnSync(process.execPath, [BIN, 'hook', event], {
    input: JSON.stringify({ hook_event_name: event, ...payload }),
    encoding: 'utf8',
    env: { ...process.env, SHIM_HOME: home, CLAUDE_CONFIG_DIR: join(home, 'no-claude') },
  });
  assert.equal(r.status, 0, r.stderr);
  const out = r.stdout.trim();
  return out === ''
    ? null
    : (JSON.parse(out) as {
        systemMessage?: string;
        hookSpecificOutput?: { additionalContext?: string };
      });
}

test('the relay after /clear is headed as the relay, not as a handoff the user wrote', () => {
  const dir = makeTempDir('shim-relay-');
  const home = join(dir, 'shim');
  const project = join(dir, 'project');
  mkdirSync(project, { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'config.json'), `${JSON.stringify({ relay: true, warmLook: false })}\n`);
  const transcript = join(dir, `${SESSION_ID}.jsonl`);
  writeFileSync(
    transcript,
    toJsonl([
      userPromptLine(REQUEST, { extra: { cwd: project } }),
      assistantLine({
        id: 'msg_1',
        extra: { cwd: project },
        content: [toolUseBlock('toolu_1', 'Bash', { command: 'echo parsed > parser.txt' })],
      }),
      toolResultLine({ toolUseId: 'toolu_1', content: '', extra: { cwd: project } }),
    ]),
  );
  const session = { session_id: SESSION_ID, transcript_path: transcript, cwd: project };
  hook(home, 'PostToolUse', {
    ...session,
    tool_name: 'Bash',
    tool_input: { command: 'echo parsed > parser.txt' },
  });
  hook(home, 'SessionEnd', { ...session, reason: 'clear' });

  const out = hook(home, 'SessionStart', {
    session_id: CLEARED_INTO,
    transcript_path: join(dir, `${CLEARED_INTO}.jsonl`),
    cwd: project,
    source: 'clear',
  });
  const context = out?.hookSpecificOutput?.additionalContext ?? '';
  assert.match(context, /^# Carrying the work on after \/clear \(relay\) \(shim checkpoint #\d+\)/);
  assert.match(context, /The user cleared the context .*shim's relay \(config `relay`\)/);
  assert.doesNotMatch(context, /handoff/i, 'the user wrote no handoff');
  assert.ok(context.includes(REQUEST), "the cleared session's request, verbatim");
  assert.match(out?.systemMessage ?? '', /^shim relay: /);

  // `shim show` prints the restore the fresh context got, with the same heading.
  const list = runShim(home, ['list', '--all', '--json']);
  const restored = (
    JSON.parse(list.stdout) as Array<{ id: string; restoredAt: string | null }>
  ).find((c) => c.restoredAt !== null);
  assert.ok(restored, list.stdout);
  const shown = runShim(home, ['show', '--all', restored.id]);
  assert.equal(shown.status, 0, shown.stderr);
  assert.equal(shown.stdout.split('\n')[0], context.split('\n')[0]);
});
