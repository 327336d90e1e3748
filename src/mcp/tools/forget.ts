/**
 * `shim_forget`: removes a bad checkpoint, or a whole session, from shim's store. It cannot be
 * undone, so it only removes once the user turned it on in their own config (`mcp.forget` in
 * SHIM_HOME/config.json; a project's file, which a cloned repository brings, does not count).
 * Until then it says what it would remove and how the user can do it.
 * @module
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { forget } from '../../app/retention/forget.ts';
import { AppError } from '../../core/errors.ts';
import { getConfigPath, loadConfig } from '../../store/config/config.ts';
import { answer, guard, type McpDeps } from '../context.ts';

const name = 'shim_forget';

const inputSchema = {
  id: z.string().min(1).describe('A checkpoint id (or its first 8 characters), or a session id.'),
  dryRun: z.boolean().optional().describe('true: only say what would be removed. Default false.'),
};

const config = {
  title: 'Forget a checkpoint or session',
  description:
    'Removes one checkpoint (a wrong or misleading one) or a whole session from what shim keeps: ' +
    "its rows, search entries, handoff documents and git snapshot refs, and the team store's copy " +
    'when one is connected, so it is never restored or ' +
    'found again. Nothing else is changed. It cannot be undone, so it removes nothing unless the ' +
    'user turned it on ("mcp": {"forget": true} in their shim config); dryRun always answers. ' +
    'Use dryRun first when unsure.',
  inputSchema,
  annotations: {
    title: 'Forget a checkpoint or session',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
};

export function registerForgetTool(server: McpServer, deps: McpDeps): void {
  server.registerTool(name, config, (args) =>
    guard(deps, name, args, async ({ id, dryRun = false }) => {
      // The user's own config only (no project root): a project's file cannot turn it on.
      const config = await loadConfig(deps.home, { lenient: true });
      if (!dryRun && !config.mcp.forget) {
        throw new AppError(
          'TOOL_OFF',
          `shim_forget is off: removing ${id} cannot be undone, so only the user turns it on`,
          `show the user what would go (dryRun: true); they run \`shim forget ${id}\` themselves, or turn the tool on with "mcp": {"forget": true} in ${getConfigPath(deps.home)}`,
        );
      }
      // The team store's rows go too, as with `shim forget`: no other machine restores it.
      const team = { config, env: deps.env };
      const result = await forget({ home: deps.home, what: id, dryRun, team });
      const what =
        result.target.kind === 'session'
          ? `session ${result.target.id}`
          : `checkpoint ${result.target.id}`;
      return answer(
        `${dryRun ? 'Would remove' : 'Removed'} ${what}: ${result.checkpoints.length} checkpoint(s), ` +
          `${result.handoffFiles.length} handoff document(s), ${result.snapshotRefs} snapshot ref(s)` +
          (result.team
            ? `; from the team store: ${Object.values(result.team).reduce((a, n) => a + n, 0)} row(s).`
            : '.') +
          (result.teamError ? ` The team store did not answer (${result.teamError}).` : ''),
        { ...result },
      );
    }),
  );
}
