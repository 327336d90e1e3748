/**
 * A compaction seen by shim's Claude Code mod (`session.compact`): before it, the same checkpoint,
 * handoff and summary instructions as the PreCompact hook; after it, Claude Code's summary kept
 * beside the checkpoint, as PostCompact keeps it. When the hooks are installed too, whichever of
 * the two comes first does the work (a once-only claim per compaction), so a compaction gets one
 * checkpoint and one set of instructions.
 * @module
 */
import { basename } from 'node:path';
import type { Agent } from '../../agents/agent.ts';
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import type { SessionState } from '../../core/session.ts';
import { redactTextSync } from '../../redact/redact.ts';
import type { Env } from '../../store/home/home.ts';
import { claimOnce, releaseClaim } from '../../store/cache/hook-memory.ts';
import { appendLog } from '../../store/home/log.ts';
import { createCheckpoint } from './create-checkpoint.ts';
import { withStore } from '../open-store.ts';
import { writeHandoff } from '../write-handoff.ts';
import { loadSessionMemory } from '../session/read-session.ts';

/** The claim a compaction's preparation takes: the mod and the PreCompact hook share it. */
export function compactionClaimKey(state: Pick<SessionState, 'compactionCount'>): string {
  return `precompact-${state.compactionCount}`;
}

export type PrepareCompactionRequest = {
  /** The agent whose session the mod watches. */
  agent: Agent;
  home: string;
  env: Env;
  now: number;
  transcriptPath: string;
  cwd: string | null;
  state: SessionState;
  trigger: 'auto' | 'manual';
};

export type PreparedCompaction = {
  /** For Claude Code's summary request; null when the hook already gave them or nothing was saved. */
  instructions: string | null;
  checkpoint: Pick<Checkpoint, 'id' | 'checkpointNumber'> | null;
};

export async function prepareCompaction(
  request: PrepareCompactionRequest,
): Promise<PreparedCompaction> {
  const { home, state } = request;
  const sessionId = state.sessionId ?? basename(request.transcriptPath, '.jsonl');
  const claimKey = compactionClaimKey(state);
  if (!claimOnce(home, sessionId, claimKey)) return { instructions: null, checkpoint: null };
  try {
    const { checkpoint } = await createCheckpoint({
      log: { path: request.transcriptPath, agent: request.agent },
      cwd: request.cwd ?? state.cwd ?? process.cwd(),
      env: request.env,
      home,
      now: request.now,
      trigger: 'pre_compact',
      reason: `${request.trigger} compaction`,
      hotPath: true,
    });
    await withStore(home, (store) =>
      writeHandoff(store, home, {
        checkpoint,
        kind: 'pre_compact',
        detection: null,
        now: request.now,
      }),
    );
    return { instructions: request.agent.hooks.compactInstructions(checkpoint), checkpoint };
  } catch (error) {
    appendLog(home, 'error', 'mod: the checkpoint before a compaction failed', {
      sessionId,
      error: String(error),
    });
    // The PreCompact hook that follows gets its own try at saving this compaction.
    releaseClaim(home, sessionId, claimKey);
    return { instructions: null, checkpoint: null };
  }
}

/** The agent's summary, redacted, beside the session's newest checkpoint; once per text. */
export async function recordCompactionSummary(request: {
  /** The agent whose session the mod watches. */
  agent: Agent;
  home: string;
  now: number;
  sessionId: string;
  transcriptPath: string;
  trigger: 'auto' | 'manual';
  summary: string;
}): Promise<boolean> {
  const at = new Date(request.now).toISOString();
  // The session's secrets, wherever the summary restates them.
  const summary = redactTextSync(
    request.summary,
    loadSessionMemory(request.home, request.transcriptPath),
  ).text;
  return withStore(request.home, ({ sessions, checkpoints, compactionSummaries }) => {
    sessions.touch(
      {
        sessionId: request.sessionId,
        transcriptPath: request.transcriptPath,
        cwd: null,
        agent: request.agent.id,
      },
      at,
    );
    return compactionSummaries.saveOnce({
      sessionId: request.sessionId,
      recordedAt: at,
      trigger: request.trigger,
      summary,
      checkpointId: checkpoints.getMostRecent(request.sessionId)?.id ?? null,
    });
  });
}
