/**
 * `shim_recent_context` (seed 004 MEM-004, "recent context"): the recent sessions of this project
 * in one call — for each, its newest checkpoint and what it holds (requests, tasks, files,
 * decisions) — so an agent starting an iteration knows what the last ones did.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { resolve } from 'node:path';
import { z } from 'zod';
import { findProjectRoot } from '../../capture/project.ts';
import { withStore } from '../../app/open-store.ts';
import { changesBetween } from '../../core/checkpoint/checkpoint-changes.ts';
import { loadConfig } from '../../store/config/config.ts';
import { answer, guard, short, type McpDeps } from '../context.ts';

const name = 'shim_recent_context';

const inputSchema = {
  sessions: z
    .number()
    .int()
    .min(1)
    .max(20)
    .optional()
    .describe('How many recent sessions (default 3), within config restoreContextHours.'),
};

const config = {
  title: 'Recent context',
  description:
    "The recent sessions of this project in one call: each one's newest checkpoint and what it " +
    'holds — requests, tasks done and open, files, decisions. Use it at the start of a loop ' +
    'iteration or a new session to learn what the last ones did; it restores nothing.',
  inputSchema,
  annotations: {
    title: 'Recent context',
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
};

export function registerRecentContextTool(server: McpServer, deps: McpDeps): void {
  server.registerTool(name, config, (args) =>
    guard(deps, name, args, async ({ sessions = 3 }) => {
      const cwd = resolve(deps.cwd);
      const settings = await loadConfig(deps.home, { lenient: true, projectRoot: null });
      const since = (deps.now ?? Date.now)() - settings.restoreContextHours * 3_600_000;
      const recent = await withStore(deps.home, (store) => {
        const newest = new Map<string, string>();
        for (const row of store.checkpoints.list({ project: findProjectRoot(cwd), limit: 200 })) {
          if (Date.parse(row.createdAt) < since || newest.size >= sessions) break;
          if (!newest.has(row.sessionId)) newest.set(row.sessionId, row.id);
        }
        return [...newest.values()].flatMap((id) => store.checkpoints.getById(id) ?? []);
      });
      if (recent.length === 0)
        return answer(
          `No checkpoints in ${cwd} in the last ${settings.restoreContextHours} hours.`,
          { sessions: [] },
        );
      const list = recent.map((c) => ({
        sessionId: c.sessionId,
        checkpointId: c.id,
        createdAt: c.createdAt,
        holds: changesBetween(null, c),
      }));
      const text = list
        .map(
          (s) =>
            `## Session ${short(s.sessionId)} — checkpoint ${short(s.checkpointId)}, ${s.createdAt}\n` +
            s.holds.map((h) => `- ${h}`).join('\n'),
        )
        .join('\n\n');
      return answer(
        `The ${list.length} most recent session${list.length === 1 ? '' : 's'} of ${cwd}, newest first ` +
          '(read one in full with shim_get_checkpoint, how it unfolded with shim_timeline):\n\n' +
          text,
        { sessions: list },
      );
    }),
  );
}
