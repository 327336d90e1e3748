/**
 * Checkpoint figures (docs/specification.md, "The store"): build + store on the largest fixture, compressed sizes,
 * most-recent lookup among 100,000 checkpoints, resume detection.
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { withStore } from '../src/app/open-store.ts';
import {
  FIDELITY_PARTS,
  formatShare,
  measureRestoreFidelity,
  MOMENT_PARTS,
  summarizeFidelity,
  type FidelityPoint,
} from '../src/app/evaluation/fidelity.ts';
import type { AgentId } from '../src/core/agent-id.ts';
import { planResume } from '../src/app/restore/plan-resume.ts';
import { assessSession } from '../src/core/context/assess.ts';
import { buildCheckpoint } from '../src/core/checkpoint/build-checkpoint.ts';
import {
  applyCheckpointLimits,
  validateCheckpoint,
} from '../src/core/checkpoint/checkpoint-limits.ts';
import { redactValue } from '../src/redact/redact.ts';
import { CheckpointRepository } from '../src/store/checkpoints/checkpoint-repository.ts';
import { openDatabase, withWriteTransaction } from '../src/store/sqlite/database.ts';
import type { SessionState } from '../src/core/session.ts';
import { readTranscript } from '../src/agents/claude/transcript-reader.ts';
import {
  agentFixturePath,
  fixturePath,
  listAgentFixtures,
  listFixtures,
  listTrainingFixtures,
  makeTempDir,
  gzTrainingFixturePath,
} from '../test/helpers/fixtures.ts';
import { claudeRuleFor } from '../src/agents/claude/threshold.test-helper.ts';
import { ADAPTER, claudeAgent, testAgents } from '../test/helpers/agents.ts';

type Report = (name: string, value: string, note?: string) => void;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function largestFixture(): string {
  return listFixtures()
    .map((name) => ({ name, size: statSync(fixturePath(name)).size }))
    .sort((a, b) => b.size - a.size)[0]!.name;
}

/** Assess, build, redact, limit and validate: what `createCheckpoint` does before storing. */
async function draftFrom(state: SessionState, path: string, id: string) {
  const assessment = assessSession(state, {
    threshold: claudeRuleFor(state),
    now: state.lastActivityAt ?? Date.now(),
  });
  const draft = buildCheckpoint({
    id,
    sessionId: state.sessionId ?? 'bench',
    createdAt: new Date().toISOString(),
    trigger: 'tool_call_interval',
    reason: null,
    state,
    agent: claudeAgent,
    assessment,
    git: null,
    transcriptPath: path,
  });
  const limited = applyCheckpointLimits((await redactValue(draft)).value);
  if (!validateCheckpoint(limited).valid) throw new Error('invalid checkpoint');
  return limited;
}

async function buildDraft(path: string, id: string) {
  const state = readTranscript(path, null).cursor.state;
  return { state, limited: await draftFrom(state, path, id) };
}

const BIN = join(import.meta.dirname, '..', 'bin', 'shim.cjs');

function runCheckpointProcess(path: string, runs: number): { wall: number[]; reported: number[] } {
  const env: NodeJS.ProcessEnv = { ...process.env, SHIM_HOME: makeTempDir('shim-bench-proc-') };
  delete env.NODE_EXTRA_CA_CERTS;
  const wall: number[] = [];
  const reported: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const r = spawnSync(
      process.execPath,
      [BIN, 'checkpoint', '--transcript', path, '--json', '--no-snapshot'],
      { env, encoding: 'utf8' },
    );
    wall.push(performance.now() - start);
    if (r.status !== 0) throw new Error(`shim checkpoint failed: ${r.stderr}`);
    reported.push((JSON.parse(r.stdout) as { durationMs: number }).durationMs);
  }
  return { wall: wall.slice(1), reported: reported.slice(1) };
}

