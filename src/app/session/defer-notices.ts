/**
 * `shim defer`: the user holds the session's L1/L2 notices back while they finish the task in
 * hand (core/policy/deferral.ts); the hooks give the notice held back when it is done.
 * @module
 */
import { basename } from 'node:path';
import type { AgentId } from '../../core/agent-id.ts';
import { describeDeferral, startDeferral, type Deferral } from '../../core/policy/deferral.ts';
import { redactTextSync } from '../../redact/redact.ts';
import { clearDeferral, loadDeferral, saveDeferral } from '../../store/cache/deferral-file.ts';
import type { Env } from '../../store/home/home.ts';
import type { Agents } from '../../agents/agent.ts';
import { loadSessionState } from './read-session.ts';
import { findSessionLog } from './session-log.ts';

export type DeferRequest = {
  transcript?: string;
  sessionId?: string;
  agent?: AgentId;
  agents: Agents;
  /** End the deferral now instead. */
  off?: boolean;
  cwd: string;
  env: Env;
  home: string;
  now: number;
};

export type DeferResult = {
  sessionId: string;
  /** The deferral in force after the command; null after --off. */
  deferral: Deferral | null;
  /** What it waits for, in words. */
  until: string | null;
  /** A deferral was in force before (replaced, or ended by --off). */
  replaced: boolean;
};

export async function deferNotices(request: DeferRequest): Promise<DeferResult> {
  const { path, agent } = await findSessionLog(request, request.agents);
  const state = await loadSessionState(path, request.home, agent);
  const sessionId =
    state.sessionId ?? request.sessionId ?? basename(path).replace(/\.jsonl(\.gz)?$/, '');
  const before = loadDeferral(request.home, sessionId);
  if (request.off) {
    clearDeferral(request.home, sessionId);
    return { sessionId, deferral: null, until: null, replaced: before !== null };
  }
  const fresh = startDeferral(state, request.now);
  const deferral: Deferral = {
    ...fresh,
    // Shown in notices and kept under SHIM_HOME: a task's text passes the redaction.
    task: fresh.task ? { ...fresh.task, content: redactTextSync(fresh.task.content).text } : null,
    // A notice already held back stays held for the new task.
    held: before?.held ?? null,
  };
  saveDeferral(request.home, sessionId, deferral);
  return { sessionId, deferral, until: describeDeferral(deferral), replaced: before !== null };
}
