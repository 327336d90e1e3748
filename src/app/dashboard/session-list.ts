/**
 * The dashboard's session list: every session the store knows and every transcript under Claude
 * Code's projects folder, newest first, with what each one's transcript says (model, version,
 * peak context, compactions) from the cursor cache the hooks keep — read and cached here when a
 * small transcript has none, left unknown for a large one until its timeline is opened.
 * @module
 */
import { statSync } from 'node:fs';
import type { SessionState } from '../../core/session.ts';
import type { Agent, Agents } from '../../agents/agent.ts';
import { loadCursor } from '../../store/cache/cursor-cache.ts';
import { agentNamed, readLogCwd } from '../session/session-log.ts';
import { withStore, type Store } from '../open-store.ts';
import { loadSessionState } from '../session/read-session.ts';
import { searchCheckpoints } from '../checkpoint/search-checkpoints.ts';
import { isSessionAgentGone } from './agent-gone.ts';

type Env = Readonly<Record<string, string | undefined>>;

export type SessionEnding =
  'still running' | 'ended' | 'handed off' | 'compacted' | 'crashed' | 'unknown';

/** Quiet this long without an end recorded, a session is taken for stopped. */
const RUNNING_WITHIN_MS = 30 * 60_000;

/**
 * How a session ended: a recorded end (`SessionEnd`, whatever Claude Code's reason code —
 * "other", "prompt_input_exit" — says) is "ended", or "handed off" when shim wrote a handoff for
 * the next session; without one, "still running" while it is recent and its agent is not known
 * to be gone (agent-gone.ts, as the Now board asks), else "compacted" when its last event was a
 * compaction, else "crashed".
 */
export function sessionEnding(row: {
  ended: SessionRow['ended'];
  lastActivityAt: string | null;
  handedOff: boolean;
  endedByCompaction: boolean;
  /** The hooks recorded its agent's process and that process is gone (a kill -9). */
  agentGone: boolean;
  now: number;
}): SessionEnding {
  if (row.ended === 'clean') return row.handedOff ? 'handed off' : 'ended';
  const last = row.lastActivityAt === null ? null : Date.parse(row.lastActivityAt);
  if (last !== null && row.now - last < RUNNING_WITHIN_MS && !row.agentGone) return 'still running';
  if (row.endedByCompaction) return 'compacted';
  if (row.handedOff) return 'handed off';
  return row.ended === 'unknown' && last === null ? 'unknown' : 'crashed';
}

/** A first request that only says to go on ("continue", "go on", "resume"): no title of its own. */
const GO_ON = /^\s*(?:continue|go on|keep going|resume|carry on|proceed)\b[\s.!]*$/i;

export type SessionRow = {
  id: string;
  project: string | null;
  /** ISO times; null when nothing says. */
  startedAt: string | null;
  lastActivityAt: string | null;
  model: string | null;
  cliVersion: string | null;
  /** The agent whose session it is (the store's row, else the agent whose sessions hold the log). */
  agent: string;
  /** The largest context the transcript shows (tokens); null until it has been read. */
  peakContext: number | null;
  compactions: number | null;
  checkpoints: number;
  restores: number;
  /** clean: a recorded session end; open: none yet; unknown: the store never saw it. */
  ended: 'clean' | 'open' | 'unknown';
  endReason: string | null;
  /** How it ended, in words users know. */
  ending: SessionEnding;
  /** The session's first request, shortened. */
  title: string | null;
  hasTranscript: boolean;
};

export type SessionListRequest = {
  home: string;
  env: Env;
  agents: Agents;
  /** Only sessions whose working directory is this one. */
  project?: string;
  /** Only sessions with a checkpoint matching these words (the search of `shim search`). */
  query?: string;
  /** Rows to return (newest first); default 200. */
  limit?: number;
  /** What "still running" is judged against (ms); default now. */
  now?: number;
};

export type SessionList = {
  sessions: SessionRow[];
  /** Sessions that matched before the limit. */
  total: number;
  projects: string[];
  /** Why a search matched each session: one line around the best match. */
  snippets: Record<string, string>;
};

/**
 * Uncached transcripts are read for the list, newest first, until this many bytes have been
 * read in one request; the rest show their figures once read (opening a timeline, a later list).
 */
const READ_FOR_LIST_BYTES = 64_000_000;
const TITLE_CHARS = 120;

function peakOf(state: SessionState): number {
  let peak = 0;
  for (const c of state.compactions)
    peak = Math.max(peak, c.preTokens ?? 0, c.lastContextTokens ?? 0);
  for (const r of state.responses) peak = Math.max(peak, r.contextTokens);
  return Math.max(peak, state.lastResponse?.contextTokens ?? 0);
}

/**
 * The folded state of a transcript: cached, else read and cached while `budget` (bytes left to
 * read in this request) allows.
 */
async function transcriptState(
  home: string,
  path: string,
  agent: Agent,
  budget: { bytes: number },
): Promise<SessionState | null> {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    return null;
  }
  const cached = loadCursor(home, path);
  const unread = size - (cached?.offset ?? 0);
  if (cached && (unread <= 0 || unread > budget.bytes)) return cached.state;
  if (unread > budget.bytes) return null;
  budget.bytes -= unread;
  try {
    return await loadSessionState(path, home, agent);
  } catch {
    return cached?.state ?? null;
  }
}

