/**
 * Directories planted under SHIM_HOME/run where the warm look (src/hook/warm-look/) keeps its
 * pipes: a link to another process's pipes, run/ itself a link, a directory of pipes owned by
 * another user or open to all (test/warm-look-trust.test.ts's cases, each planted again and again
 * between calls that cross levels). A PostToolUse hook hands the warm look its whole environment
 * and prints its answer to the model: nothing may be written into a planted pipe, and no answer
 * taken from one.
 */
import {
  chmodSync,
  chownSync,
  existsSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { join } from 'node:path';
import { foreignPipes } from '../test/helpers/foreign-pipes.ts';
import {
  env,
  payload,
  respond,
  session,
  warmLookName,
  type Session,
} from '../test/helpers/warm-look.ts';
import { stdoutProblem } from './burst.ts';
import { run } from './process.ts';
import type { Random } from './random.ts';
import { BIN, type Sandbox } from './sandbox.ts';
import { endSession } from './warm-session.ts';

/** Root can hand a directory to another user; elsewhere those plants are left out. */
const ROOT = process.getuid?.() === 0;
const NOBODY = 65534;

const PLANTS = [
  'a link to foreign pipes',
  'run/ a link',
  'open to all',
  ...(ROOT ? (['owned by another user', 'run/ owned by another user'] as const) : []),
] as const;
type Plant = (typeof PLANTS)[number];

export type WarmLookPlantReport = {
  plants: number;
  byPlant: Record<string, number>;
  hooks: number;
  /** Bytes that reached a planted pipe, and answers printed that a planted process wrote. */
  bytesWritten: number;
  answersTaken: number;
  failures: string[];
  seconds: number;
};

const SECRET = 'sk-soak-5e1f0a9c3d7b';

/** Plants `plant` in `s`'s home; the holder of the foreign pipes and where it keeps what it read. */
async function plantIn(s: Session, name: string, plant: Plant) {
  const runDir = join(s.home, 'run');
  if (plant === 'a link to foreign pipes') {
    const pipes = await foreignPipes(join(s.dir, 'elsewhere', name));
    rmSync(join(runDir, name), { recursive: true, force: true });
    symlinkSync(join(s.dir, 'elsewhere', name), join(runDir, name));
    return pipes;
  }
  if (plant === 'run/ a link') {
    const pipes = await foreignPipes(join(s.dir, 'other-run', name));
    renameSync(runDir, join(s.dir, `old-run-${Date.now()}`));
    symlinkSync(join(s.dir, 'other-run'), runDir);
    return pipes;
  }
  rmSync(join(runDir, name), { recursive: true, force: true });
  const pipes = await foreignPipes(join(runDir, name));
  if (plant === 'open to all') chmodSync(join(runDir, name), 0o777);
  else if (plant === 'owned by another user') chownSync(join(runDir, name), NOBODY, NOBODY);
  else chownSync(runDir, NOBODY, NOBODY);
  return pipes;
}

export async function runWarmLookPlants(
  sandbox: Sandbox,
  random: Random,
  options: { rounds: number; progress: (line: string) => void },
): Promise<WarmLookPlantReport> {
  const started = performance.now();
  const report: WarmLookPlantReport = {
    plants: 0,
    byPlant: {},
    hooks: 0,
    bytesWritten: 0,
    answersTaken: 0,
    failures: [],
    seconds: 0,
  };
  for (let round = 0; round < options.rounds; round++) {
    for (const plant of PLANTS) {
      const fail = (what: string) =>
        report.failures.push(`run/ plant (${plant}, round ${round + 1}): ${what}`);
      const s = session({ name: 'soak-plant' });
      const name = await warmLookName(s);
      const { child, captured } = await plantIn(s, name, plant);
      report.plants++;
      report.byPlant[plant] = (report.byPlant[plant] ?? 0) + 1;
      try {
        // Calls that cross levels (a full look each) and calls between them, some of which the
        // warm look the first starts (where it may) answers.
        const contexts = [120_000, 150_000, 162_000].flatMap((c) => [c, c + random.int(100, 900)]);
        for (const context of contexts) {
          const outcome = await run(process.execPath, [BIN, 'hook', 'PostToolUse'], {
            env: env(s, { HOME: sandbox.home, SHIM_SOAK_API_KEY: SECRET }),
            cwd: s.dir,
            input: payload(s, 'Read', respond(s, 'Read', context)),
            timeoutMs: 60_000,
          });
          report.hooks++;
          if (outcome.timedOut) fail(`a call at ${context} tokens hung`);
          else if (outcome.status !== 0) fail(`a call exited ${outcome.status}`);
          const problem = stdoutProblem(outcome.stdout);
          if (problem) fail(problem);
          if (outcome.stdout.includes('INJECTED')) {
            report.answersTaken++;
            fail('printed an answer the planted process wrote');
          }
        }
        const written = existsSync(captured) ? readFileSync(captured, 'utf8') : '';
        report.bytesWritten += written.length;
        if (written.length > 0)
          fail(
            `${written.length} bytes written into the planted pipes${written.includes(SECRET) ? ', the API key among them' : ''}`,
          );
      } finally {
        child.kill('SIGKILL');
        // run/ is ours again before the warm look is stopped.
        if (plant === 'run/ owned by another user') chownSync(join(s.home, 'run'), 0, 0);
        await endSession(s, fail, [child.pid!]);
      }
    }
    options.progress(
      `  round ${round + 1}/${options.rounds}: ${report.plants} plants, ${report.bytesWritten} bytes reached them`,
    );
  }
  report.seconds = (performance.now() - started) / 1000;
  return report;
}
