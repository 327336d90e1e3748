import { findCheckpoint } from '../../app/checkpoint/find-checkpoint.ts';
import {
  readCheckpointChain,
  renderCheckpointChain,
} from '../../app/checkpoint/checkpoint-chain-view.ts';
import { withStore } from '../../app/open-store.ts';
import { planResume } from '../../app/restore/plan-resume.ts';
import { resolveScope } from '../../app/project-scope.ts';
import { renderHandoff } from '../../core/resume/handoff.ts';
import { loadConfig } from '../../store/config/config.ts';
import { getShimHome } from '../../store/home/home.ts';

export async function runShow(
  id: string,
  options: { json?: boolean; all?: boolean; cwd?: string },
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
      ? { checkpoint, chain, plan: null }
      : { checkpoint, chain, plan: await planResume(store, checkpoint, home, Date.now()) };
  });
  if (options.json)
    process.stdout.write(
      `${JSON.stringify({ ...result.checkpoint, chain: result.chain }, null, 2)}\n`,
    );
  else
    process.stdout.write(
      `${renderHandoff(result.checkpoint, result.plan?.detection ?? null)}\n${result.chain ? `\n${renderCheckpointChain(result.chain)}\n` : ''}`,
    );
}
