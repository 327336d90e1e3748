/**
 * The team store with the real Claude Code CLI (pinned) on two machines, simulated: two HOMEs
 * and SHIM_HOMEs, two clones of one repository at different paths (the same origin remote), one
 * real PostgreSQL server. A session on A makes tasks, writes a file, takes a follow-up request
 * and is killed -9 mid-command, the server stopped meanwhile; once it is back A's waiting worker
 * replicates it all, no command typed. B, which only knows the server's URL
 * (nothing pulled before), prints A's work with `shim resume --print`, and its FIRST session
 * starts with A's requests, open tasks and files in its first request to the mock (pulled at
 * that session's start), naming A, and where A was: the interrupted command (shared by A's
 * command watch while it ran), the one before it and the newest failure, verbatim.
 *
 *   node scripts/build.mjs && node scripts/test.mjs test/e2e/team-two-machines
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DatabaseSync } from '@photostructure/sqlite';
import { BIN } from '../helpers/cli.ts';
import { findPostgresBin, startPostgres, type PostgresServer } from '../helpers/postgres.ts';
import { commandOf, processesUnder } from '../helpers/processes.ts';
import {
  claudeInstallProblem,
  createScratch,
  describeRun,
  E2E_SKIP,
  installShimHooks,
  pollUntil,
  readJsonl,
  runClaude,
  spawnClaude,
  waitForBackgroundWork,
  type Scratch,
} from './claude.ts';
import { startMockApi, type MockApi, type RecordedRequest } from './mock-api.ts';

const skip =
  E2E_SKIP ||
  claudeInstallProblem() ||
  (findPostgresBin() === null
    ? 'no PostgreSQL server binaries (apt-get install postgresql)'
    : '') ||
  false;

const REMOTE = 'https://github.com/acme/importer.git';
const FIRST_REQUEST = 'Build the WOMBAT-9 importer and keep the CSV header check strict.';
const FOLLOW_UP = 'Also stream the rows of the PLATYPUS-3 export instead of loading them all.';
const TOOLS = ['--tools', 'Bash,Read,Write,TaskCreate,TaskUpdate'];

type Machine = { name: string; scratch: Scratch; shimHome: string; env: Record<string, string> };

function machine(name: string, prefix: string): Machine {
  const scratch = createScratch(prefix);
  const git = spawnSync('git', ['-C', scratch.project, 'remote', 'add', 'origin', REMOTE]);
  assert.equal(git.status, 0, String(git.stderr));
  installShimHooks(scratch);
  // Writes its shell's pid first: the test kills A once the command runs (its hook has run).
  writeFileSync(join(scratch.project, 'slow.sh'), 'echo $$ > slow.pid\nexec sleep 60\n');
  const shimHome = join(scratch.home, '.shim');
  return { name, scratch, shimHome, env: { SHIM_HOME: shimHome, SHIM_MACHINE: name } };
}

function shim(m: Machine, args: string[]) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: m.scratch.project,
    encoding: 'utf8',
    env: { ...process.env, HOME: m.scratch.home, ...m.env },
    timeout: 120_000,
  });
  assert.equal(result.status, 0, `shim ${args.join(' ')} on ${m.name}: ${result.stderr}`);
  return result.stdout;
}

/** One value from a machine's own SQLite store (read-only). */
function localQuery<T>(m: Machine, sql: string): T {
  const db = new DatabaseSync(join(m.shimHome, 'shim.db'), { readOnly: true, timeout: 5000 });
  try {
    return db.prepare(sql).get() as T;
  } finally {
    db.close();
  }
}

const bash = (command: string) => ({
  content: [{ type: 'tool_use' as const, name: 'Bash', input: { command } }],
});
const taskCreate = (subject: string) => ({
  content: [
    {
      type: 'tool_use' as const,
      name: 'TaskCreate',
      input: { subject, description: `${subject} (details)`, activeForm: subject },
    },
  ],
});
const write = (file: string, content: string) => ({
  content: [{ type: 'tool_use' as const, name: 'Write', input: { file_path: file, content } }],
});

