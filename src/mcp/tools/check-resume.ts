/**
 * `shim_check_resume` (docs/specification.md, "Resume"): was an earlier session of this project interrupted with
 * work left, and if so, the prompt that carries it on.
 */
import { findProjectRoot } from '../../capture/project.ts';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { resolve } from 'node:path';
import { z } from 'zod';
import { recordRestore } from '../../app/restore/restore-session.ts';
import { withStore } from '../../app/open-store.ts';
import { planResume, type ResumePlan } from '../../app/restore/plan-resume.ts';
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import { AppError } from '../../core/errors.ts';
import { renderRestoreFor } from '../../app/restore/render-restore.ts';
import type { Store } from '../../app/open-store.ts';
import {
  callerFacts,
  callerSchema,
  answer,
  guard,
  identifyCaller,
  now,
  short,
  type Caller,
  type McpDeps,
} from '../context.ts';

const name = 'shim_check_resume';

/** Checkpoints of this directory looked through for one from another session. */
const LOOK_BACK = 200;

const inputSchema = {
  autoResume: z
    .boolean()
    .optional()
    .describe(
      'When a resume is recommended, return the full resume prompt and record the checkpoint as restored (it will not be offered again). Default false: only the verdict, which is cheap.',
    ),
};

const outputSchema = {
  shouldResume: z.boolean(),
  detection: z
    .object({
      shouldResume: z.boolean(),
      lastCheckpoint: z.object({
        id: z.string(),
        sessionId: z.string(),
        checkpointNumber: z.number(),
        createdAt: z.string(),
        triggeredBy: z.string(),
      }),
      interruptionReason: z.string(),
      timeSinceInterruption: z.number(),
      confidence: z.number(),
      explanation: z.string(),
    })
    .optional(),
  prompt: z
    .object({
      checkpointId: z.string(),
      sections: z.object({
        situation: z.string(),
        progress: z.string(),
        context: z.string(),
        next: z.array(z.string()),
        files: z.array(z.string()),
        tools: z.array(z.string()),
        blockers: z.array(z.string()),
      }),
      markdown: z.string(),
    })
    .optional(),
  applied: z.boolean().optional(),
  session: callerSchema.optional(),
};

