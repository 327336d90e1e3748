/**
 * A team at scale on a real PostgreSQL (`npm run bench -- --team-scale`, docs/team.md): 200
 * machines × 1,000 checkpoints (200k rows, whole checkpoint bodies as the worker sends them) in
 * 10 projects, written by 16 concurrent writers in the worker's batches of 200, one batch in ten
 * sent twice (a worker killed after its commit sends it again); then rows lost and duplicated, the
 * server's disk per checkpoint, the resume lookup (the newest unfinished work of a project, what
 * the pull asks) and a checkpoint found by its 8-character prefix (what `shim show` asks) at that
 * size (with the server's own execution time of the lookup and the plan of the slowest, from
 * EXPLAIN ANALYZE), and the pull at session start on a fresh machine B (bench/team-pull.ts). SHIM_BENCH_SCALE
 * shrinks it (0.1: 20 machines) for a quick look. Skipped with one line where no server starts.
 */
import { randomUUID } from 'node:crypto';
import { openTeamRepository } from '../src/app/team/open-team-store.ts';
import { identifyProject } from '../src/capture/project-remote.ts';
import type { Checkpoint } from '../src/core/checkpoint/checkpoint.ts';
import { openPool } from '../src/store/postgres/team-pool.ts';
import { NEWEST_UNFINISHED_SQL } from '../src/store/postgres/team-pull-queries.ts';
import type { TeamRepository, TeamRow } from '../src/store/ports/team-repository.ts';
import { startPostgres } from '../test/helpers/postgres.ts';
import { openTempStore } from '../test/helpers/store.ts';
import { draftIn, makeClone } from '../test/team/team-fixture.ts';
import { measurePullAtStart } from './team-pull.ts';

type Report = (name: string, value: string, note?: string) => void;

const SCALE = Number(process.env.SHIM_BENCH_SCALE) > 0 ? Number(process.env.SHIM_BENCH_SCALE) : 1;
const MACHINES = Math.max(16, Math.round(200 * SCALE));
const CHECKPOINTS_PER_MACHINE = 1_000;
const SESSIONS_PER_MACHINE = 10;
const PROJECTS = 10;
const WRITERS = 16;
const BATCH = 200;
const LOOKUPS = 200;
const PULL_RUNS = 10;
const WORK = 'Carry on with the ledger migration';

type PlanNode = {
  'Node Type': string;
  'Index Name'?: string;
  'Actual Total Time': number;
  'Actual Loops': number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
};

/** A plan in one line: each node, its index, its time and the blocks it read from disk. */
function describePlan(node: PlanNode): string {
  const read = node['Shared Read Blocks'] ? `, ${node['Shared Read Blocks']} read` : '';
  const self = `${node['Node Type']}${node['Index Name'] ? ` on ${node['Index Name']}` : ''} (${node['Actual Total Time'].toFixed(2)} ms × ${node['Actual Loops']}${read})`;
  const inner = (node.Plans ?? []).map(describePlan);
  return inner.length > 0 ? `${self} ← [${inner.join('; ')}]` : self;
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN;
const ms = (x: number) => `${x.toFixed(1)} ms`;

/** One machine's rows: its sessions, then their checkpoints, oldest first, over the last 6 days. */
function machineRows(
  machine: number,
  template: { checkpoint: Checkpoint; session: Record<string, unknown> },
  project: { id: string; root: string },
  now: number,
): TeamRow[] {
  const origin = {
    projectId: project.id,
    projectPath: '',
    machine: `machine-${machine}`,
    osUser: `dev-${machine}`,
  };
  const rows: TeamRow[] = [];
  const perSession = CHECKPOINTS_PER_MACHINE / SESSIONS_PER_MACHINE;
  // The machines' checkpoints interleaved in time over the last 6 days, each at its own moment.
  const step = (6 * 86_400_000) / ((CHECKPOINTS_PER_MACHINE + 1) * MACHINES);
  const atOf = (session: number, n: number) =>
    new Date(
      now -
        (CHECKPOINTS_PER_MACHINE + 1) * MACHINES * step +
        ((session * perSession + n) * MACHINES + machine) * step,
    );
  for (let s = 0; s < SESSIONS_PER_MACHINE; s++) {
    const sessionId = randomUUID();
    const startedAt = new Date(atOf(s, 1).getTime() - 1000).toISOString();
    rows.push({
      kind: 'session',
      id: sessionId,
      sessionId,
      at: startedAt,
      origin,
      body: { ...template.session, sessionId, cwd: project.root, startedAt },
    });
    for (let n = 1; n <= perSession; n++) {
      const at = atOf(s, n).toISOString();
      const id = randomUUID();
      const checkpoint: Checkpoint = {
        ...template.checkpoint,
        id,
        sessionId,
        checkpointNumber: n,
        createdAt: at,
        conversationState: {
          ...template.checkpoint.conversationState,
          userRequests: [`${WORK} step ${n} of session ${s} on machine ${machine}`],
        },
      };
      rows.push({
        kind: 'checkpoint',
        id,
        sessionId,
        at,
        origin,
        body: checkpoint as unknown as Record<string, unknown>,
      });
    }
  }
  return rows;
}

async function write(
  repository: TeamRepository,
  rows: TeamRow[],
  batchesSent: { first: number; again: number },
): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows.slice(i, i + BATCH);
    await repository.write(batch);
    batchesSent.first++;
    // A worker killed after the commit sends the same batch again: nothing may change.
    if (batchesSent.first % 10 === 0) {
      await repository.write(batch);
      batchesSent.again++;
    }
  }
}