export async function runCheckpointBench(
  report: Report,
  results: Record<string, unknown>,
): Promise<void> {
  const home = makeTempDir('shim-bench-store-');
  const db = openDatabase(home);
  const repo = new CheckpointRepository(db);
  const largest = largestFixture();
  const path = fixturePath(largest);

  // Build + store in a warm process, then the real thing: `shim checkpoint` as a fresh process.
  await buildDraft(path, 'warmup');
  const buildStore: number[] = [];
  const buildOnly: number[] = [];
  const state = readTranscript(path, null).cursor.state;
  for (let i = 0; i < 15; i++) {
    const start = performance.now();
    const limited = await draftFrom(state, path, `bench-${i}`);
    const built = performance.now();
    repo.save(limited);
    buildStore.push(performance.now() - start);
    buildOnly.push(built - start);
  }
  report(
    `checkpoint build + redact + store (${largest.slice(0, 24)}…)`,
    fmt(median(buildStore)),
    `build+redact ${fmt(median(buildOnly))}, modules warm (target < 100 ms)`,
  );
  results.checkpointBuildStoreMs = median(buildStore);
  const processRuns = runCheckpointProcess(path, 7);
  report(
    '`shim checkpoint` as a fresh process',
    fmt(median(processRuns.wall)),
    `its own timing (cold modules, warm cursor) ${fmt(median(processRuns.reported))}`,
  );
  results.checkpointProcessMs = median(processRuns.wall);
  results.checkpointProcessReportedMs = median(processRuns.reported);

  // Compressed sizes over every fixture.
  const sizes: number[] = [];
  for (const name of listFixtures()) {
    const { limited } = await buildDraft(fixturePath(name), `size-${name}`);
    sizes.push(repo.save(limited).size.compressed);
  }
  sizes.sort((a, b) => a - b);
  report(
    'compressed checkpoint size (10 fixtures)',
    kb(median(sizes)),
    `min ${kb(sizes[0]!)}, max ${kb(sizes[sizes.length - 1]!)} (target 10–20 KB, never > 100 KB)`,
  );
  results.compressedSizes = sizes;

  // 100,000 checkpoints: copies of one real row under 2,000 sessions, inserted in bulk.
  const template = db.prepare('SELECT * FROM checkpoints LIMIT 1').get() as Record<string, unknown>;
  const columns = Object.keys(template);
  const insert = db.prepare(
    `INSERT INTO checkpoints (${columns.join(',')}) VALUES (${columns.map(() => '?').join(',')})`,
  );
  const fillStart = performance.now();
  const base = Date.parse('2026-01-01T00:00:00Z');
  for (let batch = 0; batch < 10; batch++) {
    withWriteTransaction(db, () => {
      for (let i = batch * 10_000; i < (batch + 1) * 10_000; i++) {
        const row: Record<string, unknown> = {
          ...template,
          id: `fill-${i}`,
          session_id: `session-${i % 2000}`,
          checkpoint_number: 1000 + i,
          created_at: new Date(base + i * 1000).toISOString(),
          cwd: `/work/project-${i % 50}`,
        };
        insert.run(...columns.map((c) => row[c] as never));
      }
    });
  }
  const total = repo.count();
  const lookups: number[] = [];
  for (let i = 0; i < 200; i++) {
    const start = performance.now();
    repo.getMostRecent(`session-${(i * 37) % 2000}`);
    lookups.push(performance.now() - start);
  }
  const cwdLookups: number[] = [];
  for (let i = 0; i < 50; i++) {
    const start = performance.now();
    repo.getMostRecentForCwd(`/work/project-${i % 50}`);
    cwdLookups.push(performance.now() - start);
  }
  report(
    `most-recent lookup, ${total.toLocaleString('en-US')} checkpoints`,
    fmt(median(lookups)),
    `by cwd ${fmt(median(cwdLookups))}; store filled in ${((performance.now() - fillStart) / 1000).toFixed(1)} s (target < 10 ms)`,
  );
  results.mostRecentLookupMs = median(lookups);
  results.storeRows = total;
  db.close();

  // Resume detection: evidence from the store (and the transcript's later history) + decision.
  const detect: number[] = [];
  await withStore(home, async (store) => {
    const checkpoint = store.checkpoints.getMostRecent('session-7')!;
    for (let i = 0; i < 50; i++) {
      const start = performance.now();
      await planResume(store, checkpoint, home, Date.now(), testAgents);
      detect.push(performance.now() - start);
    }
  });
  report('resume detection (store lookup + decision)', fmt(median(detect)), 'target < 50 ms');
  results.resumeDetectionMs = median(detect);
  results.storeFile = join(home, 'shim.db');

  // Fidelity: what shim's restore carries at every auto compaction and at mid-session cuts of the
  // real sessions (curated + training), beside Claude Code's own summary of the same compaction;
  // then the same of the other agents' real logs.
  results.fidelity = {};
  const logs: Array<[AgentId, string[]]> = [
    [
      'claude',
      [
        ...listFixtures().map((n) => fixturePath(n)),
        ...listTrainingFixtures().map((n) => gzTrainingFixturePath(n)),
      ],
    ],
    ['codex', listAgentFixtures('codex').map((n) => agentFixturePath('codex', n))],
    ['gemini', listAgentFixtures('gemini').map((n) => agentFixturePath('gemini', n))],
  ];
  for (const [agent, paths] of logs) {
    if (paths.length === 0) continue;
    const points: Array<FidelityPoint & { source: string }> = [];
    for (const path of paths) {
      for (const p of await measureRestoreFidelity({ path, agent: ADAPTER[agent] }))
        points.push({ ...p, source: path });
    }
    (results.fidelity as Record<string, unknown>)[agent] = reportFidelity(
      report,
      agent,
      paths.length,
      points,
    );
  }
}

