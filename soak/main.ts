/**
 * `npm run soak`: shim under abuse, outside `npm test` (it takes minutes). kill -9 at random
 * moments, bursts of concurrent hooks, generated malformed input at every front door. Prints
 * what happened and exits 1 if anything was lost, corrupted, crashed, hung or escaped.
 */
import { existsSync, rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runBurst, type BurstReport } from './burst.ts';
import { runContentFuzz, type ContentFuzzReport } from './content-fuzz.ts';
import { runKills, type KillReport } from './kills.ts';
import { runMalformed, type MalformedReport } from './malformed.ts';
import { runRecovery, type RecoveryReport } from './recovery.ts';
import { seededRandom } from './random.ts';
import { makeSandbox } from './sandbox.ts';

const HELP = `Usage: npm run soak -- [options]

  --kills <n>        kill -9s to land (default 1000)
  --concurrency <n>  hooks started at once per burst round (default 128)
  --rounds <n>       burst rounds (default 10)
  --seed <n>         seed of the random choices (default: time); a failing run prints its seed
  --recovery-rounds <n>  damaged stores raced on (default 12)
  --content-sessions <n> real transcripts fuzzed with nasty content, 40 strings each (default 30)
  --only <phase>     kills | burst | malformed | recovery | content
  --keep             keep the scratch directory for inspection
  --json             print the report as JSON
`;

function count(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    process.stderr.write(`soak: --${name} expects a whole number ≥ 0, got "${value}"\n`);
    process.exit(2);
  }
  return n;
}

