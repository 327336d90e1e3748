/**
 * Restore fidelity: what shim's restore carries into the next session, measured on a real
 * session log (Claude Code, Codex or Gemini, read through its agent's adapter) at every auto
 * compaction (beside Claude Code's own summary of that compaction) and at cut points
 * mid-session (where a crash would have stopped it).
 *
 * Two sets of parts are scored in the text that would be injected. The headline parts — the
 * session's first request, its newest request, every request, the recently changed files and the
 * open tasks — as core/resume/carried-items.ts says. The moment of interruption — the last
 * command, the last 5 distinct commands, the newest failure, every request of at most 1,500
 * characters whole — against what the log itself says (moment-truth.ts).
 * @module
 */
import { assessSession } from '../../core/context/assess.ts';
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
import { renderRestore } from '../../core/resume/resume-prompt.ts';
import { restoreTargetOf } from '../restore/restore-target.ts';
import type { SessionState } from '../../core/session.ts';
import type { AgentAdapter } from '../../agents/agent.ts';
import type { SessionLog } from '../session/session-log.ts';
import {
  MOMENT_PARTS,
  MomentTracker,
  momentItems,
  echoesRawToolJson,
  scoreMoment,
  type MomentPart,
  type MomentScores,
} from './moment-truth.ts';

/** The parts and their scoring are core/resume/carried-items.ts's, which `shim stats` uses too. */
export const FIDELITY_PARTS = CARRIED_PARTS;
export type FidelityPart = CarriedPart;
export type FidelityScore = CarriedScore;
export type PartScores = CarriedScores;

export { MOMENT_PARTS, type MomentPart };

export type FidelityPoint = {
  /** `compaction`: just before an auto compaction; `cut`: a mid-session stop. */
  kind: 'compaction' | 'cut';
  /** The transcript line the state reflects. */
  line: number;
  /** 1-based number of the compaction in the session (compaction points only). */
  compaction: number | null;
  shim: PartScores;
  /** The moment of interruption in shim's restore. */
  moment: MomentScores;
  /** The restore echoes a tool's raw JSON input (moment-truth.ts echoesRawToolJson): never wanted. */
  rawToolJson: boolean;
  /** Claude Code's own summary of this compaction (compaction points with a summary only). */
  claude: PartScores | null;
  shimChars: number;
  claudeChars: number | null;
  /** The restore itself (with `keepText`). */
  text?: string;
};

export type FidelityOptions = {
  /** A hard limit below the agent's hook text limit (the restore's own, as it is injected). */
  maxChars?: number;
  /** Fractions of the transcript's lines where a crash is simulated. */
  cuts?: readonly number[];
  /** Recently changed files scored: the newest N. */
  recentFiles?: number;
  /** Keep each restore's text on its point (to read what was scored). */
  keepText?: boolean;
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

function checkpointAt(
  state: SessionState,
  { path, agent }: SessionLog,
  interrupted: boolean,
): Checkpoint {
  const now = state.lastActivityAt ?? 0;
  // A bare judgment: the session's agent's rule over its own log, nothing of this machine.
  const threshold = agent.threshold
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
        agent,
        assessment,
        git: null,
        transcriptPath: path,
        interrupted,
      }),
    ),
    checkpointNumber: 1,
  };
}

function detection(reason: 'compaction' | 'crash', agentName: string): ResumeDetection {
  return {
    shouldResume: true,
    lastCheckpointId: 'fidelity',
    interruptionReason: reason,
    timeSinceInterruption: 0,
    confidence: 1,
    explanation: reason === 'compaction' ? `${agentName} compacted the session.` : 'It died.',
  };
}

function readAll(
  { path, agent }: SessionLog,
  onEntry?: (entry: unknown, line: number, state: SessionState) => void,
): Promise<SessionState> | SessionState {
  const options = onEntry ? { onEntry } : {};
  return agent.log.isCompressed(path)
    ? agent.log.readCompressed(path, options)
    : agent.log.read(path, null, options).cursor.state;
}

/** A session log and its agent's whole adapter: its `moments` say what the log holds. */
export type ScoredLog = { path: string; agent: AgentAdapter };

