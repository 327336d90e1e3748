/**
 * Incremental checkpoints (issue 43 item 1; docs/specification.md, "The store") on the training
 * transcripts: each session replayed, a checkpoint every 5 tool calls (the default
 * `checkpoints.everyToolCalls`, the trigger that takes most of them) built, redacted, limited and
 * stored as the hooks store it — against the previous checkpoint of its session as read back —
 * in a real SQLite store. Printed: bytes per checkpoint and per session stored whole (before)
 * and as chains (after), the cost of making a change and of reading the newest checkpoint back,
 * and that every checkpoint read back, from a store opened afresh, has the very bytes it was
 * built with.
 *
 * Alone: `node --import tsx bench/checkpoint-chains.ts`.
 */
import { randomUUID } from 'node:crypto';
import { assessSession } from '../src/core/context/assess.ts';
import { buildCheckpoint } from '../src/core/checkpoint/build-checkpoint.ts';
import type { Checkpoint, CheckpointDraft } from '../src/core/checkpoint/checkpoint.ts';
import { applyCheckpointLimits } from '../src/core/checkpoint/checkpoint-limits.ts';
import type { SessionState } from '../src/core/session.ts';
import { redactValue } from '../src/redact/redact.ts';
import { readCompressedTranscript } from '../src/agents/claude/transcript-reader.ts';
import { claudeRuleFor } from '../src/agents/claude/threshold.test-helper.ts';
import {
  CheckpointRepository,
  prepareCheckpoint,
} from '../src/store/checkpoints/checkpoint-repository.ts';
import { DEFAULT_CHAIN } from '../src/store/checkpoints/checkpoint-chain.ts';
import { sameState, stateOf } from '../src/store/checkpoints/checkpoint-delta.ts';
import { openDatabase } from '../src/store/sqlite/database.ts';
import {
  gzTrainingFixturePath,
  listTrainingFixtures,
  makeTempDir,
} from '../test/helpers/fixtures.ts';

type Report = (name: string, value: string, note?: string) => void;

const EVERY_TOOL_CALLS = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;

/** The session's states at each checkpoint the interval trigger takes. */
async function checkpointStates(path: string): Promise<SessionState[]> {
  const states: SessionState[] = [];
  let last = 0;
  await readCompressedTranscript(path, {
    onEntry: (_entry, _line, state) => {
      if (state.toolCalls === last || state.toolCalls % EVERY_TOOL_CALLS !== 0) return;
      last = state.toolCalls;
      states.push(structuredClone(state));
    },
  });
  return states;
}

async function draftAt(state: SessionState, path: string, sessionId: string) {
  const now = state.lastActivityAt ?? 0;
  const draft = buildCheckpoint({
    id: randomUUID(),
    sessionId,
    createdAt: new Date(now).toISOString(),
    trigger: 'tool_call_interval',
    reason: null,
    agent: { id: 'claude', name: 'Claude Code' },
    state,
    assessment: assessSession(state, { threshold: claudeRuleFor(state), now }),
    git: null,
    transcriptPath: path,
  });
  return applyCheckpointLimits((await redactValue(draft)).value);
}

export async function runChainBench(
  report: Report,
  results: Record<string, unknown>,
): Promise<void> {
  const home = makeTempDir('shim-bench-chains-');
  const db = openDatabase(home);
  const repo = new CheckpointRepository(db);
  const built = new Map<string, CheckpointDraft>();
  const perSession: Array<{ whole: number; stored: number; count: number }> = [];
  const prepareMs: number[] = [];
  const wholeMs: number[] = [];
  let deltas = 0;
  for (const name of listTrainingFixtures()) {
    const path = gzTrainingFixturePath(name);
    const sessionId = `bench-${name}`;
    let base: Checkpoint | null = null;
    let whole = 0;
    let stored = 0;
    const states = await checkpointStates(path);
    for (const state of states) {
      const draft = await draftAt(state, path, sessionId);
      let start = performance.now();
      prepareCheckpoint(draft);
      wholeMs.push(performance.now() - start);
      start = performance.now();
      prepareCheckpoint(draft, base, DEFAULT_CHAIN);
      prepareMs.push(performance.now() - start);
      const saved = repo.save(draft, { base, chain: DEFAULT_CHAIN });
      whole += saved.size.compressed;
      stored += saved.size.stored;
      if (saved.size.stored < saved.size.compressed) deltas++;
      built.set(draft.id, draft);
      base = repo.getById(draft.id);
    }
    if (states.length > 0) perSession.push({ whole, stored, count: states.length });
  }
  db.close();

  // Every checkpoint back, from the store opened afresh: byte for byte the state it was built with.
  const again = openDatabase(home);
  const reread = new CheckpointRepository(again);
  let exact = 0;
  const readMs: number[] = [];
  for (const [id, draft] of built) {
    const start = performance.now();
    const read = reread.getById(id);
    readMs.push(performance.now() - start);
    if (read?.id === id && sameState(stateOf(read), stateOf(draft))) exact++;
  }
  const chains = reread.checkChains(10_000);
  again.close();

  const count = built.size;
  const wholeBytes = sum(perSession.map((s) => s.whole));
  const storedBytes = sum(perSession.map((s) => s.stored));
  report(
    `checkpoint chains: ${perSession.length} training sessions, ${count} checkpoints`,
    `${exact}/${count} exact`,
    `read back from a store opened afresh, byte for byte the state built; ${deltas} stored as changes; chains broken: ${chains.broken.length}`,
  );
  report(
    '  bytes per checkpoint: whole → as a change',
    `${kb(wholeBytes / count)} → ${kb(storedBytes / count)}`,
    `${(wholeBytes / storedBytes).toFixed(2)}× less (a whole one at least every ${DEFAULT_CHAIN.fullEvery + 1})`,
  );
  report(
    '  bytes per session (median): whole → chained',
    `${kb(median(perSession.map((s) => s.whole)))} → ${kb(median(perSession.map((s) => s.stored)))}`,
    `total ${kb(wholeBytes)} → ${kb(storedBytes)}; median ${median(perSession.map((s) => s.count))} checkpoints a session`,
  );
  report(
    '  storing: compress vs compress + change',
    `${median(wholeMs).toFixed(2)} → ${median(prepareMs).toFixed(2)} ms`,
    `median per checkpoint, warm; reading one back (rebuilt, hash checked) ${median(readMs).toFixed(2)} ms, p90 ${[...readMs].sort((a, b) => a - b)[Math.floor(readMs.length * 0.9)]?.toFixed(2)} ms`,
  );
  results.checkpointChains = {
    sessions: perSession.length,
    checkpoints: count,
    exact,
    deltas,
    broken: chains.broken.length,
    bytesPerCheckpoint: { whole: wholeBytes / count, stored: storedBytes / count },
    bytesPerSessionMedian: {
      whole: median(perSession.map((s) => s.whole)),
      stored: median(perSession.map((s) => s.stored)),
    },
    prepareMs: { whole: median(wholeMs), chained: median(prepareMs) },
    readMs: median(readMs),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report: Report = (name, value, note = '') =>
    process.stdout.write(`  ${name.padEnd(46)} ${value.padStart(14)}  ${note}\n`);
  await runChainBench(report, {});
}
