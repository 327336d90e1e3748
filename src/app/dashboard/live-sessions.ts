/**
 * The dashboard's first page: every session running now, as the hooks would assess it at this
 * moment — context against the threshold with the L1–L3 bands, the forecast's range, the crash
 * risk, the newest checkpoint's age, the issue. A session is live while its transcript or its
 * hooks' memory changed recently, it has no recorded end, and (when the hooks recorded the
 * agent's process) that process is still there. Each transcript is read through the cursor
 * cache the hooks keep, so a poll reads only what was appended since the last one.
 * @module
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { CrashRisk } from '../../core/context/risk.ts';
import type { Level, LevelThresholds } from '../../core/context/level.ts';
import { safeFileName } from '../../core/fnv-hash.ts';
import type { SessionState } from '../../core/session.ts';
import type { Agents } from '../../agents/agent.ts';
import type { AgentId } from '../../core/agent-id.ts';
import { loadConfig } from '../../store/config/config.ts';
import { loadHookMemory } from '../../store/cache/hook-memory.ts';
import { assessLiveSession } from '../session/assess-live-session.ts';
import { withStore } from '../open-store.ts';
import { findInheritedGoals } from './lineage-view.ts';
import { isSessionAgentGone } from './agent-gone.ts';
import { loadSessionState } from '../session/read-session.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** Quiet longer than this, a session is no longer counted as running. */
export const LIVE_WINDOW_MS = 15 * 60 * 1000;
const GOAL_CHARS = 140;

export type LiveSession = {
  id: string;
  agent: AgentId;
  project: string | null;
  /** What the session works on: its first request, or what it inherited. */
  goal: string | null;
  model: string | null;
  contextTokens: number;
  compactThreshold: number;
  windowTokens: number;
  /** contextTokens / compactThreshold × 100. */
  percent: number;
  level: Level;
  levels: LevelThresholds;
  risk: CrashRisk;
  autoCompact: boolean;
  /** The forecast's further responses before compaction, and its 80% range. */
  turns: number | null;
  turnsLow: number | null;
  turnsHigh: number | null;
  compactions: number;
  lastCheckpointAt: string | null;
  issue: string | null;
  lastActivityAt: string;
  /** Changes whenever something the gauge shows may have changed (size and time of its files). */
  signature: string;
};

export type LiveCandidate = {
  id: string;
  agent: AgentId;
  path: string;
  signature: string;
  lastActivityMs: number;
};

export type LiveRequest = { home: string; env: Env; now: number; agents: Agents };

function mtimeOf(path: string): { size: number; mtimeMs: number } | null {
  try {
    const s = statSync(path);
    return { size: s.size, mtimeMs: s.mtimeMs };
  } catch {
    return null;
  }
}

/**
 * Sessions that may be running: recent transcripts without a recorded end whose agent is not
 * known to be gone. Cheap (stat calls and the hooks' small memory files): polled every second.
 */
export async function findLiveCandidates(request: LiveRequest): Promise<LiveCandidate[]> {
  const { home, env, now } = request;
  // Every agent's session logs: Claude Code's transcripts, Codex rollouts, Gemini chats.
  const recent: Array<{ sessionId: string; path: string; mtimeMs: number; agent: AgentId }> = [];
  for (const id of request.agents.ids) {
    const agent = await request.agents.agent(id);
    for (const file of agent.sessions.all(env))
      if (now - file.mtimeMs <= LIVE_WINDOW_MS) recent.push({ ...file, agent: id });
  }
  if (recent.length === 0) return [];
  const ended = await withStore(home, (store) => {
    const out = new Map<string, number>();
    for (const s of store.sessions.list())
      if (s.endedAt) out.set(s.sessionId, Date.parse(s.endedAt));
    return out;
  });
  const candidates: LiveCandidate[] = [];
  for (const file of recent) {
    const endedAt = ended.get(file.sessionId);
    // A recorded end after the last write: the session is over (a resumed one writes again).
    if (endedAt !== undefined && endedAt >= file.mtimeMs - 1_000) continue;
    const memoryPath = join(home, 'cache', 'hooks', `${safeFileName(file.sessionId)}.json`);
    const memoryStat = mtimeOf(memoryPath);
    const transcript = mtimeOf(file.path);
    if (!transcript) continue;
    // The agent's process gone and nothing written for a while: it crashed (a session still
    // writing counts as running whatever the process table says).
    const quietMs = now - Math.max(transcript.mtimeMs, memoryStat?.mtimeMs ?? 0);
    if (memoryStat && isSessionAgentGone(home, file.sessionId, quietMs)) continue;
    candidates.push({
      id: file.sessionId,
      agent: file.agent,
      path: file.path,
      signature: `${transcript.size}:${transcript.mtimeMs}:${memoryStat?.mtimeMs ?? 0}`,
      lastActivityMs: Math.max(transcript.mtimeMs, memoryStat?.mtimeMs ?? 0),
    });
  }
  return candidates;
}

