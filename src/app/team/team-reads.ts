/**
 * Reading the team store (`shim list --team`, `shim search --team`): scoped to the projects
 * this user has — the current project, or with `all` every project this machine worked in —
 * never the whole server; `mine` keeps the user's own rows (docs/team.md, "Who sees what").
 * @module
 */
import { identifyProject } from '../../capture/project-remote.ts';
import { replaceRoot } from '../../core/team/rebase-checkpoint.ts';
import { AppError } from '../../core/errors.ts';
import type { Env } from '../../store/home/home.ts';
import type { ShimConfig } from '../../store/config/config.ts';
import type {
  TeamReadScope,
  TeamRepository,
  TeamSearchHit,
  TeamSessionSummary,
} from '../../store/ports/team-repository.ts';
import { withStore } from '../open-store.ts';
import { openTeamRepository } from './open-team-store.ts';
import { localProjectIds } from './pull-team-work.ts';
import { currentWriter } from './team-settings.ts';
import { resolveTeamUrl } from './team-url.ts';

export type TeamReadRequest = {
  home: string;
  env: Env;
  config: Pick<ShimConfig, 'team'>;
  cwd: string;
  all?: boolean;
  mine?: boolean;
  /** One session's rows only (`shim list --session`). */
  sessionId?: string;
  limit: number;
};

export async function withTeam<T>(
  request: TeamReadRequest,
  work: (repository: TeamRepository, scope: TeamReadScope) => Promise<T>,
): Promise<{ projects: string[]; result: T }> {
  const target = resolveTeamUrl(request.config, request.env);
  if (target === null)
    throw new AppError(
      'TEAM_NOT_CONNECTED',
      'no team store is connected',
      'shim team connect postgres://user@host/database (docs/team.md)',
    );
  const projects = request.all
    ? await withStore(request.home, (store) =>
        localProjectIds(store.sessions, '0000', [request.cwd], currentWriter(request.env).machine),
      )
    : [identifyProject(request.cwd, request.env).id];
  const repository = await openTeamRepository({ url: target.url });
  try {
    const scope: TeamReadScope = {
      projectIds: projects,
      limit: request.limit,
      ...(request.mine ? { osUser: currentWriter(request.env).osUser } : {}),
      ...(request.sessionId !== undefined ? { sessionId: request.sessionId } : {}),
    };
    return { projects, result: await work(repository, scope) };
  } finally {
    await repository.close();
  }
}

export async function listTeamSessions(
  request: TeamReadRequest,
): Promise<{ projects: string[]; sessions: TeamSessionSummary[] }> {
  const { projects, result } = await withTeam(request, (repo, scope) => repo.listSessions(scope));
  return { projects, sessions: result };
}

/**
 * Search hits as this machine may show them: a snippet names paths in this clone (or relative to
 * the repository), never the clone of the machine that wrote it.
 */
export async function searchTeam(
  request: TeamReadRequest & { query: string },
): Promise<{ projects: string[]; hits: Array<Omit<TeamSearchHit, 'cloneRoot'>> }> {
  const { projects, result } = await withTeam(request, (repo, scope) =>
    repo.search(request.query, scope),
  );
  const here = identifyProject(request.cwd, request.env);
  const hits = result.map(({ cloneRoot, ...hit }) => {
    const root = cloneRoot?.replace(/\/+$/, '') ?? '';
    const to = hit.projectId === here.id ? here.root : '.';
    return root.length > 1 ? { ...hit, snippet: replaceRoot(hit.snippet, root, to) } : hit;
  });
  return { projects, hits };
}
