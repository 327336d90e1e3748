/**
 * `npm run soak`: shim under abuse, outside `npm test` (it takes minutes). kill -9 at random
 * moments, bursts of concurrent hooks, generated malformed input at every front door, damaged
 * stores, and the warm look killed, planted upon and handed transcripts that are not files. Prints
 * what happened and exits 1 if anything was lost, corrupted, crashed, hung or escaped.
 */
import { existsSync, rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runBurst, type BurstReport } from './burst.ts';
import { runContentFuzz, type ContentFuzzReport } from './content-fuzz.ts';
import { runKills, type KillReport } from './kills.ts';
import { runMalformed, type MalformedReport } from './malformed.ts';
import { runOddTranscripts, type OddTranscriptReport } from './odd-transcripts.ts';
import { runRecovery, type RecoveryReport } from './recovery.ts';
import { seededRandom } from './random.ts';
import { makeSandbox } from './sandbox.ts';
import { runWarmLookKills, type WarmLookKillReport } from './warm-look-kills.ts';
import { runWarmLookPlants, type WarmLookPlantReport } from './warm-look-plants.ts';

const HELP = `Usage: npm run soak -- [options]

  --kills <n>        kill -9s to land (default 1000)
  --concurrency <n>  hooks started at once per burst round (default 128)
  --rounds <n>       burst rounds (default 10)
  --seed <n>         seed of the random choices (default: time); a failing run prints its seed
  --recovery-rounds <n>  damaged stores raced on (default 12)
  --content-sessions <n> real transcripts fuzzed with nasty content, 40 strings each (default 30)
  --warm-kills <n>   warm-look trials, each killed once with -9 (default 30)
  --plant-rounds <n> rounds of directories planted in SHIM_HOME/run (default 3)
  --odd-rounds <n>   rounds of FIFOs and directories as transcript paths (default 3)
  --hook-limit-ms <n> what a hook naming such a path may take (default 1000)
  --only <phase>     kills | burst | malformed | recovery | content | warm-look
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
    'warm-kills': { type: 'string' },
    'plant-rounds': { type: 'string' },
    'odd-rounds': { type: 'string' },
    'hook-limit-ms': { type: 'string' },
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

let warmKills: WarmLookKillReport | undefined;
let plants: WarmLookPlantReport | undefined;
let odd: OddTranscriptReport | undefined;
if (wanted('warm-look')) {
  progress('the warm look killed with -9 at random moments and at each level');
  warmKills = await runWarmLookKills(sandbox, random, {
    trials: count(values['warm-kills'], 30, 'warm-kills'),
    progress,
  });
  progress('directories planted in SHIM_HOME/run');
  plants = await runWarmLookPlants(sandbox, random, {
    rounds: count(values['plant-rounds'], 3, 'plant-rounds'),
    progress,
  });
  progress('FIFOs and directories as transcript paths');
  odd = await runOddTranscripts(sandbox, random, {
    rounds: count(values['odd-rounds'], 3, 'odd-rounds'),
    limitMs: count(values['hook-limit-ms'], 1000, 'hook-limit-ms'),
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
  ...(warmKills?.failures ?? []),
  ...(plants?.failures ?? []),
  ...(odd?.failures ?? []),
  ...(existsSync(injected) ? [`a command in a payload was run: ${injected} exists`] : []),
];

if (values.json) {
  process.stdout.write(
    `${JSON.stringify({ seed, kills, burst, malformed, recovery, content, warmKills, plants, odd, failures }, null, 2)}\n`,
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
    row(
      'rows damaged (source / gzip / change)',
      `${recovery.rowsDamaged.source} / ${recovery.rowsDamaged['gzip header']} / ${recovery.rowsDamaged.delta}`,
    );
    row('rounds recovered, moves aside', `${recovery.recoveredRounds}, ${recovery.movedAside}`);
    row('"bug in shim" or crashes', String(recovery.crashes));
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
  if (warmKills) {
    process.stdout.write('the warm look killed with -9\n');
    row(
      "trials, every level's checkpoint stored",
      `${warmKills.trials}, ${warmKills.everyLevelStored} of ${warmKills.trials}`,
    );
    row(
      "kills at a level's claim / at random",
      `${warmKills.killsAtClaim} / ${warmKills.killsAtRandom} (${warmKills.missed} missed: none serving, or the call was over)`,
    );
    row(
      'levels told with their checkpoint',
      `${warmKills.levelsTold} of ${warmKills.levelsCrossed}`,
    );
    row("a level's checkpoint stored twice", String(warmKills.storedTwice));
    row('hooks', String(warmKills.hooks));
    row('time', `${warmKills.seconds.toFixed(0)} s`);
  }
  if (plants) {
    process.stdout.write('directories planted in run/\n');
    row(
      'plants',
      `${plants.plants} (${Object.entries(plants.byPlant)
        .map(([p, n]) => `${p} ${n}`)
        .join(', ')})`,
    );
    row('hooks', String(plants.hooks));
    row('bytes written to planted pipes', String(plants.bytesWritten));
    row('answers taken from them', String(plants.answersTaken));
    row('time', `${plants.seconds.toFixed(0)} s`);
  }
  if (odd) {
    process.stdout.write('FIFOs and directories as transcript paths\n');
    row('paths, hooks naming them', `${odd.paths}, ${odd.hooks}`);
    row('latency p50 / max', `${odd.p50Ms.toFixed(0)} / ${odd.maxMs.toFixed(0)} ms`);
    row('over the limit', String(odd.overLimit));
    row('processes left waiting on a pipe', String(odd.blocked));
    row('time', `${odd.seconds.toFixed(0)} s`);
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
