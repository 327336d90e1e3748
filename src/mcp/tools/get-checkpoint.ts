/** `shim_get_checkpoint`: one checkpoint in full, as its handoff document or as JSON. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { findCheckpoint } from '../../app/checkpoint/find-checkpoint.ts';
import { withStore } from '../../app/open-store.ts';
import { renderHandoff } from '../../core/resume/handoff.ts';
import { answer, guard, type McpDeps } from '../context.ts';

const name = 'shim_get_checkpoint';

/** Characters of the rendered prompt when the caller does not say (≈ 3,000 tokens). */
const DEFAULT_MAX_CHARS = 12_000;

const inputSchema = {
  id: z
    .string()
    .min(1)
    .describe(
      'A checkpoint id, or its first 8 characters as shown by shim_search / shim_list_checkpoints.',
    ),
  format: z
    .enum(['markdown', 'json'])
    .optional()
    .describe(
      "'markdown' (default): the handoff document (requests, tasks, decisions, files, errors, next steps); 'json': every field, larger.",
    ),
  maxChars: z
    .number()
    .int()
    .min(2_000)
    .max(60_000)
    .optional()
    .describe(
      'Budget for the markdown (default 12000); the least important sections shrink first.',
    ),
};

const config = {
  title: 'Get a checkpoint',
  description:
    'Reads one saved checkpoint in detail: what the user asked, the task list, key decisions, ' +
    'files touched, errors, next steps. Use it after shim_search or shim_list_checkpoints to read ' +
    'a hit; this does not restore anything (shim_check_resume does).',
  inputSchema,
  annotations: {
    title: 'Get a checkpoint',
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
};

export function registerGetCheckpointTool(server: McpServer, deps: McpDeps): void {
  server.registerTool(name, config, (args) =>
    guard(deps, name, args, async ({ id, format = 'markdown', maxChars }) => {
      const checkpoint = await withStore(deps.home, ({ checkpoints }) =>
        findCheckpoint(checkpoints, id.trim()),
      );
      if (format === 'json') {
        return { content: [{ type: 'text', text: JSON.stringify(checkpoint) }] };
      }
      const markdown = renderHandoff(checkpoint, null, { maxChars: maxChars ?? DEFAULT_MAX_CHARS });
      return answer(
        `Checkpoint ${checkpoint.id} (session ${checkpoint.sessionId}, #${checkpoint.checkpointNumber}, ` +
          `taken ${checkpoint.createdAt} in ${checkpoint.source.cwd ?? 'an unknown directory'}). ` +
          'Shown for reference; it is not restored into this session.\n\n' +
          markdown,
        {
          id: checkpoint.id,
          sessionId: checkpoint.sessionId,
          checkpointNumber: checkpoint.checkpointNumber,
          createdAt: checkpoint.createdAt,
          cwd: checkpoint.source.cwd,
          markdown,
        },
      );
    }),
  );
}
