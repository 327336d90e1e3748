import { createCheckpoint } from '../../app/checkpoint/create-checkpoint.ts';
import { CHECKPOINT_TRIGGERS, type CheckpointTrigger } from '../../core/checkpoint/checkpoint.ts';
import { AppError } from '../../core/errors.ts';
import type { AgentId } from '../../core/agent-id.ts';
import { findSessionLog } from '../../app/session/session-log.ts';
import type { Agents } from '../../agents/agent.ts';
import { getShimHome } from '../../store/home/home.ts';
import { bold, dim } from '../format/text.ts';
import { formatBytes } from '../format/units.ts';

export type CheckpointOptions = {
  transcript?: string;
  session?: string;
  untilLine?: string;
  reason?: string;
  trigger: string;
  snapshot: boolean;
  wipCommit?: boolean;
  json?: boolean;
  agent?: AgentId;
};

function parseUntilLine(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new AppError(
      'USAGE',
      `--until-line must be a line number ≥ 1, got "${value}"`,
      'e.g. --until-line 200',
    );
  return n;
}

export async function runCheckpoint(agents: Agents, options: CheckpointOptions): Promise<void> {
  if (!(CHECKPOINT_TRIGGERS as readonly string[]).includes(options.trigger)) {
    throw new AppError(
      'USAGE',
      `unknown trigger "${options.trigger}"`,
      `one of: ${CHECKPOINT_TRIGGERS.join(', ')}`,
    );
  }
  const untilLine = parseUntilLine(options.untilLine);
  // The log named (a file, a session id, or this directory's newest), and whose it is: --agent
  // when given (checked against a file), else told from the file.
  const log = await findSessionLog(
    {
      ...(options.transcript !== undefined ? { transcript: options.transcript } : {}),
      ...(options.session !== undefined ? { sessionId: options.session } : {}),
      ...(options.agent ? { agent: options.agent } : {}),
      cwd: process.cwd(),
      env: process.env,
    },
    agents,
  );
  const result = await createCheckpoint({
    log,
    ...(untilLine !== undefined ? { untilLine } : {}),
    cwd: process.cwd(),
    env: process.env,
    home: getShimHome(),
    now: Date.now(),
    trigger: options.trigger as CheckpointTrigger,
    reason: options.reason ?? null,
    snapshot: options.snapshot,
    wipCommit: options.wipCommit ?? false,
  });
  const { checkpoint, size } = result;
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify({
        checkpointId: checkpoint.id,
        sessionId: checkpoint.sessionId,
        checkpointNumber: checkpoint.checkpointNumber,
        size,
        snapshotRef: checkpoint.fileState.snapshot?.ref ?? null,
        redactions: result.redactions,
        wipCommit: result.wipCommit,
        durationMs: Math.round(result.durationMs),
      })}\n`,
    );
    return;
  }
  const lines = [
    `${bold(`checkpoint #${checkpoint.checkpointNumber}`)} of session ${checkpoint.sessionId.slice(0, 8)} saved: ${checkpoint.id}`,
    `  ${formatBytes(size.compressed)} compressed (${size.compressionRatio}× of ${formatBytes(size.uncompressed)})${size.stored < size.compressed ? `, ${formatBytes(size.stored)} stored as what changed` : ''} · ${Math.round(result.durationMs)} ms` +
      (result.redactions > 0
        ? ` · ${result.redactions} secret${result.redactions === 1 ? '' : 's'} redacted`
        : ''),
    `  ${checkpoint.taskState.items.length > 0 ? `tasks ${checkpoint.taskState.completedSteps.length}/${checkpoint.taskState.items.length} done · ` : ''}context ${result.assessment.percent}% of auto-compact (${result.assessment.level})`,
    checkpoint.fileState.snapshot
      ? `  git snapshot ${checkpoint.fileState.snapshot.ref} (restore with \`shim restore-files ${checkpoint.id.slice(0, 8)}\`)`
      : dim('  no git snapshot (not in a git repository, or nothing to snapshot)'),
    ...(result.wipCommit
      ? [`  WIP commit ${result.wipCommit.slice(0, 12)} on your branch (--wip-commit)`]
      : []),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
