/**
 * `shim status`: the context state of one session — where it stands, how fast it grows, how
 * close compaction is — read incrementally through the cursor cache.
 * @module
 */
import { resolve } from 'node:path';
import { assessSession, type Assessment } from '../core/assess.ts';
import { AppError } from '../core/errors.ts';
import type { CompactSample } from '../core/compact-threshold.ts';
import type { CompactionRecord, ParseStats, SessionState } from '../core/session.ts';
import { loadCompactHistory } from '../claude/compact-history.ts';
import { findLatestSession, findSessionById } from '../claude/sessions.ts';
import { loadConfig, type ShimConfig } from '../store/config.ts';
import { loadCursor, saveCursor } from '../store/cursor-cache.ts';
import type { Env } from '../store/home.ts';
import { appendLog } from '../store/log.ts';
import { readCompressedTranscript, readTranscript } from '../transcript/reader.ts';
import { scrubSessionState } from '../transcript/scrub.ts';
import { isCompressed } from './replay.ts';

export type StatusRequest = {
  transcript?: string;
  sessionId?: string;
  cwd: string;
  env: Env;
  home: string;
  now: number;
  /** Use the user's other transcripts to learn the threshold (default: config). */
  history?: boolean;
  /** Tool calls the session had made at its newest stored checkpoint (from the store). */
  toolCallsAtCheckpoint?: number | null;
};

export type SessionStatus = {
  transcriptPath: string;
  sessionId: string | null;
  model: string | null;
  cliVersion: string | null;
  cwd: string | null;
  gitBranch: string | null;
  startedAt: string | null;
  lastActivityAt: string | null;
  assessment: Assessment;
  activity: {
    responses: number;
    prompts: number;
    lastPrompt: string | null;
    toolCalls: number;
    toolFailures: number;
    pendingTools: string[];
    compactions: CompactionRecord[];
    microcompactions: number;
    apiErrors: number;
    promptTooLong: number;
    todos: { done: number; total: number; inProgress: string | null };
    tasks: { done: number; total: number; inProgress: string | null };
  };
  parse: ParseStats;
};

/** Picks the transcript: an explicit path, a session id, or the latest session of `cwd`. */
export function resolveTranscriptPath(
  request: Pick<StatusRequest, 'transcript' | 'sessionId' | 'cwd' | 'env'>,
): string {
  if (request.transcript) return resolve(request.cwd, request.transcript);
  if (request.sessionId) return findSessionById(request.sessionId, request.cwd, request.env).path;
  return findLatestSession(request.cwd, request.env).path;
}

/** Reads the transcript through the cursor cache (the whole file when it is compressed). */
export async function loadSessionState(path: string, home: string): Promise<SessionState> {
  if (isCompressed(path)) return scrubSessionState(await readCompressedTranscript(path));
  const cached = loadCursor(home, path);
  const result = readTranscript(path, cached);
  // The cached state and all that is built from it hold no secret the redactor knows.
  scrubSessionState(result.cursor.state);
  if (result.bytesRead > 0 || result.restarted || !cached) {
    try {
      saveCursor(home, path, result.cursor);
    } catch (error) {
      appendLog(home, 'warn', 'could not cache the transcript cursor', {
        path,
        error: String(error),
      });
    }
  }
  return result.cursor.state;
}

export function getHistorySamples(
  home: string,
  env: Env,
  config: ShimConfig,
  enabled?: boolean,
): CompactSample[] {
  if (!(enabled ?? config.learnFromHistory)) return [];
  return loadCompactHistory(home, { env });
}

function summarizeItems(
  items: ReadonlyArray<{ status: string; content?: string; subject?: string }>,
) {
  const active = items.find((i) => i.status === 'in_progress');
  return {
    done: items.filter((i) => i.status === 'completed').length,
    total: items.length,
    inProgress: active ? (active.content ?? active.subject ?? null) : null,
  };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function buildStatus(
  path: string,
  state: SessionState,
  assessment: Assessment,
): SessionStatus {
  return {
    transcriptPath: path,
    sessionId: state.sessionId,
    model: state.model,
    cliVersion: state.cliVersion,
    cwd: state.cwd,
    gitBranch: state.gitBranch,
    startedAt: iso(state.startedAt),
    lastActivityAt: iso(state.lastActivityAt),
    assessment,
    activity: {
      responses: state.turns,
      prompts: state.promptCount,
      lastPrompt: state.prompts[state.prompts.length - 1]?.text ?? null,
      toolCalls: state.toolCalls,
      toolFailures: state.toolFailures,
      pendingTools: state.pendingTools.map((p) => p.tool),
      compactions: state.compactions,
      microcompactions: state.microcompactions,
      apiErrors: state.apiErrorCount,
      promptTooLong: state.promptTooLongCount,
      todos: summarizeItems(state.todos),
      tasks: summarizeItems(state.tasks),
    },
    parse: state.parse,
  };
}

export async function getSessionStatus(request: StatusRequest): Promise<SessionStatus> {
  const config = await loadConfig(request.home);
  const path = resolveTranscriptPath(request);
  const state = await loadSessionState(path, request.home);
  if (state.parse.badLines > 0 && state.sessionId === null && state.turns === 0) {
    throw new AppError(
      'TRANSCRIPT_UNREADABLE',
      `${path} does not look like a Claude Code transcript (${state.parse.badLines} of ${state.parse.lines} lines unreadable)`,
      'pass a session file from ~/.claude/projects/<project>/<session>.jsonl',
    );
  }
  if (state.parse.badLines > 0 || state.parse.oversizedLines > 0) {
    appendLog(request.home, 'warn', 'skipped unreadable transcript lines', {
      path,
      ...state.parse,
    });
  }
  const assessment = assessSession(state, {
    env: request.env,
    history: getHistorySamples(request.home, request.env, config, request.history),
    now: request.now,
    levels: config.levels,
    risk: config.risk,
    ...(request.toolCallsAtCheckpoint != null && request.toolCallsAtCheckpoint <= state.toolCalls
      ? { toolCallsSinceCheckpoint: state.toolCalls - request.toolCallsAtCheckpoint }
      : {}),
  });
  return buildStatus(path, state, assessment);
}
