/**
 * The dashboard's HTTP app (`shim ui`): read-only JSON over the store and the transcripts, the
 * bundled page, and a live stream of a loop run's events. Every request must carry the launch's
 * token (in the URL it printed, then in a same-site cookie) and name this server as its host (a
 * page elsewhere cannot reach it through DNS rebinding); every response forbids framing, sniffing
 * and anything the page did not bring itself (docs/dashboard.md).
 * @module
 */
import { timingSafeEqual } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { streamSSE } from 'hono/streaming';
import { viewCheckpoint } from '../app/dashboard/checkpoint-view.ts';
import { isSessionId, locateSessionTranscript } from '../app/dashboard/locate-session.ts';
import {
  listDashboardLoops,
  readLoopEventsAfter,
  viewLoopRunDetail,
} from '../app/dashboard/loop-view.ts';
import { viewSessionLineage } from '../app/dashboard/lineage-view.ts';
import {
  assessLiveCandidates,
  findLiveCandidates,
  listLiveSessions,
  LIVE_WINDOW_MS,
} from '../app/dashboard/live-sessions.ts';
import { listDashboardSessions } from '../app/dashboard/session-list.ts';
import { buildSessionTimeline } from '../app/dashboard/session-timeline.ts';
import type { TeamDashboard } from '../app/team/team-dashboard.ts';
import { readLearnedMemory, withoutLearned } from '../app/checkpoint/learned-scrub.ts';
import { AppError } from '../core/errors.ts';
import { appendLog } from '../store/home/log.ts';
import { renderPage, type PageAssets } from './page.ts';
import type { Agents } from '../agents/agent.ts';

type Env = Readonly<Record<string, string | undefined>>;

export type DashboardOptions = {
  /** Every agent: a session may be any agent's. */
  agents: Agents;
  home: string;
  env: Env;
  token: string;
  assets: PageAssets;
  /** The port it listens on, once known (the Host header must name it). */
  port: () => number;
  now?: () => number;
  /** How often a live stream looks for new loop events (ms). */
  pollMs?: number;
  /** How often the live page's stream looks at the running sessions' files (ms). */
  livePollMs?: number;
  /** `shim ui --team`: the team store's reads (app/team/team-dashboard.ts). */
  team?: Pick<TeamDashboard, 'read'>;
  /** How often the team page's stream reads the team store again (ms). */
  teamPollMs?: number;
};

const COOKIE = 'shim_ui';
/** Statuses of a run that may still log events. */
const LIVE = new Set(['running', 'waiting']);

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function failure(c: Context, error: unknown, home: string): Response {
  if (error instanceof AppError) {
    const status = error.code === 'USAGE' || error.code === 'UNSAFE_PATH' ? 400 : 404;
    return c.json({ error: error.message, hint: error.hint ?? null }, status);
  }
  appendLog(home, 'error', 'dashboard request failed', {
    path: c.req.path,
    error: String(error),
  });
  return c.json({ error: 'shim could not answer this; see shim doctor and the log' }, 500);
}