const { values } = parseArgs({
  options: {
    kills: { type: 'string' },
    concurrency: { type: 'string' },
    rounds: { type: 'string' },
    seed: { type: 'string' },
    only: { type: 'string' },
    'recovery-rounds': { type: 'string' },
    'content-sessions': { type: 'string' },
    keep: { type: 'boolean' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
const seed = count(values.seed, Date.now() % 2 ** 31, 'seed');
const random = seededRandom(seed);
const progress = (line: string) => process.stderr.write(`${line}\n`);
const wanted = (phase: string) => values.only === undefined || values.only === phase;
const sandbox = makeSandbox();
const injected = '/tmp/shim-soak-injected';
rmSync(injected, { force: true });

progress(
  `shim soak — Node ${process.version}, seed ${seed}, NODE_EXTRA_CA_CERTS unset for child processes, scratch ${sandbox.root}`,
);
let kills: KillReport | undefined;
let burst: BurstReport | undefined;
let malformed: MalformedReport | undefined;
if (wanted('kills')) {
  progress('kill -9 of checkpoint writers and hooks at random moments');
  kills = await runKills(sandbox, random, {
    kills: count(values.kills, 1000, 'kills'),
    lanes: 2,
    perHome: 100,
    progress,
  });
}
if (wanted('burst')) {
  progress('concurrent hooks');
  burst = await runBurst(sandbox, random, {
    concurrency: count(values.concurrency, 128, 'concurrency'),
    rounds: count(values.rounds, 10, 'rounds'),
    progress,
  });
}
if (wanted('malformed')) {
  progress('malformed input at every front door');
  malformed = await runMalformed(sandbox, random, { width: 2, progress });
}

let recovery: RecoveryReport | undefined;
if (wanted('recovery')) {
  progress('damaged stores with checkpoints and hooks racing on them');
  recovery = await runRecovery(sandbox, random, {
    rounds: count(values['recovery-rounds'], 12, 'recovery-rounds'),
    racers: 12,
    progress,
  });
}

let content: ContentFuzzReport | undefined;
if (wanted('content')) {
  progress('nasty content injected into real transcripts');
  content = await runContentFuzz(sandbox, random, {
    sessions: count(values['content-sessions'], 30, 'content-sessions'),
    perSession: 40,
    huge: true,
    lines: 400,
    width: 2,
    progress,
  });
}

const failures = [
  ...(kills
    ? [
        ...kills.lost.map((id) => `lost acknowledged checkpoint ${id}`),
        ...kills.integrityFailures,
        ...kills.otherFailures,
      ]
    : []),
  ...(burst
    ? [...burst.failures, ...(burst.integrity === 'ok' ? [] : [`burst store: ${burst.integrity}`])]
    : []),
  ...(malformed
    ? [
        ...malformed.failures,
        ...malformed.integrityFailures,
        ...malformed.escaped.map((f) => `written outside SHIM_HOME: ${f}`),
      ]
    : []),
  ...(recovery
    ? [...recovery.failures, ...recovery.lost.map((id) => `lost acknowledged checkpoint ${id}`)]
    : []),
  ...(content
    ? [...content.failures, ...content.leaked.map((s) => `raw secret under SHIM_HOME: ${s}`)]
    : []),
  ...(existsSync(injected) ? [`a command in a payload was run: ${injected} exists`] : []),
];

if (values.json) {
  process.stdout.write(
    `${JSON.stringify({ seed, kills, burst, malformed, recovery, content, failures }, null, 2)}\n`,
  );
} else {
  const row = (name: string, value: string) =>
    process.stdout.write(`  ${name.padEnd(40)} ${value}\n`);
  process.stdout.write(`\nshim soak (seed ${seed})\n`);
  if (kills) {
    process.stdout.write('kill -9\n');
    row(
      'kills landed',
      `${kills.kills} (${Object.entries(kills.byTarget)
        .map(([t, n]) => `${t} ${n}`)
        .join(', ')})`,
    );
    row('runs that ended before their kill', String(kills.finishedBeforeKill));
    row(
      'acknowledged / stored / lost',
      `${kills.acknowledged} / ${kills.stored} / ${kills.lost.length}`,
    );
    row(
      'integrity checks (failed)',
      `${kills.integrityChecks} (${kills.integrityFailures.length})`,
    );
    row('median kill moment', `${kills.killDelayP50Ms.toFixed(0)} ms`);
    row('time', `${kills.seconds.toFixed(0)} s`);
  }
  if (burst) {
    process.stdout.write('concurrent hooks\n');
    row(
      'hook processes',
      `${burst.processes} (${burst.concurrency} at once × ${burst.rounds} rounds)`,
    );
    row('failures', String(burst.failures.length));
    row(
      'latency p50 / p99 / max',
      `${burst.p50Ms.toFixed(0)} / ${burst.p99Ms.toFixed(0)} / ${burst.maxMs.toFixed(0)} ms`,
    );
    row('checkpoints stored, integrity', `${burst.checkpointsStored}, ${burst.integrity}`);
    row('time', `${burst.seconds.toFixed(0)} s`);
  }
  if (malformed) {
    process.stdout.write('malformed input\n');
    row(
      'generated inputs',
      `${malformed.inputs} (${Object.entries(malformed.byDoor)
        .map(([d, n]) => `${d} ${n}`)
        .join(', ')})`,
    );
    row('processes run', String(malformed.processes));
    row('failures', String(malformed.failures.length));
    row('files written outside SHIM_HOME', String(malformed.escaped.length));
    row('latency p50 / p99', `${malformed.p50Ms.toFixed(0)} / ${malformed.p99Ms.toFixed(0)} ms`);
    row('time', `${malformed.seconds.toFixed(0)} s`);
  }
  if (recovery) {
    process.stdout.write('recovery under racing processes\n');
    row('rounds (rows / pages / both damaged)', String(recovery.rounds));
    row('processes', String(recovery.processes));
    row('acknowledged / lost', `${recovery.acknowledged} / ${recovery.lost.length}`);
    row('rounds recovered, moves aside', `${recovery.recoveredRounds}, ${recovery.movedAside}`);
    row('time', `${recovery.seconds.toFixed(0)} s`);
  }
  if (content) {
    process.stdout.write('nasty content in real transcripts\n');
    row('sessions / strings injected', `${content.sessions} / ${content.injected}`);
    row('hooks run (all must exit 0)', String(content.hooks));
    row('checkpoints stored', String(content.checkpoints));
    row('exports holding the escaped </script>', String(content.scriptsChecked));
    row('raw secrets under SHIM_HOME', String(content.leaked.length));
    row('time', `${content.seconds.toFixed(0)} s`);
  }
  for (const failure of failures.slice(0, 40)) process.stdout.write(`FAIL ${failure}\n`);
  if (failures.length > 40)
    process.stdout.write(`… and ${failures.length - 40} more (--json lists all)\n`);
  process.stdout.write(
    `${failures.length === 0 ? 'soak passed' : `soak FAILED (${failures.length}); run again with --seed ${seed}`}\n`,
  );
}
if (!values.keep) rmSync(sandbox.root, { recursive: true, force: true });
else progress(`kept ${sandbox.root}`);
process.exit(failures.length === 0 ? 0 : 1);
