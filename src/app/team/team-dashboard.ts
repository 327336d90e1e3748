/**
 * The dashboard's team side (`shim ui --team`): every machine's sessions and loop runs in the
 * projects this user has (those this machine worked in, and the directory it was started in),
 * read from the team store through one repository kept open while the dashboard runs. Each row
 * carries the machine and the OS user that wrote it (docs/team.md, "The dashboard").
 * @module
 */
import { AppError } from '../../core/errors.ts';
import type { Env } from '../../store/home/home.ts';
import type { ShimConfig } from '../../store/config/config.ts';
import type {
  TeamLoopRunSummary,
  TeamRepository,
  TeamSessionSummary,
} from '../../store/ports/team-repository.ts';
import { withStore } from '../open-store.ts';
import { openTeamRepository } from './open-team-store.ts';
import { localProjectIds } from './pull-team-work.ts';
import { currentWriter, type Writer } from './team-settings.ts';
import { resolveTeamUrl } from './team-url.ts';

export type TeamDashboardView = {
  /** Who is looking, to tell their own rows from their teammates'. */
  you: Writer;
  projects: string[];
  sessions: TeamSessionSummary[];
  loops: TeamLoopRunSummary[];
};

export type TeamDashboard = {
  read: () => Promise<TeamDashboardView>;
  close: () => Promise<void>;
};

const LIMIT = 500;

export async function openTeamDashboard(request: {
  home: string;
  env: Env;
  config: Pick<ShimConfig, 'team'>;
  cwd: string;
}): Promise<TeamDashboard> {
  const target = resolveTeamUrl(request.config, request.env);
  if (target === null)
    throw new AppError(
      'TEAM_NOT_CONNECTED',
      'shim ui --team needs a team store, and none is connected',
      'shim team connect postgres://user@host/database (docs/team.md)',
    );
  const repository: TeamRepository = await openTeamRepository({ url: target.url });
  const you = currentWriter(request.env);
  return {
    read: async () => {
      // Projects are looked up at every read: a session started meanwhile adds its project.
      const projects = await withStore(request.home, (store) =>
        localProjectIds(store.sessions, '0000', [request.cwd], currentWriter(request.env).machine),
      );
      const scope = { projectIds: projects, limit: LIMIT };
      const [sessions, loops] = await Promise.all([
        repository.listSessions(scope),
        repository.listLoopRuns(scope),
      ]);
      return { you, projects, sessions, loops };
    },
    close: () => repository.close(),
  };
}
