/**
 * The warm look (src/hook/warm-look/) killed with SIGKILL at random moments of a session that
 * climbs through every level: in the middle of an ordinary call, or the moment it claims the
 * checkpoint of the call that crosses into L1, L2 or L3 (seen by inotify on the hooks' memory
 * directory, as test/warm-look-kill.test.ts does). Whoever looks next must store that level's
 * checkpoint: every level's checkpoint of every trial is stored, every hook exits 0 with protocol
 * only, and no process is left behind.
 */
import { watch } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from '@photostructure/sqlite';
import { waitForProcessesUnder } from '../test/helpers/processes.ts';
import {
  env,
  payload,
  respond,
  session,
  waitForWarmLook,
  warmLookPid,
  type Session,
} from '../test/helpers/warm-look.ts';
import { stdoutProblem } from './burst.ts';
import { run, type Outcome } from './process.ts';
import type { Random } from './random.ts';
import { BIN, type Sandbox } from './sandbox.ts';
import { endSession } from './warm-session.ts';

/** The session's calls: the first starts the warm look, then one crossing into each level. */
const CALLS = [
  { context: 40_000, level: null },
  { context: 80_000, level: null },
  { context: 120_000, level: 'L1' },
  { context: 150_000, level: 'L2' },
  { context: 162_000, level: 'L3' },
] as const;

type Level = 'L1' | 'L2' | 'L3';
const TRIGGER: Record<Level, string> = { L1: 'warning_zone', L2: 'danger_zone', L3: 'danger_zone' };

/** Where a trial's kill lands: at a level's checkpoint claim, or anywhere in one call. */
type Moment = { at: 'claim'; level: Level } | { at: 'random'; call: number; delayMs: number };

export type WarmLookKillReport = {
  trials: number;
  /** Trials whose every level's checkpoint was stored. */
  everyLevelStored: number;
  /** Kills that landed on a serving warm look: at a level's claim, at a random moment. */
  killsAtClaim: number;
  killsAtRandom: number;
  /** Aimed kills that did not land: no warm look served then, or the call was over first. */
  missed: number;
  /** Levels told to the user (with "Checkpoint #n saved" at L2 and L3), of the levels crossed. */
  levelsTold: number;
  levelsCrossed: number;
  /** A level's checkpoint stored twice (a claim taken over after the work was done). */
  storedTwice: number;
  hooks: number;
  failures: string[];
  seconds: number;
};

function moments(trials: number, random: Random): Moment[] {
  return Array.from({ length: trials }, (_, i): Moment => {
    const kind = i % 4;
    if (kind < 3) return { at: 'claim', level: (['L1', 'L2', 'L3'] as const)[kind]! };
    return { at: 'random', call: random.int(1, CALLS.length - 1), delayMs: random.int(0, 250) };
  });
}

function hookRun(s: Session, input: string, home: string): Promise<Outcome> {
  return run(process.execPath, [BIN, 'hook', 'PostToolUse'], {
    env: env(s, { HOME: home }),
    cwd: s.dir,
    input,
    timeoutMs: 60_000,
  });
}