/** Scores the restore at every auto compaction of the log and at the cut points. */
export async function measureRestoreFidelity(
  log: ScoredLog,
  options: FidelityOptions = {},
): Promise<FidelityPoint[]> {
  const target = restoreTargetOf(log.agent);
  const recentFiles = options.recentFiles ?? 10;
  // A first pass finds where the auto compactions are, and how long the session is.
  const final = await readAll(log);
  const boundaries = new Set(
    final.compactions.filter((c) => c.trigger === 'auto').map((c) => c.line),
  );
  const cuts = new Set(
    (options.cuts ?? [0.25, 0.5, 0.75]).map((f) => Math.max(1, Math.round(final.parse.lines * f))),
  );
  const points: FidelityPoint[] = [];
  const moment = new MomentTracker(log.agent.moments);
  const requests: string[] = [];
  let promptsSeen = 0;
  type Seen = {
    state: SessionState;
    moment: ReturnType<MomentTracker['truth']>;
    requests: string[];
  };
  let before: Seen | null = null;
  let awaiting: { point: FidelityPoint; state: SessionState } | null = null;
  let compactions = 0;
  const restore = (state: SessionState, kind: 'compaction' | 'cut') =>
    renderRestore({
      checkpoint: checkpointAt(state, log, kind === 'cut'),
      detection: detection(kind === 'cut' ? 'crash' : 'compaction', log.agent.name),
      target,
      ...(options.maxChars !== undefined ? { maxChars: options.maxChars } : {}),
    });
  const seen = (state: SessionState): Seen => ({
    state: structuredClone(state),
    moment: moment.truth(),
    requests: [...requests],
  });
  const score = (at: Seen, kind: 'compaction' | 'cut', line: number): FidelityPoint => {
    const prompt = restore(at.state, kind);
    return {
      kind,
      line,
      compaction: kind === 'compaction' ? compactions : null,
      shim: scoreCarriedItems(prompt, itemsAt(at.state, recentFiles)),
      moment: scoreMoment(prompt, momentItems(at.moment, at.requests)),
      rawToolJson: echoesRawToolJson(prompt, at.moment.inputKeys),
      claude: null,
      shimChars: prompt.length,
      claudeChars: null,
      ...(options.keepText ? { text: prompt } : {}),
    };
  };
  await readAll(log, (entry, line, state) => {
    // The state as the compaction began: the entry just before its boundary.
    const boundary = boundaries.has(line);
    if (!boundary) {
      moment.see(entry);
      if (state.promptCount > promptsSeen) {
        promptsSeen = state.promptCount;
        const newest = state.prompts[state.prompts.length - 1];
        if (newest) requests.push(newest.text);
      }
    }
    if (boundaries.has(line + 1)) before = seen(state);
    if (boundary) {
      compactions++;
      const at = before ?? seen(state);
      const point = score(at, 'compaction', line - 1);
      points.push(point);
      awaiting = { point, state: at.state };
      before = null;
    } else if (isCompactSummary(entry) && awaiting !== null) {
      const text = (entry as { text?: string | null }).text ?? '';
      awaiting.point.claude = scoreCarriedItems(text, itemsAt(awaiting.state, recentFiles));
      awaiting.point.claudeChars = text.length;
      awaiting = null;
    }
    if (cuts.has(line) && state.promptCount > 0) points.push(score(seen(state), 'cut', line));
  });
  return points;
}

/** Claude Code's summary of a compaction, the user entry right after its boundary. */
function isCompactSummary(entry: unknown): boolean {
  return (
    typeof entry === 'object' &&
    entry !== null &&
    (entry as { kind?: unknown }).kind === 'user' &&
    (entry as { isCompactSummary?: unknown }).isCompactSummary === true
  );
}

export type FidelityTotals = Record<FidelityPart, { found: number; total: number }>;
export type MomentTotals = Record<MomentPart, { found: number; total: number }>;

export type FidelitySummary = {
  points: number;
  shim: FidelityTotals;
  /** Claude Code's summaries, at the compaction points that have one. */
  claude: FidelityTotals;
  /** The same compaction points scored for shim, for a side-by-side comparison. */
  shimAtClaude: FidelityTotals;
  /** The moment of interruption, over every point. */
  moment: MomentTotals;
  medianChars: number;
  maxChars: number;
  /** Restores that echo a tool's raw JSON input (the complaint; 0 wanted). */
  rawToolJson: number;
  /** Every item shim missed, with where. */
  missing: string[];
};

function emptyTotals(): FidelityTotals {
  return Object.fromEntries(
    FIDELITY_PARTS.map((p) => [p, { found: 0, total: 0 }]),
  ) as FidelityTotals;
}

function emptyMoment(): MomentTotals {
  return Object.fromEntries(MOMENT_PARTS.map((p) => [p, { found: 0, total: 0 }])) as MomentTotals;
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
  const moment = emptyMoment();
  const missing: string[] = [];
  for (const p of points) {
    add(shim, p.shim);
    for (const part of MOMENT_PARTS) {
      moment[part].found += p.moment[part].found;
      moment[part].total += p.moment[part].total;
      for (const m of p.moment[part].missing)
        missing.push(`${p.source ?? ''}:${p.line} (${p.kind}) ${part} ${m.slice(0, 80)}`);
    }
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
    moment,
    medianChars: chars.length ? chars[Math.floor((chars.length - 1) / 2)]! : 0,
    maxChars: chars.length ? chars[chars.length - 1]! : 0,
    rawToolJson: points.filter((p) => p.rawToolJson).length,
    missing: [...new Set(missing)],
  };
}

/** "99.2% (1234/1244)" */
export function formatShare(t: { found: number; total: number }): string {
  const pct = t.total === 0 ? 100 : (t.found / t.total) * 100;
  return `${pct.toFixed(1)}% (${t.found}/${t.total})`;
}
