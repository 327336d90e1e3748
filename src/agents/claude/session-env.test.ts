import { test } from 'node:test';
import assert from 'node:assert/strict';
import { envForNewSession, parentSessionMarkers, PARENT_SESSION_VARIABLES } from './session-env.ts';

test('a new session gets none of the parent session markers and persistence forced on', () => {
  const parent = Object.fromEntries(PARENT_SESSION_VARIABLES.map((n) => [n, 'x']));
  const env = envForNewSession({ ...parent, PATH: '/bin', ANTHROPIC_BASE_URL: 'http://m' });
  for (const name of PARENT_SESSION_VARIABLES) assert.equal(name in env, false, name);
  assert.equal(env.CLAUDE_CODE_FORCE_SESSION_PERSISTENCE, '1');
  assert.equal(env.PATH, '/bin');
  assert.equal(env.ANTHROPIC_BASE_URL, 'http://m');
});

test('parentSessionMarkers names what an enclosing session left', () => {
  assert.deepEqual(parentSessionMarkers({ PATH: '/bin' }), []);
  assert.deepEqual(parentSessionMarkers({ CLAUDECODE: '1', CLAUDE_PID: '7' }), [
    'CLAUDECODE',
    'CLAUDE_PID',
  ]);
});