/** Kills the process serving `s` now, if one does. */
function killServing(s: Session): boolean {
  const pid = warmLookPid(s.home);
  if (pid === null) return false;
  try {
    process.kill(pid, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
}

function checkpointsByTrigger(home: string): Map<string, number> {
  const db = new DatabaseSync(join(home, 'shim.db'), { readOnly: true });
  try {
    db.exec('PRAGMA busy_timeout = 10000');
    const rows = db
      .prepare('SELECT triggered_by AS t, COUNT(*) AS n FROM checkpoints GROUP BY triggered_by')
      .all() as { t: string; n: number }[];
    return new Map(rows.map((r) => [r.t, r.n]));
  } finally {
    db.close();
  }
}

async function trial(
  sandbox: Sandbox,
  moment: Moment,
  report: WarmLookKillReport,
  fail: (what: string) => void,
): Promise<void> {
  const s = session({ name: 'soak-kill' });
  try {
    for (const [index, { context, level }] of CALLS.entries()) {
      const input = payload(s, 'Read', respond(s, 'Read', context));
      const aimed = moment.at === 'claim' ? moment.level === level : moment.call === index;
      // An aimed kill needs a warm look to kill: the calls before start one (a killed one is
      // started again by the next call that looks).
      if (aimed && index > 0)
        await waitForWarmLook(s.home, () => true, 30_000).catch(() => undefined);
      let killed = false;
      const claims =
        aimed && moment.at === 'claim' ? new RegExp(`ckpt-.*-${TRIGGER[moment.level]}$`) : null;
      const watcher = claims
        ? watch(join(s.home, 'cache', 'hooks'), (_, name) => {
            if (killed || !name || !claims.test(name)) return;
            killed = true;
            if (killServing(s)) report.killsAtClaim++;
            else report.missed++;
          })
        : null;
      const timer =
        aimed && moment.at === 'random'
          ? setTimeout(() => {
              killed = true;
              if (killServing(s)) report.killsAtRandom++;
              else report.missed++;
            }, moment.delayMs)
          : null;
      const outcome = await hookRun(s, input, sandbox.home);
      watcher?.close();
      if (timer) clearTimeout(timer);
      if (aimed && !killed) report.missed++;
      report.hooks++;
      if (outcome.timedOut) fail(`call ${index} (${context} tokens) hung`);
      else if (outcome.status !== 0)
        fail(`call ${index} exited ${outcome.status}: ${outcome.stderr.slice(0, 200)}`);
      const problem = stdoutProblem(outcome.stdout);
      if (problem) fail(`call ${index} stdout: ${problem}`);
      if (level) {
        report.levelsCrossed++;
        const saved = level === 'L1' || /Checkpoint #\d+ saved/.test(outcome.stdout);
        if (outcome.stdout.includes(`(${level})`) && saved) report.levelsTold++;
      }
      // The first call starts the warm look for the calls after it.
      if (index === 0) await waitForWarmLook(s.home, () => true, 30_000).catch(() => undefined);
    }
    // L1's checkpoint (and the first call's) is built by a detached process.
    await waitForProcessesUnder(s.dir).catch((error: Error) => fail(error.message));
    const stored = checkpointsByTrigger(s.home);
    const warning = stored.get('warning_zone') ?? 0;
    const danger = stored.get('danger_zone') ?? 0;
    if (warning >= 1 && danger >= 2) report.everyLevelStored++;
    else fail(`levels' checkpoints stored: L1 ${warning} of 1, L2+L3 ${danger} of 2`);
    if (warning > 1 || danger > 2) report.storedTwice++;
  } finally {
    await endSession(s, fail);
  }
}

export async function runWarmLookKills(
  sandbox: Sandbox,
  random: Random,
  options: { trials: number; progress: (line: string) => void },
): Promise<WarmLookKillReport> {
  const started = performance.now();
  const report: WarmLookKillReport = {
    trials: 0,
    everyLevelStored: 0,
    killsAtClaim: 0,
    killsAtRandom: 0,
    missed: 0,
    levelsTold: 0,
    levelsCrossed: 0,
    storedTwice: 0,
    hooks: 0,
    failures: [],
    seconds: 0,
  };
  for (const [i, moment] of moments(options.trials, random).entries()) {
    const where =
      moment.at === 'claim'
        ? `${moment.level}'s claim`
        : `call ${moment.call} +${moment.delayMs} ms`;
    await trial(sandbox, moment, report, (what) =>
      report.failures.push(`warm-look kill ${i + 1} (${where}): ${what}`),
    );
    report.trials++;
    if ((i + 1) % 5 === 0 || i + 1 === options.trials)
      options.progress(
        `  ${i + 1}/${options.trials} trials: every level stored in ${report.everyLevelStored}`,
      );
  }
  report.seconds = (performance.now() - started) / 1000;
  return report;
}
