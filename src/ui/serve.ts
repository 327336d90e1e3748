/**
 * Starting the dashboard: its bundled page, a fresh token, 127.0.0.1 only.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { AppError } from '../core/errors.ts';
import type { PageAssets } from './page.ts';
import type { TeamDashboard } from '../app/team/team-dashboard.ts';
import { createDashboardApp } from './server.ts';
import type { Agents } from '../agents/agent.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** The page's script and styles, built beside the CLI (dist/ui). */
export function readPageAssets(): PageAssets {
  const here = dirname(fileURLToPath(import.meta.url));
  // dist/cli.js, a chunk of it in dist/chunks, or the sources under tsx: dist/ui is near.
  const candidates = [
    join(here, 'ui'),
    join(here, '..', 'ui'),
    join(here, '..', '..', 'dist', 'ui'),
  ];
  for (const dir of candidates) {
    try {
      return {
        js: readFileSync(join(dir, 'app.js'), 'utf8'),
        css: readFileSync(join(dir, 'app.css'), 'utf8'),
      };
    } catch {
      // not this one
    }
  }
  throw new AppError(
    'USAGE',
    'the dashboard page is not built',
    'run npm run build in shim’s folder',
  );
}

export type RunningDashboard = {
  url: string;
  port: number;
  token: string;
  close: () => Promise<void>;
};

export async function startDashboard(request: {
  agents: Agents;
  home: string;
  env: Env;
  port: number;
  pollMs?: number;
  /** `shim ui --team`: the team store's reads; closed with the dashboard. */
  team?: TeamDashboard;
}): Promise<RunningDashboard> {
  const token = randomBytes(24).toString('base64url');
  let port = request.port;
  const app = createDashboardApp({
    agents: request.agents,
    home: request.home,
    env: request.env,
    token,
    assets: readPageAssets(),
    port: () => port,
    ...(request.pollMs !== undefined ? { pollMs: request.pollMs } : {}),
    ...(request.team ? { team: request.team } : {}),
  });
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: request.port, hostname: '127.0.0.1' }, () =>
      resolve(s),
    );
    s.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new AppError(
              'USAGE',
              `port ${request.port} is in use`,
              'pick another with --port, or --port 0 for any free one',
            )
          : error,
      ),
    );
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close: async () => {
      await new Promise<void>((resolve) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
      });
      await request.team?.close();
    },
  };
}
