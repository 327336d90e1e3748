/**
 * Hook events shim does not register (2.1.332's PreSkillShellCommand) and StopFailure's
 * non-limit errors: exit 0, nothing on stdout, the agent never blocked.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
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
  return { status: r.status, stdout: r.stdout };
}

test('2.1.332 PreSkillShellCommand: ignored cleanly', () => {
  const r = hook('PreSkillShellCommand', {
    skill: 'deploy',
    command: 'npm run build',
    permission_mode: 'default',
  });
  assert.deepEqual(r, { status: 0, stdout: '' });
});

test('StopFailure that is not a limit, or a limit without a transcript: nothing to do', () => {
  assert.deepEqual(hook('StopFailure', { error: 'overloaded', error_details: '529' }), {
    status: 0,
    stdout: '',
  });
  assert.deepEqual(
    hook('StopFailure', { error: 'rate_limit', last_assistant_message: "You've hit your limit" }),
    { status: 0, stdout: '' },
  );
});
