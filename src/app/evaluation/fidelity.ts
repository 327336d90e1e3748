/**
 * Restore fidelity: what shim's restore carries into the next session, measured on a real
 * transcript at every auto compaction (beside Claude Code's own summary of that compaction) and
 * at cut points mid-session (where a crash would have stopped it). Five parts are scored — the
 * session's first request, its newest request, every request, the recently changed files and
 * the open tasks — each as found / total in the text that would be injected, scored as
 * core/resume/carried-items.ts says.
 * @module
 */
import { assessSession } from '../../core/context/assess.ts';
import { thresholdRulesFor } from '../session/load-agent.ts';
import { buildCheckpoint } from '../../core/checkpoint/build-checkpoint.ts';
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import { applyCheckpointLimits } from '../../core/checkpoint/checkpoint-limits.ts';
import {
  CARRIED_PARTS,
  carriedItems,
  scoreCarriedItems,
  type CarriedItems,
  type CarriedPart,
  type CarriedScore,
  type CarriedScores,
} from '../../core/resume/carried-items.ts';
import type { ResumeDetection } from '../../core/resume/resume.ts';
import { renderResumePrompt } from '../../core/resume/resume-prompt.ts';
import type { SessionState } from '../../core/session.ts';
import {
  readCompressedTranscript,
  readTranscript,
  type TranscriptReadOptions as ReadOptions,
} from '../../agents/claude/transcript-reader.ts';
import { isCompressed } from '../../agents/claude/transcript-reader.ts';

/** The parts and their scoring are core/resume/carried-items.ts's, which `shim stats` uses too. */
export const FIDELITY_PARTS = CARRIED_PARTS;
export type FidelityPart = CarriedPart;
export type FidelityScore = CarriedScore;
export type PartScores = CarriedScores;

export type FidelityPoint = {
  /** `compaction`: just before an auto compaction; `cut`: a mid-session stop. */
  kind: 'compaction' | 'cut';
  /** The transcript line the state reflects. */
  line: number;
  /** 1-based number of the compaction in the session (compaction points only). */
  compaction: number | null;
  shim: PartScores;
  /** Claude Code's own summary of this compaction (compaction points with a summary only). */
  claude: PartScores | null;
  shimChars: number;
  claudeChars: number | null;
};

export type FidelityOptions = {
  /** Characters the restore may use: the hook output limit by default, as it is injected. */
  maxChars: number;
  /** Fractions of the transcript's lines where a crash is simulated. */
  cuts?: readonly number[];
  /** Recently changed files scored: the newest N. */
  recentFiles?: number;
};

/** What the session itself knew at this point: the truth a restore is scored against. */
function itemsAt(state: SessionState, recentFiles: number): CarriedItems {
  return carriedItems(
    {
      requests: state.requestLog.map((r) => r.text),
      files: state.filesChanged,
      tasks:
        state.tasks.length > 0
          ? state.tasks.map((t) => ({
              content: t.subject || t.description || '',
              status: t.status,
            }))
          : state.todos,
    },
    recentFiles,
  );
}

function checkpointAt(state: SessionState, path: string, interrupted: boolean): Checkpoint {
  const now = state.lastActivityAt ?? 0;
  // A bare judgment: the session's agent's rule over its own log, nothing of this machine.
  const threshold = thresholdRulesFor(state)
    .prepare(state, {
      env: {},
      home: null,
      now,
      history: 'none',
      inside: null,
      reportedWindow: null,
    })
    .threshold(state);
  const assessment = assessSession(state, { threshold, now });
  return {
    ...applyCheckpointLimits(
      buildCheckpoint({
        id: 'fidelity',
        sessionId: state.sessionId ?? 'fidelity',
        createdAt: new Date(now).toISOString(),
        trigger: interrupted ? 'crash_recovery' : 'pre_compact',
        reason: null,
        state,
        assessment,
        git: null,
        transcriptPath: path,
        interrupted,
      }),
    ),
    checkpointNumber: 1,
  };
}

function detection(reason: 'compaction' | 'crash'): ResumeDetection {
  return {
    shouldResume: true,
    lastCheckpointId: 'fidelity',
    interruptionReason: reason,
    timeSinceInterruption: 0,
    confidence: 1,
    explanation: reason === 'compaction' ? 'Claude Code compacted the session.' : 'It died.',
  };
}

function readAll(path: string, options: ReadOptions): Promise<SessionState> | SessionState {
  return isCompressed(path)
    ? readCompressedTranscript(path, options)
    : readTranscript(path, null, options).cursor.state;
}

