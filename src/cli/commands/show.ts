import { findCheckpoint } from '../../app/checkpoint/find-checkpoint.ts';
import { withStore } from '../../app/open-store.ts';
import { planResume } from '../../app/restore/plan-resume.ts';
import { resolveScope } from '../../app/project-scope.ts';
import { renderHandoff } from '../../core/resume/handoff.ts';
import { getShimHome } from '../../store/home/home.ts';

export async function runShow(
  id: string,
  options: { json?: boolean; all?: boolean; cwd?: string },
): Promise<void> {
  const home = getShimHome();
  const scope = resolveScope(options, process.cwd());
  const result = await withStore(home, async (store) => {
    const checkpoint = findCheckpoint(store.checkpoints, id, scope);
    return options.json
      ? { checkpoint, plan: null }
      : { checkpoint, plan: await planResume(store, checkpoint, home, Date.now()) };
  });
  if (options.json) process.stdout.write(`${JSON.stringify(result.checkpoint, null, 2)}\n`);
  else
    process.stdout.write(`${renderHandoff(result.checkpoint, result.plan?.detection ?? null)}\n`);
}
