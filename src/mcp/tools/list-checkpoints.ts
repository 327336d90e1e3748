/** `shim_list_checkpoints`: the checkpoints of this project (or all), newest first, one line each. */
import { findProjectRoot } from '../../capture/project.ts';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { resolve } from 'node:path';
import { z } from 'zod';
import { withStore } from '../../app/open-store.ts';
import { answer, guard, short, type McpDeps } from '../context.ts';

const name = 'shim_list_checkpoints';

const inputSchema = {
  scope: z
    .enum(['project', 'all'])
    .optional()
    .describe(
      "'project' (default): sessions that ran in this project's directory; 'all': every project.",
    ),
  sessionId: z.string().optional().describe('Only this session (a full session id).'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(100)
    .optional()
    .describe('How many, newest first (default 10).'),
};

const item = z.object({
  id: z.string(),
  sessionId: z.string(),
  checkpointNumber: z.number(),
  createdAt: z.string(),
  triggeredBy: z.string(),
  crashRisk: z.string(),
  operation: z.string().nullable(),
  cwd: z.string().nullable(),
  restored: z.boolean(),
});

const outputSchema = { scope: z.enum(['project', 'all']), checkpoints: z.array(item) };

const config = {
  title: 'List checkpoints',
  description:
    'Lists saved checkpoints, newest first, one compact line each: id, session, number, when, ' +
    'trigger, risk, what was being worked on. Use it to find a checkpoint to read with ' +
    'shim_get_checkpoint; to find one by content, use shim_search instead.',
  inputSchema,
  outputSchema,
  annotations: {
    title: 'List checkpoints',
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
};

export function registerListCheckpointsTool(server: McpServer, deps: McpDeps): void {
  server.registerTool(name, config, (args) =>
    guard(deps, name, args, async ({ scope = 'project', sessionId, limit = 10 }) => {
      const cwd = resolve(deps.cwd);
      const rows = await withStore(deps.home, ({ checkpoints }) =>
        checkpoints.list({
          ...(scope === 'project' ? { project: findProjectRoot(cwd) } : {}),
          ...(sessionId ? { sessionId } : {}),
          limit,
        }),
      );
      const list = rows.map((r) => ({
        id: r.id,
        sessionId: r.sessionId,
        checkpointNumber: r.checkpointNumber,
        createdAt: r.createdAt,
        triggeredBy: r.triggeredBy,
        crashRisk: r.crashRisk,
        operation: r.operation,
        cwd: r.cwd,
        restored: r.restoredAt !== null,
      }));
      const where = scope === 'project' ? `in ${cwd}` : 'in any project';
      if (list.length === 0) {
        return answer(
          `No checkpoints ${where}${sessionId ? ` for session ${sessionId}` : ''}.` +
            (scope === 'project' ? " Try scope: 'all', or take one with shim_checkpoint." : ''),
          { scope, checkpoints: [] },
        );
      }
      const lines = list.map(
        (c) =>
          `${short(c.id)}  session ${short(c.sessionId)} #${c.checkpointNumber}  ${c.createdAt}  ${c.triggeredBy}  ${c.crashRisk}` +
          (c.restored ? '  restored' : '') +
          (c.operation ? `  ${c.operation.replace(/\s+/g, ' ').slice(0, 80)}` : '') +
          (scope === 'all' && c.cwd ? `  (${c.cwd})` : ''),
      );
      return answer(
        `${list.length} checkpoint${list.length === 1 ? '' : 's'} ${where}, newest first ` +
          '(read one with shim_get_checkpoint and its id):\n' +
          lines.join('\n'),
        { scope, checkpoints: list },
      );
    }),
  );
}
