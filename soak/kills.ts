/**
 * kill -9 at random moments, as a crash, an OOM killer or a closed terminal would: of in-process
 * checkpoint writers (looping saves, with and without reopening the store) and of the real
 * `shim checkpoint` and hook processes. After every kill the store must pass its integrity check
 * and hold every checkpoint that was acknowledged (printed) before the kill. A risky command's
 * PreToolUse acknowledges a checkpoint its detached builder stores (store/checkpoints/pending-checkpoints.ts):
 * its acknowledgement is checked once a shim command has finished what was promised.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { buildFixtureDraft } from '../test/helpers/store.ts';
import { percentile, run, type Outcome } from './process.ts';
import type { Random } from './random.ts';
import { BIN, ROOT, finishPromised, integrityOf, storedIds, type Sandbox } from './sandbox.ts';

const TARGETS = [
  'writer-loop',
  'writer-reopen',
  'cli-checkpoint',
  'hook-PreCompact',
  'hook-PreToolUse',
  'hook-PostToolUse',
  'hook-SessionEnd',
] as const;
type Target = (typeof TARGETS)[number];

export type KillReport = {
  kills: number;
  byTarget: Record<string, number>;
  finishedBeforeKill: number;
  acknowledged: number;
  stored: number;
  lost: string[];
  integrityChecks: number;
  integrityFailures: string[];
  otherFailures: string[];
  killDelayP50Ms: number;
  seconds: number;
};

/** The writer helper bundled once, so each of hundreds of starts costs a plain Node start. */
async function bundleWriter(): Promise<string> {
  const outfile = join(ROOT, '.soak', 'checkpoint-writer.mjs');
  mkdirSync(join(ROOT, '.soak'), { recursive: true });
  await build({
    entryPoints: [join(ROOT, 'test', 'helpers', 'checkpoint-writer.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'error',
  });
  return outfile;
}

let toolUses = 0;

function hookPayload(event: string, sessionId: string, transcript: string, cwd: string): string {
  return JSON.stringify({
    session_id: sessionId,
    transcript_path: transcript,
    cwd,
    hook_event_name: event,
    ...(event === 'PreToolUse'
      ? {
          tool_name: 'Bash',
          tool_use_id: `toolu_soak_${process.pid}_${++toolUses}`,
          tool_input: { command: 'git reset --hard HEAD' },
        }
      : {}),
    ...(event === 'PreCompact' ? { trigger: 'auto', custom_instructions: '' } : {}),
    ...(event === 'PostToolUse'
      ? { tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_response: { stdout: 'ok' } }
      : {}),
    ...(event === 'SessionEnd' ? { reason: 'other' } : {}),
  });
}

/** Typical duration of each process target, to spread kills over its whole life. */
async function measureTypicalMs(
  targetRun: (target: Target, killAfterMs?: number) => Promise<Outcome>,
): Promise<Record<Target, number>> {
  const typical = {} as Record<Target, number>;
  for (const target of TARGETS) {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) times.push((await targetRun(target)).ms);
    typical[target] = percentile(times, 0.5);
  }
  return typical;
}

export async function runKills(
  sandbox: Sandbox,
  random: Random,
  options: { kills: number; lanes: number; perHome: number; progress: (line: string) => void },
): Promise<KillReport> {
  const started = performance.now();
  const writer = await bundleWriter();
  const draftPath = join(sandbox.root, 'draft.json');
  // Dated now: a draft dated when its fixture was recorded is old enough for the daily
  // retention (which a SessionEnd hook may start) to delete, which is retention, not loss.
  writeFileSync(
    draftPath,
    JSON.stringify({ ...(await buildFixtureDraft()), createdAt: new Date().toISOString() }),
  );

  let homeIndex = 0;
  let shimHome = sandbox.newShimHome(`kills-${homeIndex}`);
  const report: KillReport = {
    kills: 0,
    byTarget: Object.fromEntries(TARGETS.map((t) => [t, 0])),
    finishedBeforeKill: 0,
    acknowledged: 0,
    stored: 0,
    lost: [],
    integrityChecks: 0,
    integrityFailures: [],
    otherFailures: [],
    killDelayP50Ms: 0,
    seconds: 0,
  };
  const delays: number[] = [];
  const ackedByHome = new Map<string, string[]>();

  const runTarget = (target: Target, home: string, killAfterMs?: number): Promise<Outcome> => {
    const env = sandbox.envFor(home);
    const transcript = random.pick(sandbox.transcripts);
    const base = { env, cwd: sandbox.project, killAfterMs, timeoutMs: 60_000 };
    switch (target) {
      case 'writer-loop':
      case 'writer-reopen':
        return run(
          process.execPath,
          [writer, target === 'writer-loop' ? 'loop' : 'loop-reopen', home, draftPath],
          { ...base, killAfterMs: killAfterMs ?? 100, killAfterReady: true },
        );
      case 'cli-checkpoint':
        return run(
          process.execPath,
          [BIN, 'checkpoint', '--transcript', transcript, '--json'],
          base,
        );
      default: {
        const event = target.slice('hook-'.length);
        return run(process.execPath, [BIN, 'hook', event], {
          ...base,
          input: hookPayload(
            event,
            sandbox.sessionOf.get(transcript)!,
            transcript,
            sandbox.project,
          ),
        });
      }
    }
  };

  const typical = await measureTypicalMs((target, ms) =>
    runTarget(target, sandbox.newShimHome('kills-warmup'), ms),
  );
  options.progress(
    `  typical run: ${TARGETS.map((t) => `${t} ${typical[t].toFixed(0)} ms`).join(', ')}`,
  );

  const acknowledgementsIn = (target: Target, outcome: Outcome): string[] => {
    const lines = outcome.stdout.split('\n');
    lines.pop(); // an unterminated last line was cut by the kill
    if (target.startsWith('writer-')) return lines.filter((l) => l && l !== 'ready');
    if (target === 'hook-PreToolUse')
      // The id's first 8 characters, as the hook prints them (`undo: shim restore-files <id>`).
      return lines.flatMap((l) => /restore-files ([0-9a-f]{8})\)/.exec(l)?.[1] ?? []);
    if (target === 'cli-checkpoint')
      return lines.flatMap((l) => {
        try {
          const id = (JSON.parse(l) as { checkpointId?: string }).checkpointId;
          return id ? [id] : [];
        } catch {
          return [];
        }
      });
    return [];
  };

  let nextProgress = 100;
  const lane = async () => {
    while (report.kills < options.kills) {
      const target = random.pick(TARGETS);
      const home = shimHome;
      const delay = target.startsWith('writer-')
        ? random.int(0, 300)
        : random.next() * typical[target] * 1.1;
      const outcome = await runTarget(target, home, delay);
      const acked = acknowledgementsIn(target, outcome);
      report.acknowledged += acked.length;
      ackedByHome.set(home, [...(ackedByHome.get(home) ?? []), ...acked]);
      if (outcome.signal !== 'SIGKILL' || outcome.timedOut) {
        report.finishedBeforeKill++;
        if (outcome.timedOut) report.otherFailures.push(`${target} hung for 60 s`);
        else if (outcome.status !== 0)
          report.otherFailures.push(
            `${target} exited ${outcome.status} after a kill: ${outcome.stderr.trim().slice(0, 200)}`,
          );
        continue;
      }
      report.kills++;
      report.byTarget[target]!++;
      delays.push(delay);
      // The store is checked after every kill, even while the other lane is writing into it.
      report.integrityChecks++;
      const integrity = integrityOf(home);
      if (integrity !== 'ok' && integrity !== 'absent')
        report.integrityFailures.push(`after kill ${report.kills} (${target}): ${integrity}`);
      if (acked.length > 0) {
        if (target === 'hook-PreToolUse') finishPromised(sandbox, home);
        const stored = storedIds(home, acked);
        for (const id of acked) if (!stored.has(id)) report.lost.push(`${id} (${target})`);
      }
      if (report.kills >= nextProgress) {
        options.progress(`  ${report.kills}/${options.kills} kills`);
        nextProgress += 100;
      }
      if (report.kills % options.perHome === 0)
        shimHome = sandbox.newShimHome(`kills-${++homeIndex}`);
    }
  };
  await Promise.all(Array.from({ length: options.lanes }, lane));

  // Every acknowledged checkpoint, of every store, once all writers are gone.
  for (const [home, ids] of ackedByHome) {
    finishPromised(sandbox, home);
    const stored = storedIds(home, ids);
    report.stored += stored.size;
    for (const id of ids)
      if (!stored.has(id) && !report.lost.some((l) => l.startsWith(id))) report.lost.push(id);
    report.integrityChecks++;
    const integrity = integrityOf(home);
    if (integrity !== 'ok' && integrity !== 'absent')
      report.integrityFailures.push(`${home} at the end: ${integrity}`);
  }
  report.killDelayP50Ms = percentile(delays, 0.5);
  report.seconds = (performance.now() - started) / 1000;
  return report;
}
