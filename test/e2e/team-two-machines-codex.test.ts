/**
 * The team store with the real Codex CLI (pinned, offline against test/e2e/openai-mock.ts) on two
 * machines, simulated: two CODEX_HOMEs and SHIM_HOMEs, two clones of one repository at different
 * paths (the same origin remote), one real PostgreSQL server. A Codex session on A runs a failing
 * command, one more, and is killed -9 while a third runs; B's FIRST session (pulled at its start)
 * carries, in its first request, where A was: the command in flight (shared by A's command watch
 * while it ran: docs/team.md), the one before it and the newest failure, verbatim — as the Claude
 * Code run in team-two-machines.test.ts does.
 *
 *   node scripts/build.mjs && node scripts/test.mjs test/e2e/team-two-machines-codex
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runShim } from '../helpers/cli.ts';
import { findPostgresBin, startPostgres, type PostgresServer } from '../helpers/postgres.ts';
import { waitForProcessesUnder } from '../helpers/processes.ts';
import { pollUntil } from './claude.ts';
import {
  CODEX_E2E_SKIP,
  createCodexScratch,
  developerTexts,
  runCodex,
  spawnCodex,
  type CodexScratch,
} from './codex.ts';
import { startOpenAiMock, type OpenAiMock } from './openai-mock.ts';

const skip =
  CODEX_E2E_SKIP ||
  (findPostgresBin() === null
    ? 'no PostgreSQL server binaries (apt-get install postgresql)'
    : '') ||
  false;

const REMOTE = 'https://github.com/acme/exporter.git';
const RESTORE_HEAD = /^# [A-Z][^\n]* \(shim checkpoint #\d+\)/;
/** The command killed mid-run: it writes its shell's pid first, so the test knows it runs. */
const SLOW_PID = 'slow-QUOKKA.pid';
const SLOW = `echo $$ > ${SLOW_PID} && exec sleep 60 # QUOKKA`;

function machine(mock: OpenAiMock, name: string): CodexScratch {
  const scratch = createCodexScratch(mock);
  for (const args of [
    ['init', '-q'],
    ['remote', 'add', 'origin', REMOTE],
  ]) {
    const git = spawnSync('git', ['-C', scratch.project, ...args]);
    assert.equal(git.status, 0, String(git.stderr));
  }
  scratch.env.SHIM_MACHINE = name;
  const install = shim(scratch, ['install', '--agent', 'codex']);
  assert.equal(install.status, 0, install.stderr);
  return scratch;
}

function endProcess(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Gone with the CLI.
  }
}

function shim(scratch: CodexScratch, args: string[]) {
  return runShim(scratch.shimHome, args, { env: scratch.env, cwd: scratch.project });
}

let server: PostgresServer;
let url: string;

describe(
  'the team store with the real Codex CLI on two machines',
  { skip, timeout: 300_000 },
  () => {
    before(async () => {
      server = await startPostgres();
      url = server.url(await server.createDatabase());
    });
    after(() => server?.dispose());

    test("killed -9 mid-command on A: B's first request carries the command, the one before it and the newest failure", async (t) => {
      const mock = await startOpenAiMock({ steps: [] });
      const a = machine(mock, 'laptop-a');
      const b = machine(mock, 'desk-b');
      t.after(async () => {
        await mock.close();
        a.cleanup();
        b.cleanup();
      });
      const connect = shim(a, ['team', 'connect', url]);
      assert.equal(connect.status, 0, connect.stderr);

      mock.reset({
        steps: [
          { calls: [{ name: 'exec_command', arguments: { cmd: 'ls no-such-QUOKKA-dir' } }] },
          { calls: [{ name: 'exec_command', arguments: { cmd: 'echo staged-QUOKKA-7' } }] },
          { calls: [{ name: 'exec_command', arguments: { cmd: SLOW } }] },
          { text: 'never sent', delayMs: 120_000 },
        ],
      });
      const dying = spawnCodex(a, ['stage the QUOKKA-7 export']);
      // Killed once the command runs (its before-call hook has run: Codex runs a call after it).
      const pidFile = join(a.project, SLOW_PID);
      await pollUntil(
        () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '',
        60_000,
      );
      dying.kill();
      await dying.done;
      endProcess(Number(readFileSync(pidFile, 'utf8').trim()));
      // A's command watch and worker finish: the server holds what they shared.
      await waitForProcessesUnder(a.shimHome);
      const status = shim(a, ['team', 'status', '--json']);
      assert.equal(status.status, 0, status.stderr);
      assert.equal(JSON.parse(status.stdout).waiting, 0, 'A drained its team outbox');

      // B: a fresh SHIM_HOME and clone that only know the server's URL; its first session pulls.
      b.env.SHIM_TEAM_URL = url;
      b.env.SHIM_TEAM_PULL_BUDGET_MS = '60000';
      mock.reset({ steps: [{ text: 'Carrying on on B.', usage: { input: 7_000 } }] });
      const onB = await runCodex(b, ['carry on']);
      assert.equal(onB.exitCode, 0, onB.stderr.slice(-2000));
      const first = mock.requests.find((r) => r.kind !== 'compaction');
      assert.ok(first, 'B sent a request');
      const restore = developerTexts(first.body).find((text) => RESTORE_HEAD.test(text));
      assert.ok(restore, "B's first request carries shim's restore");
      assert.match(restore, /on laptop-a, [^,]+ ago, through shim's team store/, 'naming A');
      assert.match(restore, /stage the QUOKKA-7 export/);
      assert.match(restore, /## Where you were/);
      assert.ok(restore.includes(`\`\`\`sh\n${SLOW}\n\`\`\``), 'the command in flight, verbatim');
      assert.match(
        restore,
        /This checkpoint \([^)]+\) was taken while a command ran there \(under Where you were\)/,
      );
      assert.match(restore, /`echo staged-QUOKKA-7` → exit 0/, 'the command before it');
      assert.match(restore, /`ls no-such-QUOKKA-dir`/, 'the failed command');
      assert.match(restore, /No such file or directory/, "the failure's output");
      assert.ok(!restore.includes(a.project), "A's absolute path stays on A");
    });
  },
);