/** One agent's restore fidelity: headline parts, the moment of interruption, the size. */
function reportFidelity(
  report: Report,
  agent: AgentId,
  sessions: number,
  points: Array<FidelityPoint & { source: string }>,
): Record<string, unknown> {
  const fidelity = summarizeFidelity(points);
  const compactions = points.filter((p) => p.kind === 'compaction');
  const atCompactions = summarizeFidelity(compactions);
  const atCuts = summarizeFidelity(points.filter((p) => p.kind === 'cut'));
  report(
    `restore fidelity (${agent}): ${sessions} real sessions, ${compactions.length} auto compactions + ${points.length - compactions.length} crash cuts`,
    `median ${fidelity.medianChars} chars`,
    `max ${fidelity.maxChars} chars; target: median ≤ 8,000`,
  );
  for (const part of FIDELITY_PARTS) {
    report(
      `  ${part}`,
      formatShare(fidelity.shim[part]),
      agent === 'claude'
        ? `at compactions: shim ${formatShare(fidelity.shimAtClaude[part])} vs Claude Code's summary ${formatShare(fidelity.claude[part])}`
        : '',
    );
  }
  const targets: Record<string, string> = {
    lastCommand: '≥ 95%',
    lastCommands: '≥ 90%',
    newestFailure: '≥ 90%',
    requestsWhole: '≥ 99%',
  };
  for (const part of MOMENT_PARTS) {
    report(
      `  ${part}`,
      formatShare(fidelity.moment[part]),
      `compactions ${formatShare(atCompactions.moment[part])}, cuts ${formatShare(atCuts.moment[part])} (target ${targets[part]})`,
    );
  }
  report(
    '  restores echoing raw tool JSON',
    `${fidelity.rawToolJson} of ${fidelity.points}`,
    'a tool input quoted as JSON ({"file_path":…); target 0',
  );
  if (agent === 'claude') {
    for (const n of [1, 2]) {
      const at = summarizeFidelity(compactions.filter((p) => p.compaction === n));
      report(
        `  compaction #${n} (${at.points}): all requests`,
        formatShare(at.shim.requests),
        `first request ${formatShare(at.shim.firstRequest)}; Claude Code: all ${formatShare(at.claude.requests)}, first ${formatShare(at.claude.firstRequest)}`,
      );
    }
  }
  return {
    points: points.length,
    compactions: compactions.length,
    medianChars: fidelity.medianChars,
    maxChars: fidelity.maxChars,
    rawToolJson: fidelity.rawToolJson,
    shim: fidelity.shim,
    moment: fidelity.moment,
    momentAtCompactions: atCompactions.moment,
    momentAtCuts: atCuts.moment,
    shimAtCompactions: fidelity.shimAtClaude,
    claude: fidelity.claude,
  };
}
