import type { Agents } from '../../agents/agent.ts';
import { findCheckpoint } from '../../app/checkpoint/find-checkpoint.ts';
import {
  readCheckpointChain,
  renderCheckpointChain,
} from '../../app/checkpoint/checkpoint-chain-view.ts';
import { withStore } from '../../app/open-store.ts';
import { renderRestoreFor } from '../../app/restore/render-restore.ts';
import { shownRestore } from '../../app/restore/shown-restore.ts';
import { resolveScope } from '../../app/project-scope.ts';
import { renderHandoff } from '../../core/resume/handoff.ts';
import { loadConfig } from '../../store/config/config.ts';
import { getShimHome } from '../../store/home/home.ts';
import { dim } from '../format/text.ts';

/**
 * One checkpoint: the restore as the agent was given it (or would be now), rendered by the one
 * restore renderer; `--handoff` the handoff document; `--json` the checkpoint itself.
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
  const result = await withStore(home, async (store) => {
    const found = findCheckpoint(store.checkpoints, id, scope);
    // The id asked for when it names one (its chain may read as an older checkpoint).
    const chain = readCheckpointChain(
      store,
      store.checkpoints.getSummary(id) ? id : found.id,
      limits,
    );
    const checkpoint = chain?.steps[0]
      ? (store.checkpoints.getById(chain.steps[0].id) ?? found)
      : found;
    return options.json
      ? { checkpoint, chain, shown: null }
      : {
          checkpoint,
          chain,
          shown: await shownRestore(store, checkpoint, home, Date.now(), agents),
        };
  });
  const { checkpoint, chain, shown } = result;
  if (shown === null) {
    process.stdout.write(`${JSON.stringify({ ...checkpoint, chain }, null, 2)}\n`);
    return;
  }
  const chainText = chain ? `\n${renderCheckpointChain(chain)}\n` : '';
  if (options.handoff) {
    process.stdout.write(`${renderHandoff(checkpoint, shown.detection)}\n${chainText}`);
    return;
  }
  const text = renderRestoreFor(checkpoint, shown.detection, shown.target, {
    compactSummary: shown.compactSummary,
  });
  const given = shown.restored
    ? `the restore given to session ${shown.restored.sessionId.slice(0, 8)} at ${shown.restored.at}`
    : 'the restore a session would be given now';
  process.stderr.write(
    `${dim(`checkpoint ${checkpoint.id}: ${given} (${text.length} characters; --handoff for the handoff document, --json for all of it)`)}\n`,
  );
  process.stdout.write(`${text}${text.endsWith('\n') ? '' : '\n'}${chainText}`);
}
