/**
 * `shim list`, `shim show` and `shim search` without `--team` see the team's work when a team
 * store is connected: machine B's list holds its own checkpoint and A's (replicated to the
 * server), each saying where it comes from; `show` of A's checkpoint on B prints its restore with
 * B's paths, naming A, never A's clone; search finds A's words there, marked as the team's, placed
 * among B's own by each side's rank; with the server stopped, list still prints B's own rows and says in
 * one line that the team store was not read. Without a team store nothing changes. The real
 * binary, a real PostgreSQL server.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createCommandStore } from '../../src/app/open-command-store.ts';
import { openTeamRepository } from '../../src/app/team/open-team-store.ts';
import { replicateToTeam } from '../../src/app/team/replicate.ts';
import { runShim } from '../helpers/cli.ts';
import { startPostgres, type PostgresServer } from '../helpers/postgres.ts';
import { openTempStore, type TempStore } from '../helpers/store.ts';
import { draftIn, makeClone } from './team-fixture.ts';

let server: PostgresServer;
let url: string;
let a: TempStore;
let b: TempStore;
let cloneA: string;
let cloneB: string;
const ids = { a: '', b: '' };
const sessions = { a: '', b: '' };
const A_REQUEST = 'Split the billing worker into a queue consumer and a scheduler for the ledger';
const B_REQUEST = 'Tidy the wombatfile of the importer before the ledger';

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

before(async () => {
  server = await startPostgres();
  url = server.url(await server.createDatabase());
  const repository = await openTeamRepository({ url, migrate: true });
  a = openTempStore();
  b = openTempStore();
  cloneA = makeClone('billing');
  cloneB = makeClone('billing-copy');
  for (const [store, clone, request, m, key] of [
    [a, cloneA, A_REQUEST, 20, 'a'],
    [b, cloneB, B_REQUEST, 40, 'b'],
  ] as const) {
    const sessionId = randomUUID();
    sessions[key] = sessionId;
    store.sessions.touch({ agent: 'claude', sessionId, cwd: clone }, minutesAgo(m));
    const draft = draftIn(clone, sessionId, minutesAgo(m));
    draft.conversationState = { ...draft.conversationState, userRequests: [request] };
    ids[key] = store.checkpoints.save(draft).checkpoint.id;
  }
  try {
    await replicateToTeam({
      store: createCommandStore(a.db),
      home: a.home,
      repository,
      writer: { machine: 'laptop-a', osUser: 'ada' },
    });
  } finally {
    await repository.close();
  }
  writeFileSync(join(b.home, 'config.json'), `${JSON.stringify({ team: { url } })}\n`);
});
after(() => {
  a?.dispose();
  b?.dispose();
  server?.dispose();
});

const onB = (args: string[]) =>
  runShim(b.home, args, { cwd: cloneB, env: { SHIM_MACHINE: 'desk-b' } });

test("list on B holds its own checkpoint and A's, each saying where it comes from", () => {
  const text = onB(['list']);
  assert.equal(text.status, 0, text.stderr);
  const lines = text.stdout.split('\n');
  const mine = lines.find((l) => l.includes(ids.b.slice(0, 8)));
  const theirs = lines.find((l) => l.includes(ids.a.slice(0, 8)));
  assert.match(mine ?? '', /^\s*here\b/, text.stdout);
  assert.match(theirs ?? '', /^\s*ada@laptop-a\b/, text.stdout);
  assert.ok(lines.indexOf(theirs!) < lines.indexOf(mine!), 'newest first');
  assert.ok(!text.stdout.includes(cloneA), "A's clone is not named on B");

  const json = onB(['list', '--json']);
  assert.equal(json.status, 0, json.stderr);
  const rows = JSON.parse(json.stdout) as Array<{ id: string; from: unknown; cwd: string | null }>;
  assert.deepEqual(
    rows.map((r) => [r.id, r.from]),
    [
      [ids.a, { osUser: 'ada', machine: 'laptop-a' }],
      [ids.b, null],
    ],
  );
  assert.equal(rows[0]!.cwd, cloneB, "A's row carries B's clone as its place");
});

test("list --session on B of A's session lists its checkpoints from the team store; of B's own, B's", () => {
  const of = (sessionId: string) => {
    const run = onB(['list', '--session', sessionId, '--json']);
    assert.equal(run.status, 0, run.stderr);
    return (JSON.parse(run.stdout) as Array<{ id: string; from: unknown }>).map((r) => [
      r.id,
      r.from,
    ]);
  };
  assert.deepEqual(of(sessions.a), [[ids.a, { osUser: 'ada', machine: 'laptop-a' }]]);
  assert.deepEqual(of(sessions.b), [[ids.b, null]]);
  const text = onB(['list', '--session', sessions.a]);
  assert.match(text.stdout, /^\s*ada@laptop-a\b/m, text.stdout);
});

test("show on B of A's checkpoint prints its restore in B's clone, naming A", () => {
  const shown = onB(['show', ids.a.slice(0, 8)]);
  assert.equal(shown.status, 0, shown.stderr);
  assert.match(shown.stdout, new RegExp(A_REQUEST));
  assert.match(shown.stdout, /ada on laptop-a/);
  assert.match(shown.stderr, /of ada on laptop-a \(team store\)/);
  assert.ok(!shown.stdout.includes(cloneA), "A's clone is not named on B");
  const missing = onB(['show', 'ffffffff']);
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /here or in the team store/);
});

test("search on B finds A's words in the team store and B's own here, each saying whose", () => {
  const found = onB(['search', 'billing']);
  assert.equal(found.status, 0, found.stderr);
  const line = found.stdout.split('\n').find((l) => l.includes(ids.a.slice(0, 8)));
  assert.match(line ?? '', /ada@laptop-a .*team store/, found.stdout);
  assert.ok(!found.stdout.includes(cloneA), "A's clone is not named on B");
  const own = onB(['search', 'wombatfile', '--json']);
  assert.equal(own.status, 0, own.stderr);
  const result = JSON.parse(own.stdout) as {
    hits: Array<{ checkpointId: string }>;
    team: { rows: unknown[]; error: string | null };
  };
  assert.deepEqual(
    result.hits.map((h) => h.checkpointId),
    [ids.b],
  );
  assert.deepEqual(result.team, { rows: [], error: null }, 'B does not find itself twice');
});

test("search on B places A's hits among B's own by each side's rank, not after them", () => {
  // Both have "ledger", one hit each: each first of its side, so the newer (A's, 20 minutes
  // ago, against B's 40) leads — before, the team's hits always came after this machine's.
  const json = onB(['search', 'ledger', '--json']);
  assert.equal(json.status, 0, json.stderr);
  const result = JSON.parse(json.stdout) as {
    hits: Array<{ checkpointId: string }>;
    team: { rows: Array<{ checkpointId: string }> };
    ranked: Array<{ checkpointId: string; from: unknown }>;
  };
  assert.deepEqual(
    result.hits.map((h) => h.checkpointId),
    [ids.b],
  );
  assert.deepEqual(
    result.team.rows.map((h) => h.checkpointId),
    [ids.a],
  );
  assert.deepEqual(result.ranked, [
    { checkpointId: ids.a, from: { osUser: 'ada', machine: 'laptop-a' } },
    { checkpointId: ids.b, from: null },
  ]);
  const text = onB(['search', 'ledger']);
  assert.equal(text.status, 0, text.stderr);
  const lines = text.stdout.split('\n');
  const theirs = lines.findIndex((l) => l.includes(ids.a.slice(0, 8)));
  const mine = lines.findIndex((l) => l.includes(ids.b.slice(0, 8)));
  assert.ok(theirs >= 0 && mine > theirs, text.stdout);
});

test('without a team store, list and show are this machine alone', () => {
  const c = openTempStore();
  try {
    const alone = runShim(c.home, ['list'], { cwd: cloneB });
    assert.equal(alone.status, 0, alone.stderr);
    assert.doesNotMatch(alone.stdout, /laptop-a|\bfrom\b/);
    const show = runShim(c.home, ['show', ids.a.slice(0, 8)], { cwd: cloneB });
    assert.equal(show.status, 1);
    assert.doesNotMatch(show.stderr, /team store/);
  } finally {
    c.dispose();
  }
});

test('with the server stopped, list prints B alone and says the team store was not read', () => {
  server.stop();
  try {
    const text = onB(['list']);
    assert.equal(text.status, 0, text.stderr);
    assert.ok(text.stdout.includes(ids.b.slice(0, 8)));
    assert.ok(!text.stdout.includes(ids.a.slice(0, 8)));
    assert.match(text.stderr, /team store not read/);
  } finally {
    server.start();
  }
});
