import { findLatestCheckpoint } from '../../app/checkpoint/find-checkpoint.ts';
import { isAgentId, type AgentId } from '../../core/agent-id.ts';
import { AppError } from '../../core/errors.ts';
import { withStore } from '../../app/open-store.ts';
import { planResume } from '../../app/restore/plan-resume.ts';
import { describeScope, resolveScope } from '../../app/project-scope.ts';
import { planWithLiveCheckpoint, recordRestore } from '../../app/restore/restore-session.ts';
import { renderRestoreFor } from '../../app/restore/render-restore.ts';
import { getShimHome } from '../../store/home/home.ts';
import { bold, dim } from '../format/text.ts';

export type ResumeOptions = {
  session?: string;
  print?: boolean;
  json?: boolean;
  record?: boolean;
  all?: boolean;
  cwd?: string;
};

/** The agent a restore goes into (`--for`), checked. */
function targetAgent(target: string | undefined, source: AgentId): AgentId {
  if (target === undefined) return source;
  if (!isAgentId(target))
    throw new AppError('USAGE', `unknown agent "${target}"`, 'use --for claude, codex or gemini');
  return target;
}

export async function runResume(options: ResumeOptions & { for?: string }): Promise<void> {
  const home = getShimHome();
  const scope = resolveScope(options, process.cwd());
  const plan = await withStore(home, async (store) => {
    const now = Date.now();
    // The same live read of a stopped session's transcript as the hook's restore at startup.
    const planned = await planWithLiveCheckpoint(
      await planResume(
        store,
        findLatestCheckpoint(store.checkpoints, options.session, scope),
        home,
        now,
      ),
      { store, home, env: process.env, now, cwd: process.cwd() },
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
    return planned;
  });
  const source = plan.checkpoint.source.agent ?? 'claude';
  const prompt = await renderRestoreFor(
    plan.checkpoint,
    plan.detection,
    targetAgent(options.for, source),
  );
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