const config = {
  title: 'Check for work to resume',
  description:
    'Checks whether an earlier session in this project (of any agent) was interrupted (crash, ' +
    '"prompt is too long", timeout, compaction) with work left, using shim\'s last checkpoint of ' +
    'that session. Returns shouldResume, the detection (reason, confidence, explanation) and, with ' +
    "autoResume: true, the resume prompt: the user's requests, the task list, decisions, files and " +
    'next steps, to continue from where that session stopped without asking the user again. Call ' +
    'it at the start of a session when the user says "continue" or refers to earlier work. The ' +
    "calling session itself is excluded (it is the most recently written transcript of the server's " +
    'working directory).',
  inputSchema,
  outputSchema,
  annotations: {
    title: 'Check for work to resume',
    // autoResume records the restore; nothing is deleted or overwritten.
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
};

/** The caller, or null when this directory has no session log (a client that is not an agent shim serves). */
async function tryIdentifyCaller(deps: McpDeps): Promise<Caller | null> {
  try {
    // Short wait: other MCP clients have no transcript at all.
    return await identifyCaller(deps, 500);
  } catch (error) {
    if (error instanceof AppError && error.code === 'SESSION_NOT_FOUND') return null;
    throw error;
  }
}

/** The newest checkpoint taken in the project of `cwd` by a session other than the caller's. */
function findPreviousCheckpoint(store: Store, cwd: string, caller: Caller | null) {
  const summary = store.checkpoints
    .list({ project: findProjectRoot(cwd), limit: LOOK_BACK })
    .find((c) => c.sessionId !== caller?.sessionId);
  return summary ? store.checkpoints.getById(summary.id) : null;
}

function toSeedSections(checkpoint: Checkpoint, plan: ResumePlan) {
  const { taskState: task, fileState: files, conversationState: conv } = checkpoint;
  return {
    situation: `Session interrupted: ${plan.detection.interruptionReason}. ${plan.detection.explanation}`,
    progress: `Operation: ${task.operation || '(not recorded)'} (${Math.round(task.progress * 100)}% complete)`,
    context: conv.summary,
    next: task.nextSteps,
    files: [
      ...files.modifiedFiles,
      ...(files.snapshot ? [`snapshot of uncommitted work: ${files.snapshot.ref}`] : []),
    ],
    tools: checkpoint.toolState.pendingOperations.map((p) => `${p.description} (${p.resumeWith})`),
    blockers: task.blockers,
  };
}

export function registerCheckResumeTool(server: McpServer, deps: McpDeps): void {
  server.registerTool(name, config, (args) =>
    guard(deps, name, args, async ({ autoResume }) => {
      const caller = await tryIdentifyCaller(deps);
      const cwd = resolve(deps.cwd);
      const at = now(deps);
      const sessionLine = caller
        ? `Calling session: ${caller.sessionId}, ${caller.basis}; its own checkpoints are not candidates.`
        : `No agent's session log for ${cwd}: every session's checkpoints are candidates.`;
      const found = await withStore(deps.home, async (store) => {
        const checkpoint = findPreviousCheckpoint(store, cwd, caller);
        if (!checkpoint) return null;
        const plan = await planResume(store, checkpoint, deps.home, at, deps.agents);
        const apply = autoResume === true && plan.detection.shouldResume;
        if (apply) {
          recordRestore(store, {
            checkpoint,
            intoSession: caller?.sessionId ?? checkpoint.sessionId,
            detection: plan.detection,
            now: at,
            notes: 'MCP shim_check_resume autoResume',
          });
        }
        return { checkpoint, plan, applied: apply };
      });
      const session = caller ? { session: callerFacts(caller) } : {};
      if (!found) {
        return answer(
          `shouldResume: false. No checkpoint from an earlier session in ${cwd}: nothing to resume.\n${sessionLine}`,
          { shouldResume: false, ...session },
        );
      }
      const { checkpoint, plan, applied } = found;
      const d = plan.detection;
      const detection = {
        shouldResume: d.shouldResume,
        lastCheckpoint: {
          id: checkpoint.id,
          sessionId: checkpoint.sessionId,
          checkpointNumber: checkpoint.checkpointNumber,
          createdAt: checkpoint.createdAt,
          triggeredBy: checkpoint.triggeredBy,
        },
        interruptionReason: d.interruptionReason,
        timeSinceInterruption: d.timeSinceInterruption,
        confidence: d.confidence,
        explanation: d.explanation,
      };
      const head =
        `shouldResume: ${d.shouldResume} (${d.interruptionReason}, confidence ${Math.round(d.confidence * 100)}%) ` +
        `for checkpoint #${checkpoint.checkpointNumber} ${short(checkpoint.id)} of session ${short(checkpoint.sessionId)}, taken ${checkpoint.createdAt}.\n` +
        `${d.explanation}\n${sessionLine}`;
      if (!applied) {
        const next = d.shouldResume
          ? '\nCall shim_check_resume with autoResume: true to get the resume prompt and continue that work.'
          : '';
        return answer(`${head}${next}`, {
          shouldResume: d.shouldResume,
          detection,
          ...(autoResume ? { applied: false } : {}),
          ...session,
        });
      }
      // The restore goes into the calling session's agent; without one, the checkpoint's own.
      const target = caller?.log.agent ?? (await deps.agents.agent(checkpoint.source.agent));
      const markdown = renderRestoreFor(checkpoint, d, target);
      return answer(
        `${head}\nThe checkpoint is now recorded as restored. Continue the work below.\n\n${markdown}`,
        {
          shouldResume: true,
          detection,
          prompt: {
            checkpointId: checkpoint.id,
            sections: toSeedSections(checkpoint, plan),
            markdown,
          },
          applied: true,
          ...session,
        },
      );
    }),
  );
}
