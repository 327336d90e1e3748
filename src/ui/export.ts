/**
 * `shim ui --export`: one session's timeline with its checkpoints, or one loop run, as a single
 * HTML file that opens from disk with no server and no network. What goes in is redacted once
 * more as a whole (checkpoints were redacted when taken; titles and summaries pass again).
 * @module
 */
import { viewCheckpoint } from '../app/dashboard/checkpoint-view.ts';
import { locateSessionTranscript } from '../app/dashboard/locate-session.ts';
import { viewSessionLineage } from '../app/dashboard/lineage-view.ts';
import { viewLoopRunDetail } from '../app/dashboard/loop-view.ts';
import { buildSessionTimeline } from '../app/dashboard/session-timeline.ts';
import { withStore } from '../app/open-store.ts';
import { readLearnedMemory } from '../app/checkpoint/learned-scrub.ts';
import { AppError } from '../core/errors.ts';
import { redactValue } from '../redact/redact.ts';
import { renderExportPage } from './page.ts';
import { readPageAssets } from './serve.ts';
import type { Agents } from '../agents/agent.ts';
import type { SessionLog } from '../app/session/session-log.ts';

type Env = Readonly<Record<string, string | undefined>>;

export type ExportTarget = { session: string } | { loop: string };

/**
 * The session's transcript; null when it is gone but the store has checkpoints of the session
 * (they are exported without the response-by-response chart).
 */
async function transcriptOrStored(
  home: string,
  env: Env,
  sessionId: string,
  agents: Agents,
): Promise<SessionLog | null> {
  try {
    return await locateSessionTranscript(home, env, sessionId, agents);
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'SESSION_NOT_FOUND') throw error;
    const stored = await withStore(
      home,
      (store) => store.checkpoints.listBySession(sessionId).length,
    );
    if (stored === 0)
      throw new AppError(
        'SESSION_NOT_FOUND',
        `no transcript and no checkpoints for session ${sessionId}`,
        '`shim list` shows the sessions shim has checkpoints of',
      );
    return null;
  }
}

export async function renderExport(request: {
  agents: Agents;
  home: string;
  env: Env;
  target: ExportTarget;
  now: number;
}): Promise<{ html: string; title: string; redactions: number }> {
  const { home, env } = request;
  const responses: Record<string, unknown> = {};
  let start: string;
  let title: string;
  let kind: 'session' | 'loop';
  if ('session' in request.target) {
    const sessionId = request.target.session;
    const log = await transcriptOrStored(home, env, sessionId, request.agents);
    const timeline = await buildSessionTimeline({ home, env, sessionId, log });
    responses[`/api/sessions/${encodeURIComponent(sessionId)}/timeline`] = timeline;
    responses[`/api/sessions/${encodeURIComponent(sessionId)}/lineage`] = await viewSessionLineage(
      home,
      sessionId,
    );
    for (const c of timeline.checkpoints)
      responses[`/api/checkpoints/${encodeURIComponent(c.id)}`] = await viewCheckpoint(
        home,
        c.id,
        request.now,
        request.agents,
      );
    start = `/session/${encodeURIComponent(sessionId)}`;
    title = `shim: session ${sessionId}`;
    kind = 'session';
  } else {
    const detail = await viewLoopRunDetail(home, request.target.loop);
    responses[`/api/loops/${encodeURIComponent(detail.run.runId)}`] = detail;
    for (const it of detail.iterations)
      if (it.checkpointId)
        responses[`/api/checkpoints/${encodeURIComponent(it.checkpointId)}`] = await viewCheckpoint(
          home,
          it.checkpointId,
          request.now,
          request.agents,
        ).catch(() => undefined);
    start = `/loop/${encodeURIComponent(detail.run.runId)}`;
    title = `shim: loop run ${detail.run.runId}`;
    kind = 'loop';
  }
  // With what the home learned is a secret: a row may predate it.
  const learned = await readLearnedMemory(home);
  const { value, findings } = await redactValue({ kind, start, responses }, learned);
  return {
    html: renderExportPage({ title, assets: readPageAssets(), data: value }),
    title,
    redactions: findings,
  };
}
