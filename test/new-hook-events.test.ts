/**
 * Hook events shim does not register (2.1.332's PreSkillShellCommand) and StopFailure's
 * non-limit errors: exit 0, nothing on stdout, the agent never blocked; an event shim does not
 * know leaves one debug line in its log, nothing louder.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { BIN } from './helpers/cli.ts';
import { makeTempDir } from './helpers/fixtures.ts';

function hook(event: string, payload: Record<string, unknown>) {
  const home = makeTempDir('shim-new-events-');
  const r = spawnSync(process.execPath, [BIN, 'hook', event], {
    input: JSON.stringify({
      session_id: 'sess-new-events',
      transcript_path: join(home, 'none.jsonl'),
      cwd: home,
      hook_event_name: event,
      ...payload,
    }),
    encoding: 'utf8',
    env: { ...process.env, SHIM_HOME: home, CLAUDE_CONFIG_DIR: join(home, 'no-claude') },
  });
  return { status: r.status, stdout: r.stdout, home };
}

/** The entries of shim's log (JSON lines). */
function logOf(home: string): Array<{ level: string; message: string }> {
  const path = join(home, 'logs', 'shim.log');
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { level: string; message: string });
}

test('2.1.332 PreSkillShellCommand: ignored cleanly, one debug line in the log', () => {
  const r = hook('PreSkillShellCommand', {
    skill: 'deploy',
    command: 'npm run build',
    permission_mode: 'default',
  });
  assert.deepEqual({ status: r.status, stdout: r.stdout }, { status: 0, stdout: '' });
  const log = logOf(r.home);
  assert.equal(log.length, 1, JSON.stringify(log));
  assert.equal(log[0]!.level, 'debug');
  assert.match(log[0]!.message, /"PreSkillShellCommand" is not one shim handles/);
});

test('an event no Claude Code has yet: the same', () => {
  const r = hook('PostSomethingNew2099', { whatever: [1, 2, 3] });
  assert.deepEqual({ status: r.status, stdout: r.stdout }, { status: 0, stdout: '' });
  assert.deepEqual(
    logOf(r.home).map((e) => e.level),
    ['debug'],
  );
});

test('StopFailure that is not a limit, or a limit without a transcript: nothing to do', () => {
  const overloaded = hook('StopFailure', { error: 'overloaded', error_details: '529' });
  assert.deepEqual(
    { status: overloaded.status, stdout: overloaded.stdout },
    { status: 0, stdout: '' },
  );
  const limit = hook('StopFailure', {
    error: 'rate_limit',
    last_assistant_message: "You've hit your limit",
  });
  assert.deepEqual({ status: limit.status, stdout: limit.stdout }, { status: 0, stdout: '' });
});
