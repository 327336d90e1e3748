/**
 * The dashboard's session list: every session the store knows and every transcript under Claude
 * Code's projects folder, newest first, with what each one's transcript says (model, version,
 * peak context, compactions) from the cursor cache the hooks keep — read and cached here when a
 * small transcript has none, left unknown for a large one until its timeline is opened.
 * @module
 */
import { statSync } from 'node:fs';
import type { SessionState } from '../../core/session.ts';
import { listAllTranscripts } from '../../agents/claude/sessions.ts';
import { loadCursor } from '../../store/cursor-cache.ts';
import { readSessionHead } from '../../agents/claude/sniff.ts';
import { withStore } from '../open-store.ts';
import { loadSessionState } from '../read-session.ts';
import { searchCheckpoints } from '../search-checkpoints.ts';

type Env = Readonly<Record<string, string | undefined>>;

export type SessionRow = {
  id: string;
  project: string | null;
  /** ISO times; null when nothing says. */
  startedAt: string | null;
  lastActivityAt: string | null;
  model: string | null;
  cliVersion: string | null;
  /** The largest context the transcript shows (tokens); null until it has been read. */
  peakContext: number | null;
  compactions: number | null;
  checkpoints: number;
  restores: number;
  /** clean: a recorded session end; open: none yet; unknown: the store never saw it. */
  ended: 'clean' | 'open' | 'unknown';
  endReason: string | null;
  /** The session's first request, shortened. */
  title: string | null;
  hasTranscript: boolean;
};

export type SessionListRequest = {
  home: string;
  env: Env;
  /** Only sessions whose working directory is this one. */
  project?: string;
  /** Only sessions with a checkpoint matching these words (the search of `shim search`). */
  query?: string;
  /** Rows to return (newest first); default 200. */
  limit?: number;
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
    return await loadSessionState(path, home);
  } catch {
    return cached?.state ?? null;
  }
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export async function listDashboardSessions(request: SessionListRequest): Promise<SessionList> {
  const { home, env } = request;
  const { stored, counts, matches } = await withStore(home, (store) => ({
    stored: store.sessions.list(),
    counts: store.dashboard.countBySession(),
    matches: request.query?.trim()
      ? searchCheckpoints(store, { query: request.query, scope: 'all', cwd: '/', limit: 50 })
      : null,
  }));
  const rows = new Map<string, SessionRow & { path: string | null }>();
  for (const s of stored) {
    const count = counts.get(s.sessionId) ?? { checkpoints: 0, restores: 0 };
    rows.set(s.sessionId, {
      id: s.sessionId,
      project: s.cwd,
      startedAt: s.startedAt,
      lastActivityAt: s.lastSeenAt,
      model: s.model,
      cliVersion: s.cliVersion,
      peakContext: null,
      compactions: null,
      ...count,
      ended: s.endedAt ? 'clean' : 'open',
      endReason: s.endReason,
      title: null,
      hasTranscript: false,
      path: s.transcriptPath,
    });
  }
  for (const file of listAllTranscripts(env)) {
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
      peakContext: null,
      compactions: null,
      ...count,
      ended: 'unknown',
      endReason: null,
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
  if (request.project !== undefined)
    all = all.filter((r) => {
      if (r.project === null && r.path) r.project = readSessionHead(r.path).cwd;
      return r.project === request.project;
    });
  all.sort((a, b) => (b.lastActivityAt ?? '').localeCompare(a.lastActivityAt ?? ''));
  const page = all.slice(0, request.limit ?? 200);
  const budget = { bytes: READ_FOR_LIST_BYTES };
  for (const row of page) {
    const state = row.path ? await transcriptState(home, row.path, budget) : null;
    row.hasTranscript = state !== null;
    if (!state) continue;
    row.project ??= state.cwd;
    row.model ??= state.model;
    row.cliVersion ??= state.cliVersion;
    row.startedAt ??= iso(state.startedAt);
    row.peakContext = peakOf(state);
    row.compactions = state.compactionCount;
    const first = state.firstPrompt?.text ?? state.requestLog[0]?.text ?? null;
    row.title = first === null ? null : first.replace(/\s+/g, ' ').trim().slice(0, TITLE_CHARS);
  }
  const projects = [...new Set([...rows.values()].map((r) => r.project).filter((p) => p !== null))];
  return {
    sessions: page.map(({ path: _path, ...row }) => row),
    total: all.length,
    projects: projects.sort(),
    snippets: Object.fromEntries((matches?.hits ?? []).map((h) => [h.sessionId, h.snippet])),
  };
}
