/**
 * Recovery under load: a store is damaged — rows that no longer read back (a source cut short, a
 * section or a stored change whose gzip header is gone), pages overwritten with zeros, or both —
 * and then many processes use it at once, as several
 * sessions' hooks and their detached checkpoint children would: `shim checkpoint` runs, and
 * PostToolUse, PreCompact and SessionEnd hooks. Every checkpoint a process acknowledged must be
 * in the store afterwards, the store must pass its integrity check, it must have been moved
 * aside at most once per damage (one recovery at a time, the bad rows left in the aside file, not
 * salvaged into the new store), no process may say "bug in shim", and every session must be able
 * to checkpoint again.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { readRecoveryNotice } from '../src/store/home/recovery-notice.ts';
import { damageCheckpointRow, ROW_DAMAGES, type RowDamage } from '../test/helpers/damage-rows.ts';
import { shareCodeCache, withSharedCodeCache } from '../test/helpers/shared-code-cache.ts';
import { stdoutProblem } from './burst.ts';
import { crashIn, run, type Outcome } from './process.ts';
import type { Random } from './random.ts';
import { BIN, integrityOf, storedIds, type Sandbox } from './sandbox.ts';

export type Damage = 'rows' | 'pages' | 'both';

export type RecoveryReport = {
  rounds: number;
  processes: number;
  acknowledged: number;
  lost: string[];
  /** Rounds whose store was moved aside, and how often it was in all. */
  recoveredRounds: number;
  movedAside: number;
  /** Rows made unreadable, by how. */
  rowsDamaged: Record<RowDamage, number>;
  /** Processes that said "bug in shim" or crashed (every one is also a failure). */
  crashes: number;
  failures: string[];
  seconds: number;
};

const RACERS = ['cli-checkpoint', 'PostToolUse', 'PreCompact', 'SessionEnd'] as const;

function hookPayload(event: string, sessionId: string, transcript: string, cwd: string): string {
  return JSON.stringify({
    session_id: sessionId,
    transcript_path: transcript,
    cwd,
    hook_event_name: event,
    ...(event === 'PreCompact' ? { trigger: 'auto', custom_instructions: '' } : {}),
    ...(event === 'PostToolUse'
      ? { tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_response: { stdout: 'ok' } }
      : {}),
    ...(event === 'SessionEnd' ? { reason: 'other' } : {}),
  });
}

/** The checkpoint id a `shim checkpoint --json` run printed, if it got that far. */
function acknowledged(outcome: Outcome): string | null {
  try {
    return (JSON.parse(outcome.stdout) as { checkpointId?: string }).checkpointId ?? null;
  } catch {
    return null;
  }
}

/**
 * Makes 1–2 checkpoint rows unreadable, each a random way (test/helpers/damage-rows.ts): its
 * source cut, a section's gzip header gone, a stored change's gzip header gone.
 */
function damageRows(home: string, random: Random, counts: Record<RowDamage, number>): number {
  let damaged = 0;
  for (let i = random.int(1, 2); i > 0; i--) {
    const damage = random.pick(ROW_DAMAGES);
    const id = damageCheckpointRow(home, damage, (ids) => random.pick(ids));
    if (id === null) continue;
    counts[damage]++;
    damaged++;
  }
  return damaged;
}

/** Zeroes 1–2 pages past the first (which holds the header) in the store file. */
function zeroPages(home: string, random: Random): void {
  const path = join(home, 'shim.db');
  const pages = Math.floor(statSync(path).size / 4096);
  const fd = openSync(path, 'r+');
  try {
    for (let i = 0; i < 2; i++) {
      const page = random.int(1, Math.max(1, pages - 1));
      writeSync(fd, Buffer.alloc(4096), 0, 4096, page * 4096);
    }
  } finally {
    closeSync(fd);
  }
}

function movedAsideFiles(home: string): string[] {
  return readdirSync(home).filter((f) => /^shim\.db\.corrupt-/.test(f) && !/-(?:wal|shm)$/.test(f));
}

