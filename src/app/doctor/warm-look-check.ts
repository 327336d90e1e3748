/**
 * Doctor check: the warm look (hook/warm-look/), so that a `node … background warm-look` in the
 * process list is explained, and a user can see it answers the hooks. Never unhealthy: without
 * it the hooks look in their own process, only slower.
 * @module
 */
import { findProjectRoot } from '../../capture/project.ts';
import { loadConfig } from '../../store/config/config.ts';
import { join } from 'node:path';
import { distrustDir, listWarmLooks } from '../../store/home/warm-look-place.ts';
import { check, type DoctorCheck, type DoctorOptions } from './doctor-check.ts';
import { ago } from '../../core/time-ago.ts';

export async function warmLookCheck(options: DoctorOptions, now: Date): Promise<DoctorCheck> {
  const config = await loadConfig(options.home, {
    lenient: true,
    projectRoot: findProjectRoot(options.cwd),
  });
  if (!config.warmLook)
    return check(
      'warm-look',
      'warm look',
      'ok',
      false,
      'off (warmLook: false): each hook looks at the session in its own process',
    );
  const looks = listWarmLooks(options.home);
  // Not shim's own (a link, another user's, open to others): the hooks never ask through it.
  const run = join(options.home, 'run');
  const runWhy = distrustDir(run);
  const whyOf = new Map(
    runWhy && runWhy !== 'missing'
      ? [[run, runWhy]]
      : looks.flatMap((w) => (w.distrust ? [[w.distrust.path, w.distrust.why]] : [])),
  );
  const paths = [...whyOf.keys()];
  if (paths.length > 0)
    return check(
      'warm-look',
      'warm look',
      'warn',
      false,
      `not used: ${paths.map((p) => `${p} is ${whyOf.get(p)}`).join('; ')} (the hooks look in their own process)`,
      `remove what shim did not make (it makes its own again): rm -r ${paths.join(' ')}`,
    );
  // Serving means holding the pipes open: a pid file's pid may have been reused since.
  const serving = looks.filter((w) => w.serving);
  if (serving.length === 0)
    return check(
      'warm-look',
      'warm look',
      'ok',
      false,
      'not running: the next tool call that needs a full look starts it (it leaves after 10 min without a call)',
    );
  const told = serving.map(({ pid, stats }) =>
    stats
      ? `pid ${pid}, started ${ago(now.getTime() - Date.parse(stats.startedAt))}, ${stats.answered} call${stats.answered === 1 ? '' : 's'} answered`
      : `pid ${pid}, no call answered yet`,
  );
  return check('warm-look', 'warm look', 'ok', false, `running (${told.join('; ')})`);
}