export async function runTeamScaleBench(
  report: Report,
  results: Record<string, unknown>,
): Promise<void> {
  let server;
  try {
    server = await startPostgres();
  } catch (error) {
    report('team at scale', 'skipped', String((error as Error).message).split('\n')[0]);
    return;
  }
  const local = openTempStore();
  try {
    const database = await server.createDatabase();
    const url = server.url(database);
    await (await openTeamRepository({ url, migrate: true })).close();
    const projects = Array.from({ length: PROJECTS }, (_, p) => {
      const remote = `git@github.com:acme/ledger-${p}.git`;
      const root = makeClone(`ledger-${p}`, remote);
      return { id: identifyProject(root).id, root, remote };
    });
    // A real checkpoint and session as the local store makes them: the bodies' shape and size.
    const sessionId = randomUUID();
    local.sessions.touch(
      { agent: 'claude', sessionId, cwd: projects[0]!.root },
      new Date().toISOString(),
    );
    const template = {
      checkpoint: local.checkpoints.save(
        draftIn(projects[0]!.root, sessionId, new Date().toISOString()),
      ).checkpoint,
      session: local.sessions.get(sessionId) as unknown as Record<string, unknown>,
    };
    const now = Date.now();
    const sent = { first: 0, again: 0 };
    const started = performance.now();
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, w) => {
        const repository = await openTeamRepository({ url });
        try {
          for (let m = w; m < MACHINES; m += WRITERS)
            await write(repository, machineRows(m, template, projects[m % PROJECTS]!, now), sent);
        } finally {
          await repository.close();
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const expected = MACHINES * CHECKPOINTS_PER_MACHINE;
    await server.sql(database, 'VACUUM ANALYZE');
    const [counted] = (
      await server.sql(
        database,
        `SELECT count(*)::int AS n, count(DISTINCT id)::int AS ids,
           pg_total_relation_size('shim_checkpoints')::bigint AS table_bytes,
           pg_database_size(current_database())::bigint AS db_bytes FROM shim_checkpoints`,
      )
    ).rows as Array<{ n: number; ids: number; table_bytes: string; db_bytes: string }>;
    const lost = expected - counted!.ids;
    const duplicated = counted!.n - counted!.ids;
    report(
      'team at scale: rows written',
      `${counted!.n}`,
      `${MACHINES} machines × ${CHECKPOINTS_PER_MACHINE} checkpoints in ${PROJECTS} projects, ${WRITERS} writers, ${sent.first} batches of ≤ ${BATCH} + ${sent.again} sent twice, ${seconds.toFixed(0)} s (${(expected / seconds).toFixed(0)} rows/s)`,
    );
    report('team at scale: rows lost / duplicated', `${lost} / ${duplicated}`);
    const perCheckpoint = Number(counted!.table_bytes) / counted!.n;
    report(
      "team at scale: server's disk per checkpoint",
      `${(perCheckpoint / 1024).toFixed(1)} KB`,
      `shim_checkpoints with its indexes and TOAST; the database ${(Number(counted!.db_bytes) / 1024 ** 2).toFixed(0)} MB`,
    );

    const repository = await openTeamRepository({ url });
    const resume: number[] = [];
    const show: number[] = [];
    const ids = (
      await server.sql(
        database,
        `SELECT id FROM shim_checkpoints ORDER BY random() LIMIT ${LOOKUPS}`,
      )
    ).rows.map((r: { id: string }) => r.id);
    const since = new Date(now - 7 * 86_400_000).toISOString();
    const exclude = { machine: 'bench-desk-b', osUser: 'bench' };
    try {
      for (let i = 0; i < LOOKUPS; i++) {
        const project = projects[i % PROJECTS]!;
        let t = performance.now();
        const found = await repository.newestUnfinished([project.id], exclude, since);
        resume.push(performance.now() - t);
        if (found.length !== 1) throw new Error(`no unfinished work found in ${project.id}`);
        t = performance.now();
        const byPrefix = await repository.findCheckpoint(ids[i]!.slice(0, 8), {
          projectIds: projects.map((p) => p.id),
          limit: 10,
        });
        show.push(performance.now() - t);
        if (byPrefix.length < 1) throw new Error(`checkpoint ${ids[i]} not found by its prefix`);
      }
    } finally {
      await repository.close();
    }
    report(
      'team at scale: resume lookup p50 / p99',
      `${ms(pct(resume, 0.5))} / ${ms(pct(resume, 0.99))}`,
      `newest unfinished work of a project (what the pull asks), ${LOOKUPS} lookups; target p99 ≤ 50 ms`,
    );
    // Where a lookup's time goes: the server's own execution of the query (EXPLAIN ANALYZE), and
    // the plan of the slowest, beside the client's wall time above.
    const explained: Array<{ ms: number; plan: string }> = [];
    const pool = await openPool(url);
    try {
      for (let i = 0; i < LOOKUPS; i++) {
        const { rows } = await pool.query(
          `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${NEWEST_UNFINISHED_SQL}`,
          [[projects[i % PROJECTS]!.id], since],
        );
        const [result] = rows[0]['QUERY PLAN'] as Array<{
          'Execution Time': number;
          Plan: PlanNode;
        }>;
        explained.push({ ms: result!['Execution Time'], plan: describePlan(result!.Plan) });
      }
    } finally {
      await pool.end();
    }
    const serverMs = explained.map((e) => e.ms);
    const slowest = explained.reduce((a, b) => (b.ms > a.ms ? b : a));
    report(
      '  the server executing it (EXPLAIN ANALYZE) p50 / p99',
      `${ms(pct(serverMs, 0.5))} / ${ms(pct(serverMs, 0.99))}`,
      `slowest ${ms(slowest.ms)}: ${slowest.plan}`,
    );
    report(
      'team at scale: checkpoint by prefix p50 / p99',
      `${ms(pct(show, 0.5))} / ${ms(pct(show, 0.99))}`,
      `8 characters of an id across the ${PROJECTS} projects (shim show)`,
    );
    const pull = await measurePullAtStart({
      url,
      remote: projects[0]!.remote,
      expect: WORK,
      runs: PULL_RUNS,
    });
    report(
      'team at scale: SessionStart on B, pull p50 / p99',
      `${ms(pull.connectedMs.p50)} / ${ms(pull.connectedMs.p99)}`,
      `fresh home and clone, default budget 1.5 s; the work reached ${pull.restored}/${pull.runs} first sessions`,
    );
    report(
      '  the same hook, no team store p50 / p99',
      `${ms(pull.unconnectedMs.p50)} / ${ms(pull.unconnectedMs.p99)}`,
    );
    report(
      "  node -e '' p50 / p99",
      `${ms(pull.nodeMs.p50)} / ${ms(pull.nodeMs.p99)}`,
      `pull ×${(pull.connectedMs.p50 / pull.nodeMs.p50).toFixed(2)}, no team ×${(pull.unconnectedMs.p50 / pull.nodeMs.p50).toFixed(2)} at p50`,
    );
    results.teamScale = {
      machines: MACHINES,
      checkpointsPerMachine: CHECKPOINTS_PER_MACHINE,
      projects: PROJECTS,
      writers: WRITERS,
      writeSeconds: seconds,
      rows: counted!.n,
      lost,
      duplicated,
      bytesPerCheckpoint: perCheckpoint,
      databaseBytes: Number(counted!.db_bytes),
      resumeLookupMs: { p50: pct(resume, 0.5), p99: pct(resume, 0.99), n: LOOKUPS },
      resumeLookupServerMs: {
        p50: pct(serverMs, 0.5),
        p99: pct(serverMs, 0.99),
        slowestPlan: slowest.plan,
      },
      prefixLookupMs: { p50: pct(show, 0.5), p99: pct(show, 0.99), n: LOOKUPS },
      pullAtStart: pull,
    };
  } finally {
    local.dispose();
    server.dispose();
  }
}

if (process.argv[1]?.endsWith('team-scale.ts')) {
  const report: Report = (name, value, note = '') =>
    process.stdout.write(`  ${name.padEnd(46)} ${value.padStart(14)}  ${note}\n`);
  await runTeamScaleBench(report, {});
}
