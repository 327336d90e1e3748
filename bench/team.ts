/**
 * The team store's figures (docs/team.md), on a throwaway PostgreSQL server (Debian's binaries,
 * test/helpers/postgres.ts): replication throughput in rows/s beside the local store's own
 * checkpoint write rate measured in the same run, and the lag from a checkpoint's creation to
 * its arrival on the server (p50/p99) while a writer keeps checkpointing and the worker keeps
 * sending; then the pull at session start on a fresh machine B against that server
 * (bench/team-pull.ts). `--team-scale` is bench/team-scale.ts. Skipped with one line where no
 * server can start.
 */
import { randomUUID } from 'node:crypto';
import { createCommandStore } from '../src/app/open-command-store.ts';
import { openTeamRepository } from '../src/app/team/open-team-store.ts';
import { replicateToTeam } from '../src/app/team/replicate.ts';
import { CheckpointRepository } from '../src/store/checkpoints/checkpoint-repository.ts';
import { openDatabase } from '../src/store/sqlite/database.ts';
import { startPostgres } from '../test/helpers/postgres.ts';
import { openTempStore } from '../test/helpers/store.ts';
import { draftIn, makeClone, REMOTE } from '../test/team/team-fixture.ts';
import { measurePullAtStart } from './team-pull.ts';

type Report = (name: string, value: string, note?: string) => void;

const ROWS = 2000;
const LAG_ROWS = 400;
const LAG_EVERY_MS = 10;
const PULL_RUNS = 5;
const WORK = 'Finish the invoice export before the release';

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN;

export async function runTeamBench(
  report: Report,
  results: Record<string, unknown>,
): Promise<void> {
  let server;
  try {
    server = await startPostgres();
  } catch (error) {
    report('team store', 'skipped', String((error as Error).message).split('\n')[0]);
    return;
  }
  const store = openTempStore();
  const writer = { machine: 'bench', osUser: 'bench' };
  try {
    const database = await server.createDatabase();
    const repository = await openTeamRepository({ url: server.url(database), migrate: true });
    const clone = makeClone('app');
    const sessionId = randomUUID();
    store.sessions.touch({ agent: 'claude', sessionId, cwd: clone }, new Date().toISOString());
    // Baseline: the local store writing the same checkpoints.
    let started = performance.now();
    for (let i = 0; i < ROWS; i++)
      store.checkpoints.save(draftIn(clone, sessionId, new Date(Date.now() + i).toISOString()));
    const localRate = ROWS / ((performance.now() - started) / 1000);
    started = performance.now();
    const sent = await replicateToTeam({
      store: createCommandStore(store.db),
      home: store.home,
      repository,
      writer,
    });
    const rate = sent.sent / ((performance.now() - started) / 1000);
    report(
      'team replication throughput',
      `${rate.toFixed(0)} rows/s`,
      `local checkpoint writes ${localRate.toFixed(0)}/s (×${(rate / localRate).toFixed(2)}), batches of 200, ~5 KB checkpoints`,
    );

    // Lag: a writer checkpointing every 10 ms on its own connection, the worker sending meanwhile.
    const lagSession = randomUUID();
    const writerDb = openDatabase(store.home);
    const checkpoints = new CheckpointRepository(writerDb);
    let written = 0;
    const writing = new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        checkpoints.save(draftIn(clone, lagSession, new Date().toISOString()));
        if (++written >= LAG_ROWS) {
          clearInterval(timer);
          resolve();
        }
      }, LAG_EVERY_MS);
    });
    let done = false;
    void writing.then(() => (done = true));
    for (;;) {
      const pass = await replicateToTeam({
        store: createCommandStore(store.db),
        home: store.home,
        repository,
        writer,
      });
      if (done && pass.waiting === 0 && pass.sent === 0) break;
      if (pass.sent === 0) await new Promise((r) => setTimeout(r, 5));
    }
    writerDb.close();
    const lags = (
      await server.sql(
        database,
        `SELECT EXTRACT(EPOCH FROM (received_at - at)) * 1000 AS ms FROM shim_checkpoints WHERE session_id = '${lagSession}'`,
      )
    ).rows.map((r: { ms: string }) => Number(r.ms));
    report(
      'team replication lag p50',
      `${pct(lags, 0.5).toFixed(0)} ms`,
      `${lags.length} checkpoints, one every ${LAG_EVERY_MS} ms, worker sending continuously`,
    );
    report('team replication lag p99', `${pct(lags, 0.99).toFixed(0)} ms`);
    // The newest work of the project, left open on this machine: what B's first session gets.
    const open = draftIn(clone, randomUUID(), new Date().toISOString());
    open.conversationState = { ...open.conversationState, userRequests: [WORK] };
    store.sessions.touch(
      { agent: 'claude', sessionId: open.sessionId, cwd: clone },
      open.createdAt,
    );
    store.checkpoints.save(open);
    await replicateToTeam({
      store: createCommandStore(store.db),
      home: store.home,
      repository,
      writer,
    });
    const pull = await measurePullAtStart({
      url: server.url(database),
      remote: REMOTE,
      expect: WORK,
      runs: PULL_RUNS,
    });
    report(
      'team pull at SessionStart p50 / p99',
      `${pull.connectedMs.p50.toFixed(0)} / ${pull.connectedMs.p99.toFixed(0)} ms`,
      `B's first session, fresh home and clone, budget 1.5 s; the work reached ${pull.restored}/${pull.runs}; no team store ${pull.unconnectedMs.p50.toFixed(0)} ms, node -e '' ${pull.nodeMs.p50.toFixed(0)} ms (p50)`,
    );
    results.team = {
      throughputRowsPerSecond: rate,
      localWritesPerSecond: localRate,
      lagMs: { p50: pct(lags, 0.5), p99: pct(lags, 0.99), n: lags.length },
      pullAtStart: pull,
    };
    await repository.close();
  } finally {
    store.dispose();
    server.dispose();
  }
}

if (process.argv[1]?.endsWith('team.ts')) {
  const report: Report = (name, value, note = '') =>
    process.stdout.write(`  ${name.padEnd(46)} ${value.padStart(14)}  ${note}\n`);
  await runTeamBench(report, {});
}
