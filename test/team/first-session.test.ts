/**
 * The first session on machine B starts from A's work: B's very first SessionStart in a fresh
 * clone — no worker ever ran there, nothing pulled before — asks the team store itself (a child
 * `shim team pull`, waited for within the budget) and injects A's unfinished work. A pull past its
 * budget starts the session without it, says so once, and leaves the work for the next session.
 * The real hook binary, a real PostgreSQL server.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { createCommandStore } from '../../src/app/open-command-store.ts';
import { openStore } from '../../src/app/open-store.ts';
import { openTeamRepository } from '../../src/app/team/open-team-store.ts';
import { replicateToTeam } from '../../src/app/team/replicate.ts';
import { signalQuietly } from '../../src/capture/process-tree.ts';
import { BIN, runShim } from '../helpers/cli.ts';
import { makeTempDir } from '../helpers/fixtures.ts';
import { startPostgres, type PostgresServer } from '../helpers/postgres.ts';
import { processesUnder, waitForProcessesUnder } from '../helpers/processes.ts';
import { openTempStore } from '../helpers/store.ts';
import { draftIn, makeClone } from './team-fixture.ts';

let server: PostgresServer;
let url: string;
const homes: string[] = [];
before(async () => {
  server = await startPostgres();
  url = server.url(await server.createDatabase());
  // A's session, killed with work open, already on the server.
  const repository = await openTeamRepository({ url, migrate: true });
  const a = openTempStore();
  try {
    const clone = makeClone('app');
    const sessionId = randomUUID();
    const at = new Date(Date.now() - 10 * 60_000).toISOString();
    a.sessions.touch({ agent: 'claude', sessionId, cwd: clone }, at);
    const draft = draftIn(clone, sessionId, at);
    draft.conversationState = {
      ...draft.conversationState,
      userRequests: ['Move the invoice export to the queue worker; keep the retry budget'],
    };
    a.checkpoints.save(draft);
    await replicateToTeam({
      store: createCommandStore(a.db),
      home: a.home,
      repository,
      writer: { machine: 'laptop-a', osUser: 'ada' },
    });
  } finally {
    a.dispose();
    await repository.close();
  }
});
after(async () => {
  for (const home of homes) for (const pid of processesUnder(home)) signalQuietly(pid, 'SIGKILL');
  await server?.dispose();
});

/**
 * A fresh SHIM_HOME on machine B, connected to the team store, and a fresh clone. The pull's
 * budget is a minute unless a test sets it: what is checked here is what arrives, not how fast
 * on a busy machine (npm run bench measures the pull against its 1.5 s).
 */
function machineB(env: Record<string, string> = { SHIM_TEAM_PULL_BUDGET_MS: '60000' }) {
  const dir = makeTempDir('shim-first-session-');
  const home = join(dir, 'shim');
  mkdirSync(home, { recursive: true });
  homes.push(home);
  writeFileSync(join(home, 'config.json'), `${JSON.stringify({ team: { url } })}\n`);
  const clone = makeClone('work-copy');
  const transcript = join(dir, 'session.jsonl');
  writeFileSync(transcript, '');
  const start = () => {
    const r = spawnSync(process.execPath, [BIN, 'hook', 'SessionStart'], {
      input: JSON.stringify({
        session_id: randomUUID(),
        transcript_path: transcript,
        cwd: clone,
        hook_event_name: 'SessionStart',
        source: 'startup',
      }),
      encoding: 'utf8',
      cwd: clone,
      env: {
        ...process.env,
        SHIM_HOME: home,
        SHIM_MACHINE: 'desk-b',
        CLAUDE_CONFIG_DIR: join(home, 'no-claude'),
        ...env,
      },
    });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout || '{}') as {
      systemMessage?: string;
      hookSpecificOutput?: { additionalContext?: string };
    };
    return {
      context: out.hookSpecificOutput?.additionalContext ?? '',
      told: out.systemMessage ?? '',
    };
  };
  const shim = (...args: string[]) =>
    runShim(home, args, { cwd: clone, env: { SHIM_MACHINE: 'desk-b', ...env } });
  return { home, start, shim };
}