function textOf(request: RecordedRequest): string {
  return JSON.stringify(request.body?.messages ?? []) + JSON.stringify(request.body?.system ?? '');
}

/**
 * shim's background work on a machine (checkpoints, the team worker), not the session's command
 * watch: what must be over before the killed command starts, so that no checkpoint A took for an
 * earlier call happens to read the transcript after that command began.
 */
function backgroundShimWork(m: Machine): number[] {
  return processesUnder(m.shimHome).filter((pid) => {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      // The team worker is not a checkpoint: with the server down one of them waits for it.
      return (
        argv.includes('shim.cjs') && !argv.includes('command-watch') && !argv.includes('--drain')
      );
    } catch {
      return false;
    }
  });
}

function firstModelRequest(mock: MockApi): RecordedRequest {
  const first = mock.requests.find((r) => r.kind === 'step' || r.kind === 'final');
  assert.ok(first, 'the run sent a request to the model');
  return first;
}

let server: PostgresServer;
let url: string;

describe('the team store with the real Claude Code CLI on two machines', { skip }, () => {
  before(async () => {
    server = await startPostgres();
    url = server.url(await server.createDatabase());
  });
  after(() => server?.dispose());

  test("a session killed on A: B's first request carries A's requests, open tasks and files, naming A", async (t) => {
    const a = machine('laptop-a', 'shim-e2e-team-a-');
    const b = machine('desk-b', 'shim-e2e-team-b-');
    const mock = await startMockApi({
      steps: [
        taskCreate('Check the CSV header strictly'),
        write(join(a.scratch.project, 'src', 'importer.ts'), 'export const strict = true;\n'),
      ],
      final: { content: [{ type: 'text', text: 'Importer started.' }] },
    });
    t.after(async () => {
      await mock.close();
      a.scratch.cleanup();
      b.scratch.cleanup();
    });
    assert.notEqual(a.scratch.project, b.scratch.project, 'two clones at different paths');
    // A's waiting worker retries every 1.5 s, not from 30 s up: the server comes back below.
    a.env.SHIM_TEAM_RETRY_MS = '1500';
    assert.match(shim(a, ['team', 'connect', url]), /connected to the team store/);

    // A: the first request, a task and a file; then a follow-up killed -9 mid-command.
    const first = await runClaude({
      scratch: a.scratch,
      mock,
      prompt: FIRST_REQUEST,
      args: TOOLS,
      env: a.env,
    });
    assert.equal(first.exitCode, 0, describeRun(first));
    // How long each step took: this case takes ~15 s alone, but twice ~2 minutes (passing) in
    // whole-suite runs; told once B's session is done when it was slow, to see where time went.
    let held = 'never';
    const steps: [string, number][] = [['start', Date.now()]];
    const step = (name: string) => steps.push([name, Date.now()]);
    const tellSlowSteps = () => {
      if (Date.now() - steps[0]![1] < 60_000) return;
      t.diagnostic(
        steps
          .slice(1)
          .map(([name, at], i) => `${name} ${((at - steps[i]![1]) / 1000).toFixed(1)} s`)
          .join(', ') +
          `; sh slow.sh held for A's background work: ${held}; still running under A every 10 s: ${stayed}`,
      );
      const log = join(a.shimHome, 'logs', 'shim.log');
      t.diagnostic(`A's log: ${existsSync(log) ? readFileSync(log, 'utf8').slice(-4000) : 'none'}`);
    };
    // The server stops mid-session: the follow-up's checkpoints wait on A, one worker waits for
    // the server (retrying every 1.5 s here), and nobody types a command when it is back.
    server.stop();
    mock.reset({
      steps: [
        taskCreate('Stream the PLATYPUS-3 export rows'),
        bash('ls no-such-PLATYPUS-dir'),
        bash('echo streamed-PLATYPUS-3'),
        {
          ...bash('sh slow.sh'),
          // The earlier calls' background checkpoints end first: only what shares a command still
          // running (A's command watch) can bring `sh slow.sh` to the server.
          holdUntil: async () => {
            const since = Date.now();
            try {
              await pollUntil(() => backgroundShimWork(a).length === 0, 60_000, 50);
            } finally {
              held = `${Date.now() - since} ms, then ${backgroundShimWork(a).map(commandOf).join('; ') || 'nothing'} left`;
            }
          },
        },
      ],
      final: { content: [{ type: 'text', text: 'never reached' }] },
    });
    const killed = spawnClaude({
      scratch: a.scratch,
      mock,
      prompt: FOLLOW_UP,
      args: [...TOOLS, '--continue'],
      env: a.env,
    });
    const slowPid = join(a.scratch.project, 'slow.pid');
    await pollUntil(
      () =>
        killed.transcriptPath &&
        existsSync(killed.transcriptPath) &&
        readJsonl(killed.transcriptPath).some((e) => JSON.stringify(e).includes('sh slow.sh')) &&
        existsSync(slowPid) &&
        readFileSync(slowPid, 'utf8').trim() !== '',
      60_000,
    );
    const memory = join(a.shimHome, 'cache', 'hooks', `${killed.sessionId}.json`);
    await pollUntil(
      () =>
        existsSync(memory) &&
        (JSON.parse(readFileSync(memory, 'utf8')) as { agentPid?: number | null }).agentPid,
      15_000,
    );
    step('A running sh slow.sh');
    killed.kill('SIGKILL');
    await killed.result;
    try {
      process.kill(Number(readFileSync(slowPid, 'utf8').trim()), 'SIGKILL');
    } catch {
      // Gone with the CLI.
    }

    // The server back: A's waiting worker sends everything and leaves, no command typed; its
    // outbox drains and the server holds every one of A's checkpoints.
    const queued = localQuery<{ n: number }>(
      a,
      "SELECT count(*) AS n FROM sync_outbox WHERE tracker = 'team' AND status != 'delivered'",
    ).n;
    assert.ok(queued > 0, 'rows waited on A while the server was down');
    server.start();
    step('A killed');
    let stayed = 'nothing';
    const look = setInterval(() => {
      stayed = processesUnder(a.scratch.root).map(commandOf).join('; ') || 'nothing';
      // What the worker waits for: each waiting row's retry time and claim.
      const rows = localQuery<{ rows: string | null }>(
        a,
        `SELECT json_group_array(json_array(id, attempts, next_attempt_at, lease_owner, lease_until)) AS rows
         FROM sync_outbox WHERE tracker = 'team' AND status = 'pending'`,
      ).rows;
      stayed += ` at ${new Date().toISOString()}; A's waiting team rows [id, attempts, retry, claimed by, until]: ${rows}`;
    }, 10_000);
    await waitForBackgroundWork(a.scratch).finally(() => clearInterval(look));
    step("A's background work done");
    const local = localQuery<{ n: number }>(a, 'SELECT count(*) AS n FROM checkpoints').n;
    assert.ok(local > 0, 'A took checkpoints');
    const waiting = localQuery<{ n: number }>(
      a,
      "SELECT count(*) AS n FROM sync_outbox WHERE tracker = 'team' AND status != 'delivered'",
    ).n;
    assert.equal(waiting, 0, 'A drained its team outbox');
    const remote = await server.sql(
      url.split('/').pop()!.split('?')[0]!,
      "SELECT count(*)::int AS n, min(machine) AS machine FROM shim_checkpoints WHERE machine = 'laptop-a'",
    );
    assert.equal(remote.rows[0].n, local, "every one of A's checkpoints is on the server");

    // B: a fresh SHIM_HOME and clone that only know the server's URL — no `team connect`, no
    // worker, nothing pulled. `shim resume --print` asks the server itself and prints A's work
    // (taking nothing); then B's FIRST session pulls at its start (the budget raised: this
    // machine is loaded; npm run bench measures it against 1.5 s) and starts from A's work.
    mkdirSync(b.shimHome, { recursive: true });
    writeFileSync(join(b.shimHome, 'config.json'), `${JSON.stringify({ team: { url } })}\n`);
    b.env.SHIM_TEAM_PULL_BUDGET_MS = '60000';
    const printed = shim(b, ['resume', '--print']);
    step('resume --print on B');
    for (const needle of [FIRST_REQUEST, FOLLOW_UP, 'laptop-a'])
      assert.ok(printed.includes(needle), `resume --print on B names ${needle}`);
    assert.ok(!printed.includes(a.scratch.project), "A's absolute path stays on A");

    mock.reset({ steps: [], final: { content: [{ type: 'text', text: 'Carrying on on B.' }] } });
    const onB = await runClaude({
      scratch: b.scratch,
      mock,
      prompt: 'continue',
      args: TOOLS,
      env: b.env,
    });
    assert.equal(onB.exitCode, 0, describeRun(onB));
    step("B's session");
    tellSlowSteps();
    const restored = textOf(firstModelRequest(mock));
    const user = localQuery<{ os_user: string }>(b, 'SELECT os_user FROM team_work').os_user;
    const naming = new RegExp(
      `This work comes from ${user} on laptop-a, [^,]+ ago, through shim's team store`,
    );
    t.diagnostic(naming.exec(restored)?.[0] ?? 'A is not named');
    assert.match(
      restored,
      new RegExp(`This work comes from ${user} on laptop-a, [^,]+ ago, through shim's team store`),
      'the restore names A',
    );
    for (const needle of [
      FIRST_REQUEST,
      FOLLOW_UP,
      'Check the CSV header strictly',
      'Stream the PLATYPUS-3 export rows',
      'src/importer.ts',
    ])
      assert.ok(restored.includes(needle), `the restore on B names ${needle}`);
    assert.ok(!restored.includes(a.scratch.project), "A's absolute path stays on A");
    // Where it was on A (issue 40): the interrupted command, the one before it, the newest failure.
    assert.ok(restored.includes('## Where you were'), 'the restore on B says where A was');
    // The call in flight at the kill (`sh slow.sh`): A's command watch checkpointed it a second
    // after it started and A's worker sent that checkpoint (docs/team.md), so B shows it, and says
    // that what ran on A after that checkpoint is unknown.
    if (!restored.includes('```sh\\nsh slow.sh\\n```')) {
      // What B restored and what the server holds of A, to tell which checkpoint B got and why.
      const rows = await server.sql(
        url.split('/').pop()!.split('?')[0]!,
        `SELECT id, at, checkpoint_number AS n, body->>'triggeredBy' AS trigger,
           body->'toolState'->'pendingOperations' AS pending
         FROM shim_checkpoints WHERE machine = 'laptop-a' ORDER BY at, checkpoint_number`,
      );
      t.diagnostic(`A's checkpoints on the server: ${JSON.stringify(rows.rows)}`);
      t.diagnostic(`B's first request: ${restored.slice(0, 6000)}`);
      t.diagnostic(readFileSync(join(a.shimHome, 'logs', 'shim.log'), 'utf8').slice(-6000));
    }
    assert.ok(
      restored.includes('```sh\\nsh slow.sh\\n```'),
      'the command in flight on A when it was killed reaches B verbatim',
    );
    assert.match(
      restored,
      /This checkpoint \([^)]+\) was taken while a command ran there \(under Where you were\); what ran after it is not in the team store/,
      "the restore on B says A's last moments after its checkpoint are unknown",
    );
    for (const needle of [
      '`echo streamed-PLATYPUS-3` → exit 0',
      '`ls no-such-PLATYPUS-dir`',
      'No such file or directory',
    ])
      assert.ok(restored.includes(needle), `where A was names ${needle}`);
  });
});