export function createDashboardApp(options: DashboardOptions): Hono {
  const { home, env, token, agents } = options;
  const now = options.now ?? Date.now;
  const app = new Hono();

  app.use('*', async (c, next) => {
    c.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('X-Frame-Options', 'DENY');
    c.header('Referrer-Policy', 'no-referrer');
    c.header('Cache-Control', 'no-store');
    const port = options.port();
    const host = c.req.header('host') ?? '';
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`)
      return c.text('shim ui answers only to 127.0.0.1 and localhost\n', 403);
    const fromUrl = c.req.query('token');
    if (sameToken(fromUrl, token)) {
      setCookie(c, COOKIE, token, { httpOnly: true, sameSite: 'Strict', path: '/' });
    } else if (!sameToken(getCookie(c, COOKIE), token)) {
      return c.text(
        'this needs the link shim ui printed (its token changes at every launch)\n',
        403,
      );
    }
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return c.text('read-only\n', 405);
    await next();
    // What the store answers may predate a value the home learned is a secret: gone from it too.
    if (c.res.headers.get('content-type')?.startsWith('application/json')) {
      const learned = await readLearnedMemory(home);
      if (learned.size > 0) {
        const { status } = c.res;
        const headers = new Headers(c.res.headers);
        headers.delete('content-length');
        const body = JSON.stringify(withoutLearned((await c.res.json()) as unknown, learned));
        c.res = undefined; // replaced, not merged with the old one's headers
        c.res = new Response(body, { status, headers });
      }
    }
    return undefined;
  });
  /** An event's data as the JSON answers are: without what the home learned. */
  const eventData = async (value: unknown) =>
    JSON.stringify(withoutLearned(value, await readLearnedMemory(home)));

  app.get('/', (c) =>
    c.html(
      renderPage({ scripts: ['/app.js'], styles: ['/app.css'], team: options.team !== undefined }),
    ),
  );
  app.get('/app.js', (c) =>
    c.body(options.assets.js, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }),
  );
  app.get('/app.css', (c) =>
    c.body(options.assets.css, 200, { 'Content-Type': 'text/css; charset=utf-8' }),
  );

  app.get('/api/sessions', async (c) => {
    try {
      const limit = Number(c.req.query('limit') ?? 200);
      const project = c.req.query('project');
      const query = c.req.query('q');
      return c.json(
        await listDashboardSessions({
          agents,
          home,
          env,
          limit: Number.isInteger(limit) && limit > 0 ? Math.min(limit, 5_000) : 200,
          ...(project ? { project } : {}),
          ...(query ? { query } : {}),
        }),
      );
    } catch (error) {
      return failure(c, error, home);
    }
  });

  app.get('/api/live', async (c) => {
    try {
      return c.json({
        sessions: await listLiveSessions({ home, env, now: now(), agents }),
        windowMinutes: LIVE_WINDOW_MS / 60_000,
      });
    } catch (error) {
      return failure(c, error, home);
    }
  });

  // The running sessions as they change: every session first, then a session again whenever its
  // transcript or the hooks' memory of it changed, and `gone` when it stops counting as running.
  app.get('/api/live/events', (c) => {
    const pollMs = options.livePollMs ?? 1_000;
    return streamSSE(c, async (stream) => {
      let open = true;
      stream.onAbort(() => {
        open = false;
      });
      const sent = new Map<string, string>();
      while (open) {
        try {
          const request = { home, env, now: now(), agents };
          const candidates = await findLiveCandidates(request);
          const changed = candidates.filter((x) => sent.get(x.id) !== x.signature);
          for (const session of await assessLiveCandidates(request, changed)) {
            sent.set(session.id, session.signature);
            await stream.writeSSE({ event: 'session', data: await eventData(session) });
          }
          const still = new Set(candidates.map((x) => x.id));
          for (const id of [...sent.keys()].filter((x) => !still.has(x))) {
            sent.delete(id);
            await stream.writeSSE({ event: 'gone', data: JSON.stringify({ id }) });
          }
        } catch (error) {
          appendLog(home, 'warn', 'live sessions poll failed', { error: String(error) });
        }
        await stream.sleep(pollMs);
      }
    });
  });

  app.get('/api/sessions/:id/lineage', async (c) => {
    try {
      const sessionId = c.req.param('id');
      if (!isSessionId(sessionId))
        throw new AppError('USAGE', 'not a session id', 'ids are letters, digits, -, _ and .');
      return c.json(await viewSessionLineage(home, sessionId));
    } catch (error) {
      return failure(c, error, home);
    }
  });

  app.get('/api/sessions/:id/timeline', async (c) => {
    try {
      const sessionId = c.req.param('id');
      const log = await locateSessionTranscript(home, env, sessionId, agents);
      return c.json(await buildSessionTimeline({ home, env, sessionId, log }));
    } catch (error) {
      return failure(c, error, home);
    }
  });

  app.get('/api/checkpoints/:id', async (c) => {
    try {
      return c.json(await viewCheckpoint(home, c.req.param('id'), now(), agents));
    } catch (error) {
      return failure(c, error, home);
    }
  });

  app.get('/api/loops', async (c) => {
    try {
      return c.json({ runs: await listDashboardLoops(home) });
    } catch (error) {
      return failure(c, error, home);
    }
  });

  app.get('/api/loops/:id', async (c) => {
    try {
      return c.json(await viewLoopRunDetail(home, c.req.param('id')));
    } catch (error) {
      return failure(c, error, home);
    }
  });

  // A running loop's events as they are appended: what `shim loop logs --follow` prints.
  app.get('/api/loops/:id/events', async (c) => {
    const runId = c.req.param('id');
    let detail;
    try {
      detail = await viewLoopRunDetail(home, runId);
    } catch (error) {
      return failure(c, error, home);
    }
    let seq = Number(c.req.query('after') ?? 0) || 0;
    const pollMs = options.pollMs ?? 500;
    return streamSSE(c, async (stream) => {
      let open = true;
      stream.onAbort(() => {
        open = false;
      });
      let quietPolls = 0;
      while (open) {
        const events = readLoopEventsAfter(home, detail.run.runId, seq);
        for (const event of events) {
          seq = event.seq;
          await stream.writeSSE({
            event: 'loop-event',
            id: String(event.seq),
            data: await eventData(event),
          });
        }
        quietPolls = events.length > 0 ? 0 : quietPolls + 1;
        // Every few quiet polls: has the run ended? Then say so and close.
        if (quietPolls > 0 && quietPolls % 6 === 0) {
          const run = await viewLoopRunDetail(home, runId).catch(() => null);
          if (!run || !LIVE.has(run.run.liveStatus)) {
            await stream.writeSSE({
              event: 'end',
              data: JSON.stringify({ status: run?.run.liveStatus ?? 'gone' }),
            });
            break;
          }
        }
        await stream.sleep(pollMs);
      }
    });
  });

  const team = options.team;
  const noTeam = () =>
    new AppError('USAGE', 'this dashboard was started without --team', 'run shim ui --team');

  app.get('/api/team', async (c) => {
    try {
      if (!team) throw noTeam();
      return c.json(await team.read());
    } catch (error) {
      return failure(c, error, home);
    }
  });

  // Every machine's sessions and loop runs as they change: the whole view again whenever a read
  // of the team store differs from the last one sent (the worker on each machine replicates).
  app.get('/api/team/events', (c) => {
    if (!team) return failure(c, noTeam(), home);
    const pollMs = options.teamPollMs ?? 2_000;
    return streamSSE(c, async (stream) => {
      let open = true;
      stream.onAbort(() => {
        open = false;
      });
      let last = '';
      while (open) {
        try {
          const data = await eventData(await team.read());
          if (data !== last) {
            last = data;
            await stream.writeSSE({ event: 'team', data });
          }
        } catch (error) {
          await stream.writeSSE({
            event: 'team-error',
            data: JSON.stringify({ error: (error as Error).message }),
          });
          appendLog(home, 'warn', 'team dashboard read failed', { error: String(error) });
        }
        await stream.sleep(pollMs);
      }
    });
  });

  app.notFound((c) => c.json({ error: `nothing at ${c.req.path}` }, 404));
  return app;
}