export async function runRecovery(
  sandbox: Sandbox,
  random: Random,
  options: { rounds: number; racers: number; progress: (line: string) => void },
): Promise<RecoveryReport> {
  const started = performance.now();
  const report: RecoveryReport = {
    rounds: 0,
    processes: 0,
    acknowledged: 0,
    lost: [],
    recoveredRounds: 0,
    movedAside: 0,
    rowsDamaged: { source: 0, 'gzip header': 0, delta: 0 },
    crashes: 0,
    failures: [],
    seconds: 0,
  };
  const kinds: Damage[] = ['both', 'rows', 'pages'];
  for (let round = 0; round < options.rounds; round++) {
    const damage = kinds[round % kinds.length]!;
    // Each round's home starts with the code caches of the rounds before (what is damaged is the
    // store, not shim's compiled code): only the first round's processes compile their bundles.
    const home = withSharedCodeCache(sandbox.newShimHome(`recovery-${round}`));
    mkdirSync(home, { recursive: true, mode: 0o700 });
    shareCodeCache(home);
    const env = sandbox.envFor(home);
    const base = { env, cwd: sandbox.project, timeoutMs: 120_000 };
    const checkpoint = (transcript: string) =>
      run(process.execPath, [BIN, 'checkpoint', '--transcript', transcript, '--json'], base);
    const fail = (what: string) => report.failures.push(`round ${round} (${damage}): ${what}`);
    const crashed = (who: string, outcome: Outcome) => {
      const crash = crashIn(outcome.stderr);
      if (!crash) return;
      report.crashes++;
      fail(`${who} crashed: ${crash}`);
    };

    // A store with two checkpoints of every session (the second stored as a change of the
    // first), then damaged.
    for (const transcript of [...sandbox.transcripts, ...sandbox.transcripts]) {
      const seeded = await checkpoint(transcript);
      report.processes++;
      if (seeded.status !== 0) fail(`seeding failed: ${seeded.stderr.trim().slice(0, 200)}`);
      crashed('seeding', seeded);
    }
    if (damage !== 'pages' && damageRows(home, random, report.rowsDamaged) === 0)
      fail('no row could be damaged');
    if (damage !== 'rows') zeroPages(home, random);

    // Everyone at once on the damaged store.
    shareCodeCache(home);
    const racers = Array.from({ length: options.racers }, () => ({
      kind: random.pick(RACERS),
      transcript: random.pick(sandbox.transcripts),
    }));
    const outcomes = await Promise.all(
      racers.map(({ kind, transcript }) =>
        kind === 'cli-checkpoint'
          ? checkpoint(transcript)
          : run(process.execPath, [BIN, 'hook', kind], {
              ...base,
              input: hookPayload(
                kind,
                sandbox.sessionOf.get(transcript)!,
                transcript,
                sandbox.project,
              ),
            }),
      ),
    );
    report.processes += outcomes.length;
    shareCodeCache(home);
    const acked: string[] = [];
    outcomes.forEach((outcome, i) => {
      const { kind } = racers[i]!;
      if (outcome.timedOut) fail(`${kind} hung`);
      else if (kind === 'cli-checkpoint') {
        const id = acknowledged(outcome);
        if (outcome.status !== 0 || id === null)
          fail(`shim checkpoint failed: ${outcome.stderr.trim().slice(0, 200)}`);
        if (id) acked.push(id);
      } else {
        if (outcome.status !== 0) fail(`hook ${kind} exited ${outcome.status}`);
        const problem = stdoutProblem(outcome.stdout);
        if (problem) fail(`hook ${kind} stdout: ${problem}`);
      }
      crashed(kind, outcome);
    });

    // No session is left unable to checkpoint, whatever the damage took.
    for (const transcript of sandbox.transcripts) {
      const after = await checkpoint(transcript);
      report.processes++;
      crashed('checkpoint after', after);
      const id = acknowledged(after);
      if (after.status !== 0 || id === null)
        fail(
          `session ${sandbox.sessionOf.get(transcript)} cannot checkpoint: ${after.stderr.trim().slice(0, 200)}`,
        );
      else acked.push(id);
    }

    report.acknowledged += acked.length;
    const stored = storedIds(home, acked);
    for (const id of acked)
      if (!stored.has(id)) report.lost.push(`${id} (round ${round}, ${damage})`);
    const integrity = integrityOf(home);
    if (integrity !== 'ok') fail(`store after the round: ${integrity}`);
    const moved = movedAsideFiles(home);
    report.movedAside += moved.length;
    if (moved.length > 0) report.recoveredRounds++;
    // One recovery per damage: a store moved aside again was rebuilt with the damage in it.
    if (moved.length > 1) {
      const notice = readRecoveryNotice(home);
      const named = notice ? [notice.movedTo, ...(notice.earlier ?? [])] : [];
      fail(`moved aside ${moved.length} times (the notice names ${named.length})`);
    }
    if (damage !== 'rows' && moved.length === 0 && existsSync(join(home, 'shim.db')))
      fail('zeroed pages and the store was never recovered');
    report.rounds++;
    options.progress(
      `  round ${round + 1}/${options.rounds} (${damage}): ${acked.length} acknowledged, moved aside ${moved.length}×`,
    );
  }
  report.seconds = (performance.now() - started) / 1000;
  return report;
}