describe('the first session on another machine', () => {
  test("B's first SessionStart in a fresh clone injects A's unfinished work", async () => {
    const b = machineB();
    const first = b.start();
    assert.match(first.context, /Move the invoice export to the queue worker/);
    assert.match(first.context, /ada on laptop-a/);
    assert.match(first.told, /restored checkpoint #\d+ from ada on laptop-a/);
    assert.doesNotMatch(first.told, /did not answer/);
    await waitForProcessesUnder(b.home);
  });

  test("shim resume --print on B before any session there prints A's work; the session still gets it", async () => {
    const b = machineB();
    const printed = b.shim('resume', '--print');
    assert.equal(printed.status, 0, printed.stderr);
    assert.match(printed.stdout, /Move the invoice export to the queue worker/);
    assert.match(printed.stdout, /ada on laptop-a/);
    const json = b.shim('resume', '--json');
    assert.equal(json.status, 0, json.stderr);
    assert.deepEqual(
      (JSON.parse(json.stdout) as { detection: { from?: unknown } }).detection.from,
      {
        osUser: 'ada',
        machine: 'laptop-a',
      },
    );
    const first = b.start();
    assert.match(
      first.context,
      /Move the invoice export to the queue worker/,
      '--print took nothing',
    );
    await waitForProcessesUnder(b.home);
  });

  test("shim handoff on B before any session there hands on A's work, naming it", async () => {
    const b = machineB();
    const said = b.shim('handoff');
    assert.equal(said.status, 0, said.stderr);
    assert.match(said.stdout, /ada's on laptop-a \(team store\)/);
    // Kept here: the document again, from this machine's copy.
    const printed = b.shim('handoff', '--print');
    assert.equal(printed.status, 0, printed.stderr);
    assert.match(printed.stdout, /Move the invoice export to the queue worker/);
    // The next session here starts from that handoff: A's work, once.
    const first = b.start();
    assert.match(first.context, /Move the invoice export to the queue worker/);
    await waitForProcessesUnder(b.home);
  });

  test('the child a session start runs (shim team pull --quiet) pulls from its own bundle; unconnected it exits 1 and logs why', async () => {
    const b = machineB();
    const pulled = b.shim('team', 'pull', '--quiet');
    assert.equal(pulled.status, 0, pulled.stderr);
    assert.equal(pulled.stdout, '');
    const store = openStore(b.home);
    try {
      const work = store.teamWork.list();
      assert.equal(work.length, 1);
      assert.deepEqual(work[0]!.checkpoint.conversationState.userRequests, [
        'Move the invoice export to the queue worker; keep the retry budget',
      ]);
    } finally {
      store.close();
    }
    // Its own bundle, through the launcher's code cache: not the ES-module CLI.
    assert.ok(
      readdirSync(join(b.home, 'cache', 'v8')).some((f) => f.startsWith('team-pull.cjs-')),
      'dist/team-pull.cjs ran',
    );
    const lone = makeTempDir('shim-first-session-lone-');
    const unconnected = runShim(lone, ['team', 'pull', '--quiet'], { cwd: lone });
    assert.equal(unconnected.status, 1);
    assert.match(
      readFileSync(join(lone, 'logs', 'shim.log'), 'utf8'),
      /team pull: no team store connected/,
    );
  });

  // pg's probe for Cloudflare Workers builds a fetch Response as pg loads, which loads Node 20's
  // undici (~16 ms of CPU); the bundles carry pg without it (scripts/build.mjs, docs/team.md).
  test('the pull, the team commands and the processes they start load pg without undici (fetch)', async () => {
    const records = makeTempDir('shim-undici-records-');
    const probe = join(records, 'probe.cjs');
    writeFileSync(
      probe,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(records)} + '/' + process.pid + '.json', JSON.stringify({ argv: process.argv.slice(2), loaded: process.moduleLoadList })));\n`,
    );
    const b = machineB({ SHIM_TEAM_PULL_BUDGET_MS: '60000', NODE_OPTIONS: `--require ${probe}` });
    // A first session: its pull (dist/team-pull.cjs) brings A's work, so pg ran.
    assert.match(b.start().context, /Move the invoice export to the queue worker/);
    // A team command (dist/commands.cjs, pg from dist/pg.cjs), which pulls too.
    const pulled = b.shim('team', 'pull');
    assert.equal(pulled.status, 0, pulled.stderr);
    assert.match(pulled.stdout, /team store: pulled \d+ unfinished/);
    await waitForProcessesUnder(b.home);
    // What the check sees of a process that touches fetch.
    const control = spawnSync(process.execPath, ['--require', probe, '-e', 'new Response(null)']);
    assert.equal(control.status, 0);
    const seen = readdirSync(records)
      .filter((f) => f.endsWith('.json'))
      .map(
        (f) =>
          JSON.parse(readFileSync(join(records, f), 'utf8')) as {
            argv: string[];
            loaded: string[];
          },
      );
    const withUndici = (argv: string) =>
      seen
        .filter((r) => r.argv.join(' ') === argv)
        .map((r) => r.loaded.some((m) => m.includes('undici')));
    // The control: `node -e` has no argv of its own.
    assert.deepEqual(withUndici(''), [true], 'the check sees undici');
    assert.deepEqual(withUndici('team pull --quiet'), [false], 'the session start’s pull');
    // The replication worker the session start started, and the command.
    assert.deepEqual(withUndici('sync --drain'), [false], 'the worker');
    assert.deepEqual(withUndici('team pull'), [false], 'shim team pull');
    for (const record of seen.filter((r) => r.argv.length > 0))
      assert.ok(!record.loaded.some((m) => m.includes('undici')), record.argv.join(' '));
  });

  test('a pull past its budget: the session starts without it, told once; the next one gets it', async () => {
    const b = machineB({ SHIM_TEAM_PULL_BUDGET_MS: '1' });
    // The server holds the pull until the session has started (a lock on the table it reads): a
    // pull can finish before the hook even waits for it on a quick machine, so a short budget
    // alone does not make one late (clean-clone CI after 4ec3d1b).
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    let first: ReturnType<typeof b.start>;
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE shim_checkpoints IN ACCESS EXCLUSIVE MODE');
      first = b.start();
      await holder.query('COMMIT');
    } finally {
      await holder.end();
    }
    assert.match(first.told, /did not answer within/);
    assert.doesNotMatch(first.context, /invoice export/);
    // The late pull goes on alone and fills the local copy.
    await waitForProcessesUnder(b.home);
    const second = b.start();
    assert.doesNotMatch(second.told, /did not answer/, 'said once');
    assert.match(second.context, /Move the invoice export to the queue worker/);
    await waitForProcessesUnder(b.home);
  });
});
