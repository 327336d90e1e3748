/**
 * The team store with the real Gemini CLI (pinned, offline against a local Gemini API) on two
 * machines, simulated: two HOMEs and SHIM_HOMEs, two clones of one repository at different paths
 * (the same origin remote), one real PostgreSQL server. A Gemini session on A runs a failing
 * command, one more, and is killed -9 while a third runs (the CLI writes a call to its chat only
 * once it completes: BeforeTool's note holds it); B's FIRST session (pulled at its start) carries,
 * in its first request, where A was: the command in flight (shared by A's command watch while it
 * ran: docs/team.md), the one before it and the newest failure, verbatim — as the Claude Code run
 * in team-two-machines.test.ts does.
 *
 *   node scripts/build.mjs && node scripts/test.mjs test/e2e/team-two-machines-gemini
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { findPostgresBin, startPostgres, type PostgresServer } from '../helpers/postgres.ts';
import { waitForProcessesUnder } from '../helpers/processes.ts';
import { createScratch, pollUntil, type Scratch } from './claude.ts';
import {
  endShellCommand,
  ensureGemini,
  GEMINI_E2E_SKIP,
  runGemini,
  shim,
  spawnGemini,
  writeGeminiSettings,
} from './gemini.ts';
import { startMockGemini, type MockGemini } from './mock-gemini.ts';

const skip =
  GEMINI_E2E_SKIP ||
  (findPostgresBin() === null
    ? 'no PostgreSQL server binaries (apt-get install postgresql)'
    : '') ||
  false;

const REMOTE = 'https://github.com/acme/lexer.git';
/** The command killed mid-run: it writes its shell's pid first, so the test knows it runs. */
const SLOW_PID = 'slow-BILBY.pid';
const SLOW = `echo $$ > ${SLOW_PID} && exec sleep 120 # BILBY`;

type Machine = { scratch: Scratch; shimHome: string; env: Record<string, string> };

function machine(name: string): Machine {
  const scratch = createScratch(`shim-e2e-team-gemini-${name}-`);
  const git = spawnSync('git', ['-C', scratch.project, 'remote', 'add', 'origin', REMOTE]);
  assert.equal(git.status, 0, String(git.stderr));
  writeGeminiSettings(scratch);
  const shimHome = join(scratch.root, 'shim');
  const install = shim(scratch, shimHome, ['install', '--agent', 'gemini']);
  assert.equal(install.status, 0, install.stderr);
  return { scratch, shimHome, env: { SHIM_MACHINE: name } };
}

const shell = (command: string, tokens: number) => ({
  parts: [{ functionCall: { name: 'run_shell_command', args: { command } } }],
  usage: { promptTokenCount: tokens },
});

let server: PostgresServer;
let url: string;

describe(
  'the team store with the real Gemini CLI on two machines',
  { skip, timeout: 400_000 },
  () => {
    before(async () => {
      ensureGemini();
      server = await startPostgres();
      url = server.url(await server.createDatabase());
    });
    after(() => server?.dispose());

    test("killed -9 mid-command on A: B's first request carries the command, the one before it and the newest failure", async (t) => {
      const a = machine('laptop-a');
      const b = machine('desk-b');
      let mock: MockGemini | null = null;
      t.after(async () => {
        await mock?.close();
        a.scratch.cleanup();
        b.scratch.cleanup();
      });
      const connect = shim(a.scratch, a.shimHome, ['team', 'connect', url], undefined, a.env);
      assert.equal(connect.status, 0, connect.stderr);

      mock = await startMockGemini({
        steps: [
          shell('ls no-such-BILBY-dir', 12_000),
          shell('echo lexed-BILBY-5', 13_000),
          shell(SLOW, 14_000),
          { parts: [{ text: 'never seen' }], usage: { promptTokenCount: 16_000 } },
        ],
      });
      const doomed = spawnGemini({
        scratch: a.scratch,
        mock,
        shimHome: a.shimHome,
        prompt: 'Write the lexer REQ-BILBY',
        env: a.env,
      });
      const pidFile = join(a.scratch.project, SLOW_PID);
      await pollUntil(
        () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '',
        90_000,
      );
      doomed.kill();
      await doomed.result;
      endShellCommand(pidFile);
      // A's command watch and worker finish: the server holds what they shared.
      await waitForProcessesUnder(a.shimHome);
      const status = shim(a.scratch, a.shimHome, ['team', 'status', '--json'], undefined, a.env);
      assert.equal(status.status, 0, status.stderr);
      assert.equal(JSON.parse(status.stdout).waiting, 0, 'A drained its team outbox');

      // B: a fresh SHIM_HOME and clone that only know the server's URL; its first session pulls.
      mock.reset({
        steps: [{ parts: [{ text: 'Picked up on B.' }], usage: { promptTokenCount: 8_000 } }],
      });
      const onB = await runGemini({
        scratch: b.scratch,
        mock,
        shimHome: b.shimHome,
        prompt: 'Carry on',
        env: { ...b.env, SHIM_TEAM_URL: url, SHIM_TEAM_PULL_BUDGET_MS: '60000' },
      });
      assert.equal(onB.exitCode, 0, onB.stderr);
      const first = mock.mainRequests()[0]!.text;
      assert.match(first, /on laptop-a, [^,]+ ago, through shim's team store/, 'naming A');
      assert.match(first, /REQ-BILBY/);
      assert.match(first, /## Where you were/);
      // With its `>`: the CLI escapes hook context, shim's BeforeModel hook gives it back.
      assert.ok(first.includes(SLOW), 'the command in flight on A, verbatim');
      assert.match(
        first,
        /This checkpoint \([^)]+\) was taken while a command ran there \(under Where you were\)/,
      );
      assert.match(first, /`echo lexed-BILBY-5` → exit 0/, 'the command before it');
      assert.match(first, /`ls no-such-BILBY-dir` → \*\*exit 2\*\*/, 'the failed command');
      assert.match(first, /No such file or directory/, "the failure's output");
      assert.ok(!first.includes(a.scratch.project), "A's absolute path stays on A");
    });
  },
);
