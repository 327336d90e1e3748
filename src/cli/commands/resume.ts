import type { Agents } from '../../agents/agent.ts';
import { findLatestCheckpoint } from '../../app/checkpoint/find-checkpoint.ts';
import { isAgentId, type AgentId } from '../../core/agent-id.ts';
import { AppError } from '../../core/errors.ts';
import { withStore } from '../../app/open-store.ts';
import { planResume } from '../../app/restore/plan-resume.ts';
import { describeScope, resolveScope } from '../../app/project-scope.ts';
import { newerTeamWork } from '../../app/team/newer-team-work.ts';
import { planWithLiveCheckpoint, recordRestore } from '../../app/restore/restore-session.ts';
import { renderRestoreFor } from '../../app/restore/render-restore.ts';
import { getShimHome } from '../../store/home/home.ts';
import { bold, dim } from '../format/text.ts';
import { pullTeamForRead } from './pull-for-read.ts';

export type ResumeOptions = {
  session?: string;
  print?: boolean;
  json?: boolean;
  record?: boolean;
  all?: boolean;
  cwd?: string;
};

/** The agent a restore goes into (`--for`), checked; the session's own by default. */
function targetAgent(target: string | undefined, source: AgentId): AgentId {
  if (target === undefined) return source;
  if (!isAgentId(target))
    throw new AppError('USAGE', `unknown agent "${target}"`, 'use --for claude, codex or gemini');
  return target;
}

export async function runResume(
  agents: Agents,
  options: ResumeOptions & { for?: string },
): Promise<void> {
  const home = getShimHome();
  const scope = resolveScope(options, process.cwd());
  const team = await pullTeamForRead(home, scope, options);
  const plan = await withStore(home, async (store) => {
    const now = Date.now();
    const fromTeam =
      team && scope.kind === 'project'
        ? newerTeamWork(store, scope.root, { ...team, env: process.env, now })
        : null;
    if (fromTeam) {
      if (options.record) {
        const { work } = fromTeam;
        store.teamWork.take(
          work.projectId,
          work.checkpoint.id,
          'shim resume --record',
          new Date(now).toISOString(),
        );
        const checkpoint =
          store.checkpoints.getById(fromTeam.checkpoint.id) ??
          store.checkpoints.save(fromTeam.checkpoint).checkpoint;
        recordRestore(store, {
          checkpoint,
          intoSession: checkpoint.sessionId,
          detection: fromTeam.detection,
          now,
          notes: 'shim resume --record (team)',
          userConfirmed: true,
        });
      }
      return {
        checkpoint: fromTeam.checkpoint,
        detection: fromTeam.detection,
        known: store.learned.all().lines,
      };
    }
    // The same live read of a stopped session's transcript as the hook's restore at startup.
    const planned = await planWithLiveCheckpoint(
      await planResume(
        store,
        findLatestCheckpoint(store.checkpoints, options.session, scope),
        home,
        now,
        agents,
      ),
      { store, agents, home, env: process.env, now, cwd: process.cwd() },
    );
    if (options.record) {
      recordRestore(store, {
        checkpoint: planned.checkpoint,
        intoSession: planned.checkpoint.sessionId,
        detection: planned.detection,
        now,
        notes: 'shim resume --record',
        userConfirmed: true,
      });
    }
    // What the home learned is a secret is replaced in what is printed (render-restore.ts).
    return { ...planned, known: store.learned.all().lines };
  });
  const target = await agents.agent(targetAgent(options.for, plan.checkpoint.source.agent));
  const prompt = renderRestoreFor(plan.checkpoint, plan.detection, target, { known: plan.known });
  if (options.print) {
    process.stdout.write(`${prompt}\n`);
    return;
  }
  const where = options.session ? `session ${options.session}` : describeScope(scope);
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify({ scope: where, checkpointId: plan.checkpoint.id, sessionId: plan.checkpoint.sessionId, detection: plan.detection, prompt }, null, 2)}\n`,
    );
    return;
  }
  const d = plan.detection;
  process.stdout.write(
    [
      `${bold(d.shouldResume ? 'resume recommended' : 'no resume needed')} · ${d.interruptionReason} · confidence ${Math.round(d.confidence * 100)}%`,
      `  ${d.explanation}`,
      `  checkpoint #${plan.checkpoint.checkpointNumber} (${plan.checkpoint.id.slice(0, 8)}) of session ${plan.checkpoint.sessionId.slice(0, 8)}, taken ${plan.checkpoint.createdAt}`,
      dim(
        `  newest checkpoint of ${where}${options.all || options.session ? '' : ' (--all: every project)'}`,
      ),
      dim(
        `  print the prompt with \`shim resume --print${options.session ? ` --session ${options.session}` : ''}\` (${prompt.length} characters, ~${Math.ceil(prompt.length / 4)} tokens)`,
      ),
    ].join('\n') + '\n',
  );
}