function goalOf(state: SessionState): string | null {
  const text = state.firstPrompt?.text ?? state.requestLog[0]?.text ?? null;
  return text === null ? null : text.replace(/\s+/g, ' ').trim().slice(0, GOAL_CHARS);
}

/**
 * Gauges already assessed, by session, with the signature they were assessed at: a page load
 * or poll re-assesses only the sessions whose files changed since (a long-running `shim ui`
 * keeps at most this many).
 */
const assessed = new Map<string, LiveSession & { home: string }>();
const ASSESSED_KEPT = 500;

/** The gauges of the given candidates, as the hooks would assess each now. */
export async function assessLiveCandidates(
  request: LiveRequest,
  candidates: readonly LiveCandidate[],
): Promise<LiveSession[]> {
  const known = candidates.flatMap((c) => {
    const seen = assessed.get(`${request.home}\0${c.id}`);
    return seen && seen.signature === c.signature && seen.home === request.home ? [seen] : [];
  });
  const fresh = await assessChanged(
    request,
    candidates.filter((c) => !known.some((k) => k.id === c.id)),
  );
  for (const session of fresh) {
    const key = `${request.home}\0${session.id}`;
    assessed.delete(key);
    assessed.set(key, session);
  }
  while (assessed.size > ASSESSED_KEPT) assessed.delete(assessed.keys().next().value!);
  // The session nearest to compaction first.
  return [...known, ...fresh]
    .map(({ home: _home, ...session }) => session)
    .sort((x, y) => y.percent - x.percent || x.id.localeCompare(y.id));
}

async function assessChanged(
  request: LiveRequest,
  candidates: readonly LiveCandidate[],
): Promise<Array<LiveSession & { home: string }>> {
  if (candidates.length === 0) return [];
  const { home, env, now } = request;
  const config = await loadConfig(home);
  const { newest, inherited } = await withStore(home, (store) => ({
    newest: store.dashboard.newestCheckpointBySession(candidates.map((c) => c.id)),
    inherited: findInheritedGoals(
      store,
      candidates.map((c) => c.id),
    ),
  }));
  const out: Array<LiveSession & { home: string }> = [];
  for (const candidate of candidates) {
    const agent = await request.agents.agent(candidate.agent);
    let state: SessionState;
    try {
      state = await loadSessionState(candidate.path, home, agent);
    } catch {
      continue;
    }
    const checkpointAt = newest.get(candidate.id) ?? null;
    const memory = loadHookMemory(home, candidate.id);
    const a = assessLiveSession(agent, state, {
      home,
      env,
      now,
      config,
      // What the hooks count since their newest checkpoint, as they assess it themselves.
      toolCallsAtCheckpoint: memory.lastCheckpointAt !== null ? memory.toolCallsAtCheckpoint : null,
    });
    out.push({
      id: candidate.id,
      agent: candidate.agent,
      project: state.cwd,
      goal: inherited.get(candidate.id) ?? goalOf(state),
      model: state.model,
      contextTokens: a.contextTokens,
      compactThreshold: a.compactThreshold,
      windowTokens: a.windowTokens,
      percent: a.percent,
      level: a.level,
      levels: config.levels,
      risk: a.risk,
      autoCompact: a.autoCompact,
      turns: a.forecast.turnsToCompact,
      turnsLow: a.forecast.turnsToCompactLow,
      turnsHigh: a.forecast.turnsToCompactHigh,
      compactions: state.compactionCount,
      lastCheckpointAt:
        checkpointAt ??
        (memory.lastCheckpointAt ? new Date(memory.lastCheckpointAt).toISOString() : null),
      issue: memory.issue ?? null,
      lastActivityAt: new Date(candidate.lastActivityMs).toISOString(),
      signature: candidate.signature,
      home,
    });
  }
  return out;
}

export async function listLiveSessions(request: LiveRequest): Promise<LiveSession[]> {
  return assessLiveCandidates(request, await findLiveCandidates(request));
}
