import type { Agents } from '../../agents/agent.ts';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { findLatestCheckpoint } from '../../app/checkpoint/find-checkpoint.ts';
import { withStore } from '../../app/open-store.ts';
import { planResume } from '../../app/restore/plan-resume.ts';
import { describeScope, resolveScope } from '../../app/project-scope.ts';
import { newerTeamWork } from '../../app/team/newer-team-work.ts';
import { writeHandoff } from '../../app/write-handoff.ts';
import { getShimHome } from '../../store/home/home.ts';
import { dim } from '../format/text.ts';
import { pullTeamForRead } from './pull-for-read.ts';

export type HandoffCommandOptions = {
  session?: string;
  out?: string;
  print?: boolean;
  all?: boolean;
  cwd?: string;
  team?: boolean;
};

export async function runHandoff(agents: Agents, options: HandoffCommandOptions): Promise<void> {
  const home = getShimHome();
  const scope = resolveScope(options, process.cwd());
  const team = await pullTeamForRead(home, scope, options);
  const now = Date.now();
  const { checkpoint, written, from } = await withStore(home, async (store) => {
    // The project's newest work may be another machine's (the team store): that is what a new
    // session here would start from, so that is what is handed on.
    const fromTeam =
      team && scope.kind === 'project'
        ? newerTeamWork(store, scope.root, { ...team, env: process.env, now })
        : null;
    const plan = fromTeam
      ? {
          // Kept here, as a restore of it at a session start keeps it: the document names it.
          checkpoint:
            store.checkpoints.getById(fromTeam.checkpoint.id) ??
            store.checkpoints.save(fromTeam.checkpoint).checkpoint,
          detection: fromTeam.detection,
        }
      : await planResume(
          store,
          findLatestCheckpoint(store.checkpoints, options.session, scope),
          home,
          now,
          agents,
        );
    return {
      checkpoint: plan.checkpoint,
      from: fromTeam?.detection.from ?? null,
      written: await writeHandoff(store, home, {
        checkpoint: plan.checkpoint,
        kind: options.team ? 'team' : 'user',
        detection: plan.detection,
        now,
      }),
    };
  });
  // Sent now when the server answers; otherwise it waits in the outbox (shim team status).
  if (options.team) await (await import('./team.ts')).runTeamSyncNow(options.print === true);
  if (options.out) writeFileSync(resolve(options.out), `${written.document}\n`);
  if (options.print) {
    process.stdout.write(`${written.document}\n`);
    return;
  }
  const where =
    (options.session ? `session ${options.session}` : describeScope(scope)) +
    (from ? `, ${from.osUser}'s on ${from.machine} (team store)` : '');
  process.stdout.write(
    `handoff for checkpoint #${checkpoint.checkpointNumber} of session ${checkpoint.sessionId.slice(0, 8)} written to ${written.path}${options.out ? ` and ${resolve(options.out)}` : ''}\n` +
      dim(
        options.team
          ? `newest checkpoint of ${where}; handed to the team: the next session started in this project on any connected machine picks it up once\n`
          : `newest checkpoint of ${where}; the next session of any agent started in ${checkpoint.source.cwd ?? 'this project'} picks it up once\n`,
      ),
  );
}