/** The first request the parent session's newest checkpoint holds (its goal). */
function inheritedGoal(store: Store, sessionId: string): string | null {
  try {
    const checkpoint = store.checkpoints.getMostRecent(sessionId);
    const requests = checkpoint?.conversationState.userRequests ?? [];
    return requests.find((r) => !GO_ON.test(r)) ?? null;
  } catch {
    return null;
  }
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export async function listDashboardSessions(request: SessionListRequest): Promise<SessionList> {
  const { home, env } = request;
  const now = request.now ?? Date.now();
  const { stored, counts, facts, matches } = await withStore(home, (store) => ({
    stored: store.sessions.list(),
    counts: store.dashboard.countBySession(),
    facts: store.dashboard.sessionFacts(),
    matches: request.query?.trim()
      ? searchCheckpoints(store, { query: request.query, scope: 'all', cwd: '/', limit: 50 })
      : null,
  }));
  const rows = new Map<string, SessionRow & { path: string | null; inherited: string | null }>();
  for (const s of stored) {
    const count = counts.get(s.sessionId) ?? { checkpoints: 0, restores: 0 };
    rows.set(s.sessionId, {
      id: s.sessionId,
      project: s.cwd,
      startedAt: s.startedAt,
      lastActivityAt: s.lastSeenAt,
      model: s.model,
      cliVersion: s.cliVersion,
      agent: s.agent,
      peakContext: null,
      compactions: null,
      ...count,
      ended: s.endedAt ? 'clean' : 'open',
      endReason: s.endReason,
      ending: 'unknown',
      inherited: s.resumedFrom?.sessionId ?? null,
      title: null,
      hasTranscript: false,
      path: s.transcriptPath,
    });
  }
  // Every agent's logs, the ones the store never saw too.
  const files = (
    await Promise.all(
      request.agents.ids.map(async (id) =>
        (await request.agents.agent(id)).sessions.all(env).map((f) => ({ ...f, agent: id })),
      ),
    )
  ).flat();
  for (const file of files) {
    const known = rows.get(file.sessionId);
    if (known) {
      known.path ??= file.path;
      continue;
    }
    const count = counts.get(file.sessionId) ?? { checkpoints: 0, restores: 0 };
    rows.set(file.sessionId, {
      id: file.sessionId,
      project: null,
      startedAt: null,
      lastActivityAt: new Date(file.mtimeMs).toISOString(),
      model: null,
      cliVersion: null,
      agent: file.agent,
      peakContext: null,
      compactions: null,
      ...count,
      ended: 'unknown',
      endReason: null,
      ending: 'unknown',
      inherited: null,
      title: null,
      hasTranscript: false,
      path: file.path,
    });
  }
  let all = [...rows.values()];
  if (matches) {
    const hit = new Set(matches.hits.map((h) => h.sessionId));
    all = all.filter((r) => hit.has(r.id));
  }
  // The project of a transcript the store never saw is in its first lines: read only for those
  // a project filter must judge.
  if (request.project !== undefined) {
    const kept: typeof all = [];
    for (const r of all) {
      const agent = r.project === null && r.path ? await agentNamed(r.agent, request.agents) : null;
      if (agent && r.path) r.project = readLogCwd(r.path, agent);
      if (r.project === request.project) kept.push(r);
    }
    all = kept;
  }
  all.sort((a, b) => (b.lastActivityAt ?? '').localeCompare(a.lastActivityAt ?? ''));
  const page = all.slice(0, request.limit ?? 200);
  const budget = { bytes: READ_FOR_LIST_BYTES };
  for (const row of page) {
    const agent = row.path ? await agentNamed(row.agent, request.agents) : null;
    const state = row.path && agent ? await transcriptState(home, row.path, agent, budget) : null;
    row.hasTranscript = state !== null;
    const known = facts.get(row.id);
    // Peak 0 means nothing was read, not an empty context: the checkpoints' record stands in.
    row.peakContext = known?.peak ?? null;
    const lastCompaction = state?.compactions[state.compactions.length - 1]?.line ?? null;
    const lastResponse = state?.lastResponse?.lastLine ?? null;
    row.ending = sessionEnding({
      ended: row.ended,
      lastActivityAt: row.lastActivityAt,
      handedOff: known?.handedOff ?? false,
      endedByCompaction:
        lastCompaction !== null && (lastResponse === null || lastCompaction > lastResponse),
      agentGone:
        row.ended === 'open' &&
        row.lastActivityAt !== null &&
        isSessionAgentGone(home, row.id, now - Date.parse(row.lastActivityAt)),
      now,
    });
    if (!state) continue;
    row.project ??= state.cwd;
    row.model ??= state.model;
    row.cliVersion ??= state.cliVersion;
    row.startedAt ??= iso(state.startedAt);
    row.peakContext = Math.max(peakOf(state), row.peakContext ?? 0) || null;
    row.compactions = state.compactionCount;
    const first = state.firstPrompt?.text ?? state.requestLog[0]?.text ?? null;
    row.title = first === null ? null : first.replace(/\s+/g, ' ').trim().slice(0, TITLE_CHARS);
  }
  // A resumed session whose first request only says to go on shows the goal it inherited.
  const untitled = page.filter(
    (r) => r.inherited !== null && (r.title === null || GO_ON.test(r.title)),
  );
  if (untitled.length > 0)
    await withStore(home, (store) => {
      for (const row of untitled) {
        const goal = inheritedGoal(store, row.inherited!);
        if (goal)
          row.title = `${goal
            .replace(/\s+/g, ' ')
            .trim()
            .slice(0, TITLE_CHARS - 12)} (continued)`;
      }
    });
  const projects = [...new Set([...rows.values()].map((r) => r.project).filter((p) => p !== null))];
  return {
    sessions: page.map(({ path: _path, inherited: _inherited, ...row }) => row),
    total: all.length,
    projects: projects.sort(),
    snippets: Object.fromEntries((matches?.hits ?? []).map((h) => [h.sessionId, h.snippet])),
  };
}
