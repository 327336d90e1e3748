import type { Agents } from '../../agents/agent.ts';
import { findCheckpoint } from '../../app/checkpoint/find-checkpoint.ts';
import { teamCheckpointsById, type RowFrom } from '../../app/team/team-beside-local.ts';
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import { AppError } from '../../core/errors.ts';
import {
  readCheckpointChain,
  renderCheckpointChain,
} from '../../app/checkpoint/checkpoint-chain-view.ts';
import { withStore } from '../../app/open-store.ts';
import { renderRestoreFor } from '../../app/restore/render-restore.ts';
import { withoutLearned } from '../../app/checkpoint/learned-scrub.ts';
import { SecretMemory } from '../../redact/redact.ts';
import { shownRestore } from '../../app/restore/shown-restore.ts';
import { resolveScope } from '../../app/project-scope.ts';
import { renderHandoff } from '../../core/resume/handoff.ts';
import { loadConfig } from '../../store/config/config.ts';
import { getShimHome } from '../../store/home/home.ts';
import { dim } from '../format/text.ts';

/**
 * A checkpoint this machine's store does not have, from the team store when one is connected
 * (another machine's or a teammate's, its paths this clone's); else the local error stands.
 */
async function fromTeam(
  notHere: AppError,
  request: { home: string; id: string; cwd: string; all: boolean },
): Promise<{ checkpoint: Checkpoint; from: NonNullable<RowFrom> }> {
  const team = await teamCheckpointsById({
    home: request.home,
    env: process.env,
    config: await loadConfig(request.home, { lenient: true }),
    cwd: request.cwd,
    id: request.id,
    limit: 6,
    ...(request.all ? { all: true } : {}),
  });
  if (team === null) throw notHere;
  if (team.error !== null)
    throw new AppError(
      notHere.code,
      `${notHere.message}; the team store was not read (${team.error})`,
      notHere.hint,
    );
  if (team.rows.length > 1)
    throw new AppError(
      'USAGE',
      `"${request.id}" matches ${team.rows.length} checkpoints of the team store (${team.rows
        .slice(0, 5)
        .map((r) => r.checkpoint.id)
        .join(', ')})`,
      'give more characters of the id',
    );
  const found = team.rows[0];
  if (!found)
    throw new AppError(notHere.code, `${notHere.message}, here or in the team store`, notHere.hint);
  return found;
}

/**
 * One checkpoint: the restore as the agent was given it (or would be now), rendered by the one
 * restore renderer; `--handoff` the handoff document; `--json` the checkpoint itself. A
 * checkpoint of another machine's or a teammate's comes from the team store when one is
 * connected, and says whose it is.
 */
export async function runShow(
  agents: Agents,
  id: string,
  options: { json?: boolean; handoff?: boolean; all?: boolean; cwd?: string },
): Promise<void> {
  const home = getShimHome();
  const scope = resolveScope(options, process.cwd());
  const config = await loadConfig(home);
  const limits = { hours: config.restoreContextHours, max: config.restoreMaxContexts };
  const local = await withStore(home, (store) => {
    try {
      return findCheckpoint(store.checkpoints, id, scope);
    } catch (error) {
      if (error instanceof AppError && error.code === 'CHECKPOINT_NOT_FOUND') return error;
      throw error;
    }
  });
  const team =
    local instanceof AppError
      ? await fromTeam(local, {
          home,
          id,
          cwd: scope.kind === 'project' ? scope.root : process.cwd(),
          all: scope.kind === 'all',
        })
      : null;
  const result = await withStore(home, async (store) => {
    const found = team?.checkpoint ?? (local as Checkpoint);
    // The id asked for when it names one (its chain may read as an older checkpoint).
    const chain = team
      ? null
      : readCheckpointChain(store, store.checkpoints.getSummary(id) ? id : found.id, limits);
    const checkpoint = chain?.steps[0]
      ? (store.checkpoints.getById(chain.steps[0].id) ?? found)
      : found;
    const shown = options.json
      ? null
      : await shownRestore(store, checkpoint, home, Date.now(), agents);
    return {
      checkpoint,
      chain,
      // What the home learned is a secret, for all it prints: the row may predate it.
      known: store.learned.all().lines,
      shown:
        shown && team ? { ...shown, detection: { ...shown.detection, from: team.from } } : shown,
    };
  });
  const { checkpoint, chain, shown, known } = result;
  const learned = SecretMemory.from(known);
  if (shown === null) {
    const whole = withoutLearned(
      { ...checkpoint, chain, ...(team ? { from: team.from } : {}) },
      learned,
    );
    process.stdout.write(`${JSON.stringify(whole, null, 2)}\n`);
    return;
  }
  const chainText = chain ? withoutLearned(`\n${renderCheckpointChain(chain)}\n`, learned) : '';
  if (options.handoff) {
    const handoff = withoutLearned(renderHandoff(checkpoint, shown.detection), learned);
    process.stdout.write(`${handoff}\n${chainText}`);
    return;
  }
  const text = renderRestoreFor(checkpoint, shown.detection, shown.target, {
    compactSummary: shown.compactSummary,
    known,
  });
  const given = shown.restored
    ? `the restore given to session ${shown.restored.sessionId.slice(0, 8)} at ${shown.restored.at}`
    : 'the restore a session would be given now';
  process.stderr.write(
    `${dim(`checkpoint ${checkpoint.id}${team ? ` of ${team.from.osUser} on ${team.from.machine} (team store)` : ''}: ${given} (${text.length} characters; --handoff for the handoff document, --json for all of it)`)}\n`,
  );
  process.stdout.write(`${text}${text.endsWith('\n') ? '' : '\n'}${chainText}`);
}
