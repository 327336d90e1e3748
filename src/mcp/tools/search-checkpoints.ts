/** `shim_search`: full-text search over past sessions' checkpoints, answered as a compact index. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { AGENT_IDS } from '../../core/agent-id.ts';
import { withStore } from '../../app/open-store.ts';
import {
  DEFAULT_SEARCH_LIMIT,
  SEARCH_FIELDS,
  searchCheckpoints,
} from '../../app/checkpoint/search-checkpoints.ts';
import { answer, guard, short, type McpDeps } from '../context.ts';

const name = 'shim_search';

const inputSchema = {
  query: z
    .string()
    .min(1)
    .max(500)
    .describe(
      'Words to find (all must match; stemmed, so "migrations" finds "migration"). "Quoted phrases" match exactly, word* matches a prefix. Short and specific works best: a file name, an error, a feature.',
    ),
  scope: z
    .enum(['project', 'all'])
    .optional()
    .describe(
      "'project' (default): sessions that ran in this project's directory; 'all': every project.",
    ),
  fields: z
    .array(z.enum(SEARCH_FIELDS))
    .optional()
    .describe(
      'Only search these parts of a checkpoint: summary, decisions, requests (what the user asked), tasks, files, errors. Default: all.',
    ),
  limit: z
    .number()
    .int()
    .min(1)
    .max(50)
    .optional()
    .describe(`Sessions to return (default ${DEFAULT_SEARCH_LIMIT}).`),
};

const hit = z.object({
  checkpointId: z.string(),
  sessionId: z.string(),
  checkpointNumber: z.number(),
  createdAt: z.string(),
  cwd: z.string().nullable(),
  agent: z.enum(AGENT_IDS).describe('The agent whose session it was.'),
  snippet: z.string(),
  matches: z.number(),
});

const outputSchema = {
  query: z.string(),
  scope: z.enum(['project', 'all']),
  matched: z.enum(['all', 'any']),
  sessions: z.number(),
  hits: z.array(hit),
};

const config = {
  title: 'Search past sessions',
  description:
    "Searches what earlier sessions (of any agent) knew, from shim's checkpoints: summaries, key " +
    "decisions, the user's requests, tasks, files touched and errors hit. Use it before redoing " +
    'work or re-deciding something ("did we already try X?", "why did we choose Y?", "which ' +
    'session touched file Z?"). Returns a compact index, one line per session: checkpoint id, ' +
    'session, date and a snippet with the matched words in [brackets]. Read a hit in full with ' +
    'shim_get_checkpoint and its id.',
  inputSchema,
  outputSchema,
  annotations: {
    title: 'Search past sessions',
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
};

export function registerSearchCheckpointsTool(server: McpServer, deps: McpDeps): void {
  server.registerTool(name, config, (args) =>
    guard(deps, name, args, async ({ query, scope = 'project', fields, limit }) => {
      const result = await withStore(deps.home, (store) =>
        searchCheckpoints(store, {
          query,
          scope,
          cwd: deps.cwd,
          ...(limit !== undefined ? { limit } : {}),
          ...(fields !== undefined ? { fields } : {}),
        }),
      );
      const structured = {
        query: result.query,
        scope: result.scope,
        matched: result.matched,
        sessions: result.sessions,
        hits: result.hits,
      };
      const where = scope === 'project' ? `in ${result.cwd}` : 'in any project';
      if (result.hits.length === 0) {
        return answer(
          `No checkpoint ${where} matches "${query}".` +
            (scope === 'project' ? " Try scope: 'all'," : ' Try') +
            ' fewer or different words, or a prefix like migrat*.',
          structured,
        );
      }
      const lines = result.hits.map(
        (h) =>
          `${short(h.checkpointId)}  session ${short(h.sessionId)}  ${h.createdAt.slice(0, 16).replace('T', ' ')}` +
          `${h.matches > 1 ? `  (${h.matches} checkpoints)` : ''}${scope === 'all' && h.cwd ? `  ${h.cwd}` : ''}\n  ${h.snippet}`,
      );
      const head =
        (result.matched === 'any'
          ? `No checkpoint has every word of "${query}"; these have some of them. `
          : '') +
        `${result.sessions} session${result.sessions === 1 ? '' : 's'} match ${where}` +
        (result.sessions > result.hits.length ? ` (best ${result.hits.length} shown)` : '') +
        '. Read one with shim_get_checkpoint and its id:';
      return answer(`${head}\n${lines.join('\n')}`, structured);
    }),
  );
}
