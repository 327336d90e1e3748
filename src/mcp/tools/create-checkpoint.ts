/** `shim_checkpoint` (docs/specification.md, "Resume"): save the calling session's state at a moment the model picks. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { createCheckpoint } from '../../app/checkpoint/create-checkpoint.ts';
import { truncate } from '../../core/truncate.ts';
import {
  answer,
  callerFacts,
  callerSchema,
  guard,
  identifyCaller,
  now,
  short,
  type McpDeps,
} from '../context.ts';

const name = 'shim_checkpoint';

/** Metadata is kept with the reason, as JSON, at most this long. */
const METADATA_CHARS = 2000;

const inputSchema = {
  reason: z
    .string()
    .max(500)
    .optional()
    .describe(
      'Why now, in a few words: the step just finished or about to start (e.g. "before migrating the schema"). Kept with the checkpoint and searchable.',
    ),
  metadata: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      'Any small JSON object to keep with the checkpoint (stored with the reason, searchable).',
    ),
};

const outputSchema = {
  checkpointId: z.string(),
  success: z.boolean(),
  size: z.object({
    uncompressed: z.number(),
    compressed: z.number(),
    compressionRatio: z.number(),
    /** What the checkpoint added to the store: its change since the previous one, or it whole. */
    stored: z.number().optional(),
  }),
  timing: z.object({ duration: z.number() }),
  session: callerSchema,
};

const config = {
  title: 'Take a checkpoint',
  description:
    "Save this session's working state now: the user's requests, the task list, decisions, files " +
    'touched, recent tool activity and a git snapshot of uncommitted work (kept under a hidden ref; ' +
    'your branch, index and files are not touched). Secrets are redacted. Use it before a risky or ' +
    'long step, after finishing a milestone, or when shim_get_crash_risk says warning or danger. ' +
    'A fresh session is offered the latest checkpoint if this one is interrupted. Each call adds a ' +
    "new checkpoint. The session is the most recently written transcript of the server's working " +
    'directory; the answer names it.',
  inputSchema,
  outputSchema,
  annotations: {
    title: 'Take a checkpoint',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
};

function describeReason(reason: string | undefined, metadata: Record<string, unknown> | undefined) {
  const parts = [reason?.trim() || 'requested by the agent'];
  if (metadata && Object.keys(metadata).length > 0) {
    parts.push(`metadata: ${truncate(JSON.stringify(metadata), METADATA_CHARS)}`);
  }
  return parts.join(' · ');
}

export function registerCreateCheckpointTool(server: McpServer, deps: McpDeps): void {
  server.registerTool(name, config, (args) =>
    guard(deps, name, args, async ({ reason, metadata }) => {
      const caller = await identifyCaller(deps);
      const result = await createCheckpoint({
        log: caller.log,
        cwd: deps.cwd,
        env: deps.env,
        home: deps.home,
        now: now(deps),
        trigger: 'user_requested',
        reason: describeReason(reason, metadata),
      });
      const { checkpoint, size } = result;
      const duration = Math.round(result.durationMs);
      const snapshot = checkpoint.fileState.snapshot;
      const text = [
        `Checkpoint #${checkpoint.checkpointNumber} saved: ${checkpoint.id} (session ${short(checkpoint.sessionId)}).`,
        `${size.compressed} bytes compressed (${size.compressionRatio}× of ${size.uncompressed}), ${duration} ms; ` +
          `${checkpoint.conversationState.userRequests.length} requests, ${checkpoint.taskState.items.length} tasks` +
          (result.redactions > 0 ? `, ${result.redactions} secrets redacted` : '') +
          '.',
        snapshot
          ? `Uncommitted work is snapshotted at ${snapshot.ref}.`
          : 'No git snapshot (not a git repository, or nothing uncommitted).',
        `Read it back with shim_get_checkpoint("${short(checkpoint.id)}").`,
        `Calling session: ${caller.sessionId}, ${caller.basis}.`,
      ].join('\n');
      return answer(text, {
        checkpointId: checkpoint.id,
        success: true,
        // The seed's shape: what a checkpoint adds to the store (size.stored) stays shim's own.
        size: {
          uncompressed: size.uncompressed,
          compressed: size.compressed,
          compressionRatio: size.compressionRatio,
        },
        timing: { duration },
        session: callerFacts(caller),
      });
    }),
  );
}
