/**
 * "The tests pass again" is a milestone checkpoint for every agent's shell tool, not only Claude
 * Code's `Bash`: a Codex CLI session (`exec_command`) and a Gemini CLI session
 * (`run_shell_command`) whose `npm test` failed and then passed get their milestone checkpoint
 * from the agent's own hook (`checkpoints.timing: "count"`, where the milestone is the hooks'
 * own rule; under "changes" the same reading of the call decides).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runShim } from './helpers/cli.ts';
import { waitForProcessesUnder } from './helpers/processes.ts';
import { codexSession, geminiSession, world } from './helpers/shell-sessions.ts';

describe('the tests pass again: a milestone for every agent', () => {
  for (const [name, start] of [
    ['Codex CLI', codexSession],
    ['Gemini CLI', geminiSession],
  ] as const)
    test(`${name}: a failing npm test, then a passing one, takes a milestone checkpoint`, async () => {
      const w = world(`shim-milestone-${name.split(' ')[0]!.toLowerCase()}-`);
      writeFileSync(
        join(w.home, 'config.json'),
        `${JSON.stringify({ warmLook: false, checkpoints: { timing: 'count' } })}\n`,
      );
      const call = start(w);
      call(1, 'ls src');
      await waitForProcessesUnder(w.dir); // the session's first checkpoint
      call(2, 'npm test', { failed: true });
      await waitForProcessesUnder(w.dir);
      call(3, 'npm test');
      await waitForProcessesUnder(w.dir);
      const list = runShim(w.home, ['list', '--all', '--json'], { cwd: w.project, env: w.env });
      assert.equal(list.status, 0, list.stderr);
      const triggers = (JSON.parse(list.stdout) as { triggeredBy: string }[]).map(
        (r) => r.triggeredBy,
      );
      assert.deepEqual(triggers.sort(), ['milestone', 'session_start'], triggers.join(', '));
    });
});
