/**
 * `shim status`: the context state of one session — where it stands, how fast it grows, how
 * close compaction is — read incrementally through the cursor cache (read-session.ts).
 * @module
 */
import {
  getCheckpointFailure,
  type CheckpointFailure,
} from '../../store/cache/checkpoint-failures.ts';
import type { Assessment } from '../../core/context/assess.ts';
import type { Agents, ThresholdInputs } from '../../agents/agent.ts';
import type { AgentId } from '../../core/agent-id.ts';
import { findIssueInBranch, formatIssue } from '../../core/sync/issue-ref.ts';
import { loadHookMemory } from '../../store/cache/hook-memory.ts';
import { loadSyncSummary, type SyncSummary } from '../../store/sync/sync-summary.ts';
import { AppError } from '../../core/errors.ts';
import type { CompactionRecord, ParseStats, SessionState } from '../../core/session.ts';
import { loadConfig, type ConfigProblem } from '../../store/config/config.ts';
import type { Env } from '../../store/home/home.ts';
import { appendLog } from '../../store/home/log.ts';
import { assessLiveSession } from './assess-live-session.ts';
import { followContinuations, loadSessionState } from './read-session.ts';
import { findSessionLog } from './session-log.ts';

export type StatusRequest = {
  transcript?: string;
  sessionId?: string;
  /** Whose log it is (`--agent`); else told from the file, or every agent's sessions looked at. */
  agent?: AgentId | null;
  agents: Agents;
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
  /** Config files that could not be used (the defaults stood in for them). */
  configProblems?: ConfigProblem[];
  transcriptPath: string;
  /** The agent that wrote the log. */
  agent: AgentId;
  /** Its name, for every line that speaks of it. */
  agentName: string;
  sessionId: string | null;
  model: string | null;
  cliVersion: string | null;
  cwd: string | null;
  gitBranch: string | null;
  /** The tracker issue the session works on (set or found at its start, else its branch's). */
  issue: string | null;
  /** The tracker sync's counts as of its last drain; null when it never ran. */
  sync: SyncSummary | null;
  /** The session's checkpoints failing since its last stored one; null when none failed. */
  checkpointFailure?: CheckpointFailure | null;
  startedAt: string | null;
  lastActivityAt: string | null;
  assessment: Assessment;
  /** Whose environment and settings the threshold came from (`detail`: the line status prints). */
  thresholdInputs: {
    source: ThresholdInputs['source'];
    recordedAt: string | null;
    detail: string | null;
  };
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
  inputs: ThresholdInputs,
  agent: { id: AgentId; name: string },
): SessionStatus {
  return {
    transcriptPath: path,
    agent: agent.id,
    agentName: agent.name,
    issue: null,
    sync: null,
    sessionId: state.sessionId,
    model: state.model,
    cliVersion: state.cliVersion,
    cwd: state.cwd,
    gitBranch: state.gitBranch,
    startedAt: iso(state.startedAt),
    lastActivityAt: iso(state.lastActivityAt),
    assessment,
    thresholdInputs: { ...inputs, recordedAt: iso(inputs.recordedAt) },
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
  // The hooks run on the defaults for a file that cannot be used; status judges with the same.
  const config = await loadConfig(request.home, { lenient: true });
  const log = await findSessionLog(request, request.agents);
  const followed = await followContinuations(
    log.path,
    await loadSessionState(log.path, request.home, log.agent),
    request.home,
    log.agent,
  );
  const { path, state } = followed;
  if (state.parse.badLines > 0 && state.sessionId === null && state.turns === 0) {
    throw new AppError(
      'TRANSCRIPT_UNREADABLE',
      `${path} does not look like a ${log.agent.name} log (${state.parse.badLines} of ${state.parse.lines} lines unreadable)`,
      `pass a session file from ${log.agent.sessions.example}`,
    );
  }
  if (state.parse.badLines > 0 || state.parse.oversizedLines > 0) {
    appendLog(request.home, 'warn', 'skipped unreadable transcript lines', {
      path,
      ...state.parse,
    });
  }
  const assessment = assessLiveSession(log.agent, state, {
    home: request.home,
    env: request.env,
    now: request.now,
    config,
    ...(request.history !== undefined ? { history: request.history } : {}),
    toolCallsAtCheckpoint: request.toolCallsAtCheckpoint ?? null,
  });
  const status = buildStatus(path, state, assessment, assessment.thresholdInputs, log.agent);
  // The hooks' memory names the issue (a small file, no store): else the branch may.
  const remembered = state.sessionId ? loadHookMemory(request.home, state.sessionId).issue : null;
  const fromBranch = findIssueInBranch(state.gitBranch);
  return {
    ...status,
    issue: remembered ?? (fromBranch ? formatIssue(fromBranch) : null),
    sync: loadSyncSummary(request.home),
    checkpointFailure: state.sessionId ? getCheckpointFailure(request.home, state.sessionId) : null,
    configProblems: config.problems,
  };
}
