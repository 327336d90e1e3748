import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { findLatestCheckpoint } from '../../app/find-checkpoint.ts';
import { withStore } from '../../app/open-store.ts';
import { planResume } from '../../app/plan-resume.ts';
import { renderHandoff } from '../../core/handoff.ts';
import { ensureDir, getShimHome } from '../../store/home.ts';

export async function runHandoff(options: {
  session?: string;
  out?: string;
  print?: boolean;
}): Promise<void> {
  const home = getShimHome();
  const plan = await withStore(home, (store) =>
    planResume(store, findLatestCheckpoint(store.checkpoints, options.session), home, Date.now()),
  );
  const document = renderHandoff(plan.checkpoint, plan.detection);
  const { checkpoint } = plan;
  const path = join(
    ensureDir(home, 'handoffs'),
    `${checkpoint.sessionId}-${String(checkpoint.checkpointNumber).padStart(3, '0')}.md`,
  );
  writeFileSync(path, `${document}\n`, { mode: 0o600 });
  if (options.out) writeFileSync(resolve(options.out), `${document}\n`);
  if (options.print) process.stdout.write(`${document}\n`);
  else
    process.stdout.write(
      `handoff for checkpoint #${checkpoint.checkpointNumber} of session ${checkpoint.sessionId.slice(0, 8)} written to ${path}${options.out ? ` and ${resolve(options.out)}` : ''}\n`,
    );
}
