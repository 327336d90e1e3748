/**
 * The team's checkpoints beside this machine's, for `shim list`, `shim show` and `shim search` without
 * `--team` (docs/team.md, "Reading the team's rows"): asked only when a team store is connected,
 * scoped as `--team` reads are (the current project, or with `all` the projects this machine
 * worked in), never this machine's own rows twice; each row says who wrote it where, its paths
 * are this clone's (or none), and a server that does not answer costs one line, not the command.
 * @module
 */
import { identifyProject } from '../../capture/project-remote.ts';
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import { AppError } from '../../core/errors.ts';
import { rebaseCheckpoint } from '../../core/team/rebase-checkpoint.ts';
import type { CheckpointSummary } from '../../store/ports/checkpoints.ts';
import type { TeamCheckpoint } from '../../store/ports/team-repository.ts';
import { searchTeam, withTeam, type TeamReadRequest } from './team-reads.ts';
import { currentWriter } from './team-settings.ts';
import { resolveTeamUrl } from './team-url.ts';

/** Who wrote a row where; null: this machine's store. */
export type RowFrom = { osUser: string; machine: string } | null;

/** What the team added to a read: null when no team store is connected. */
export type TeamBeside<T> = { rows: T[]; error: string | null } | null;

const isConnected = (request: TeamReadRequest) =>
  resolveTeamUrl(request.config, request.env) !== null;

const messageOf = (error: unknown) =>
  error instanceof AppError
    ? error.message
    : error instanceof Error
      ? error.message
      : String(error);

/** A team checkpoint with this clone's paths when it is this project, else none of its own. */
function placed(found: TeamCheckpoint, request: TeamReadRequest): Checkpoint {
  const here = identifyProject(request.cwd, request.env);
  if (found.projectId === here.id) return rebaseCheckpoint(found.checkpoint, here.root);
  return rebaseCheckpoint(found.checkpoint, '.');
}

/** contextTokens / compactThreshold as a percent with one decimal, as a local row's (none: null). */
function thresholdPercent(source: Partial<Checkpoint['source']>): number | null {
  const { contextTokens, compactThreshold } = source;
  if (!compactThreshold || contextTokens === undefined) return null;
  return Math.round((contextTokens / compactThreshold) * 1000) / 10;
}

/** A list row of a team checkpoint, as `shim list` shows this machine's. */
function summaryOf(checkpoint: Checkpoint): CheckpointSummary {
  return {
    id: checkpoint.id,
    sessionId: checkpoint.sessionId,
    checkpointNumber: checkpoint.checkpointNumber,
    createdAt: checkpoint.createdAt,
    triggeredBy: checkpoint.triggeredBy,
    crashRisk: checkpoint.signals.crashRisk,
    progress: checkpoint.taskState.progress,
    operation: checkpoint.taskState.operation || null,
    contextWindowUsage: checkpoint.signals.contextWindowUsage,
    contextPercent: thresholdPercent(checkpoint.source),
    messageCount: checkpoint.signals.messageCount,
    toolCallCount: checkpoint.signals.toolCallCount,
    size: { uncompressed: 0, compressed: 0, compressionRatio: 0, stored: 0 },
    restoredAt: null,
    cwd: checkpoint.source.cwd,
    transcriptPath: null,
    snapshotRef: null,
    agent: checkpoint.source.agent,
    deltaOf: null,
  };
}

/** The other machines' and teammates' checkpoints of the scope, newest first, as list rows. */
export async function teamListRows(
  request: TeamReadRequest,
): Promise<TeamBeside<CheckpointSummary & { from: RowFrom }>> {
  if (!isConnected(request)) return null;
  try {
    const { result } = await withTeam(request, (repository, scope) =>
      repository.listCheckpoints(scope, currentWriter(request.env)),
    );
    return {
      rows: result.map((found) => ({
        ...summaryOf(placed(found, request)),
        from: { osUser: found.osUser, machine: found.machine },
      })),
      error: null,
    };
  } catch (error) {
    return { rows: [], error: messageOf(error) };
  }
}

/** The team's checkpoints whose id is or starts with `idOrPrefix`, placed in this clone. */
export async function teamCheckpointsById(
  request: TeamReadRequest & { id: string },
): Promise<TeamBeside<{ checkpoint: Checkpoint; from: NonNullable<RowFrom> }>> {
  if (!isConnected(request)) return null;
  try {
    const { result } = await withTeam(request, (repository, scope) =>
      repository.findCheckpoint(request.id, scope),
    );
    return {
      rows: result.map((found) => ({
        checkpoint: placed(found, request),
        from: { osUser: found.osUser, machine: found.machine },
      })),
      error: null,
    };
  } catch (error) {
    return { rows: [], error: messageOf(error) };
  }
}

/** The other machines' and teammates' search hits of the scope (best first, as the server ranks). */
export async function teamSearchHits(request: TeamReadRequest & { query: string }): Promise<
  TeamBeside<{
    checkpointId: string;
    sessionId: string;
    createdAt: string;
    snippet: string;
    from: NonNullable<RowFrom>;
  }>
> {
  if (!isConnected(request)) return null;
  try {
    const { hits } = await searchTeam(request);
    const me = currentWriter(request.env);
    return {
      rows: hits
        .filter((h) => !(h.machine === me.machine && h.osUser === me.osUser))
        .map((h) => ({
          checkpointId: h.checkpointId,
          sessionId: h.sessionId,
          createdAt: h.createdAt,
          snippet: h.snippet,
          from: { osUser: h.osUser, machine: h.machine },
        })),
      error: null,
    };
  } catch (error) {
    return { rows: [], error: messageOf(error) };
  }
}
