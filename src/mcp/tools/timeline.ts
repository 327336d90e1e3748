/**
 * `shim_timeline` (seed 004 MEM-005, "timeline"): what led to a checkpoint — the checkpoints
 * before it, newest first, and what happened between each two (requests, tasks done and begun,
 * files, decisions), across a restore into another session too.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import {
  readCheckpointChain,
  renderCheckpointChain,
} from '../../app/checkpoint/checkpoint-chain-view.ts';
import { findCheckpoint } from '../../app/checkpoint/find-checkpoint.ts';
import { withStore } from '../../app/open-store.ts';
import { loadConfig } from '../../store/config/config.ts';
import { answer, guard, type McpDeps } from '../context.ts';

const name = 'shim_timeline';

const inputSchema = {
  id: z
    .string()
    .min(1)
    .describe('A checkpoint id, or its first 8 characters (shim_search, shim_list_checkpoints).'),
  max: z
    .number()
    .int()
    .min(1)
    .max(200)
    .optional()
    .describe('At most this many checkpoints back (default: config restoreMaxContexts).'),
};

const config = {
  title: 'Timeline of a checkpoint',
  description:
    'What led to a saved checkpoint: the checkpoints before it, newest first, and what changed ' +
    'between each two — requests, tasks finished and started, files, decisions — following a ' +
    'restore back into the session it came from. Use it to see how past work unfolded around a ' +
    'hit of shim_search; it restores nothing.',
  inputSchema,
  annotations: {
    title: 'Timeline of a checkpoint',
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
};

export function registerTimelineTool(server: McpServer, deps: McpDeps): void {
  server.registerTool(name, config, (args) =>
    guard(deps, name, args, async ({ id, max }) => {
      const settings = await loadConfig(deps.home, { lenient: true, projectRoot: null });
      const limits = {
        hours: settings.restoreContextHours,
        max: max ?? settings.restoreMaxContexts,
      };
      const view = await withStore(deps.home, (store) => {
        const found = findCheckpoint(store.checkpoints, id.trim());
        return readCheckpointChain(store, found.id, limits);
      });
      if (!view || view.steps.length === 0) return answer(`No checkpoint ${id}.`, { steps: [] });
      return answer(renderCheckpointChain(view), {
        steps: view.steps.map((s) => ({
          id: s.id,
          sessionId: s.sessionId,
          number: s.number,
          createdAt: s.createdAt,
          trigger: s.trigger,
          via: s.via,
          changes: s.changes,
        })),
        broken: view.broken,
        more: view.more,
      });
    }),
  );
}