/** Scores the restore at every auto compaction of `path` and at the cut points. */
export async function measureRestoreFidelity(
  path: string,
  options: FidelityOptions,
): Promise<FidelityPoint[]> {
  const recentFiles = options.recentFiles ?? 10;
  // A first pass finds where the auto compactions are, and how long the session is.
  const final = await readAll(path, {});
  const boundaries = new Set(
    final.compactions.filter((c) => c.trigger === 'auto').map((c) => c.line),
  );
  const cuts = new Set(
    (options.cuts ?? [0.25, 0.5, 0.75]).map((f) => Math.max(1, Math.round(final.parse.lines * f))),
  );
  const points: FidelityPoint[] = [];
  let before: SessionState | null = null;
  let awaiting: { point: FidelityPoint; state: SessionState } | null = null;
  let compactions = 0;
  const restore = (state: SessionState, kind: 'compaction' | 'cut') =>
    renderResumePrompt(
      checkpointAt(state, path, kind === 'cut'),
      detection(kind === 'cut' ? 'crash' : 'compaction'),
      { maxChars: options.maxChars },
    );
  await readAll(path, {
    onEntry: (entry, line, state) => {
      // The state as the compaction began: the entry just before its boundary.
      if (boundaries.has(line + 1)) before = structuredClone(state);
      if (entry.kind === 'compact' && boundaries.has(line)) {
        compactions++;
        const at = before ?? structuredClone(state);
        const prompt = restore(at, 'compaction');
        const point: FidelityPoint = {
          kind: 'compaction',
          line: line - 1,
          compaction: compactions,
          shim: scoreCarriedItems(prompt, itemsAt(at, recentFiles)),
          claude: null,
          shimChars: prompt.length,
          claudeChars: null,
        };
        points.push(point);
        awaiting = { point, state: at };
        before = null;
      } else if (entry.kind === 'user' && entry.isCompactSummary && awaiting !== null) {
        const text = entry.text ?? '';
        awaiting.point.claude = scoreCarriedItems(text, itemsAt(awaiting.state, recentFiles));
        awaiting.point.claudeChars = text.length;
        awaiting = null;
      }
      if (cuts.has(line) && state.promptCount > 0) {
        const snapshot = structuredClone(state);
        const prompt = restore(snapshot, 'cut');
        points.push({
          kind: 'cut',
          line,
          compaction: null,
          shim: scoreCarriedItems(prompt, itemsAt(snapshot, recentFiles)),
          claude: null,
          shimChars: prompt.length,
          claudeChars: null,
        });
      }
    },
  });
  return points;
}

export type FidelityTotals = Record<FidelityPart, { found: number; total: number }>;

export type FidelitySummary = {
  points: number;
  shim: FidelityTotals;
  /** Claude Code's summaries, at the compaction points that have one. */
  claude: FidelityTotals;
  /** The same compaction points scored for shim, for a side-by-side comparison. */
  shimAtClaude: FidelityTotals;
  medianChars: number;
  maxChars: number;
  /** Every item shim missed, with where. */
  missing: string[];
};

function emptyTotals(): FidelityTotals {
  return Object.fromEntries(
    FIDELITY_PARTS.map((p) => [p, { found: 0, total: 0 }]),
  ) as FidelityTotals;
}

function add(totals: FidelityTotals, scores: PartScores): void {
  for (const part of FIDELITY_PARTS) {
    totals[part].found += scores[part].found;
    totals[part].total += scores[part].total;
  }
}

/** Totals over points (from any number of transcripts), labelled for the misses. */
export function summarizeFidelity(
  points: ReadonlyArray<FidelityPoint & { source?: string }>,
): FidelitySummary {
  const shim = emptyTotals();
  const claude = emptyTotals();
  const shimAtClaude = emptyTotals();
  const missing: string[] = [];
  for (const p of points) {
    add(shim, p.shim);
    if (p.claude) {
      add(claude, p.claude);
      add(shimAtClaude, p.shim);
    }
    for (const part of FIDELITY_PARTS) {
      for (const m of p.shim[part].missing) {
        missing.push(`${p.source ?? ''}:${p.line} (${p.kind}) ${part} ${m}`);
      }
    }
  }
  const chars = points.map((p) => p.shimChars).sort((a, b) => a - b);
  return {
    points: points.length,
    shim,
    claude,
    shimAtClaude,
    medianChars: chars.length ? chars[Math.floor((chars.length - 1) / 2)]! : 0,
    maxChars: chars.length ? chars[chars.length - 1]! : 0,
    missing: [...new Set(missing)],
  };
}

/** "99.2% (1234/1244)" */
export function formatShare(t: { found: number; total: number }): string {
  const pct = t.total === 0 ? 100 : (t.found / t.total) * 100;
  return `${pct.toFixed(1)}% (${t.found}/${t.total})`;
}
