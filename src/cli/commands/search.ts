import { resolve } from 'node:path';
import { withStore } from '../../app/open-store.ts';
import { searchCheckpoints } from '../../app/checkpoint/search-checkpoints.ts';
import { agentName } from '../../core/agent-id.ts';
import { getShimHome } from '../../store/home/home.ts';
import { bold, dim } from '../format/text.ts';
import { formatAge } from '../format/units.ts';

export type SearchOptions = { all?: boolean; cwd?: string; json?: boolean; limit: number };

export async function runSearch(words: string[], options: SearchOptions): Promise<void> {
  const limit = options.limit;
  const query = words.join(' ');
  const cwd = resolve(process.cwd(), options.cwd ?? '.');
  const result = await withStore(getShimHome(), (store) =>
    searchCheckpoints(store, { query, scope: options.all ? 'all' : 'project', cwd, limit }),
  );
  if (options.json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  const where = options.all ? 'in any project' : `in project ${result.cwd}`;
  if (result.hits.length === 0) {
    process.stdout.write(
      `no checkpoint ${where} matches "${query}"\n` +
        dim(
          `${options.all ? '' : 'search every project with --all; '}try fewer words or a prefix like migrat*\n`,
        ),
    );
    return;
  }
  const now = Date.now();
  const lines = result.hits.map(
    (h) =>
      `${bold(h.checkpointId.slice(0, 8))}  ${agentName(h.agent)} session ${h.sessionId.slice(0, 8)}  ${formatAge(now - Date.parse(h.createdAt))}` +
      (h.matches > 1 ? dim(`  ${h.matches} checkpoints`) : '') +
      (options.all && h.cwd ? dim(`  ${h.cwd}`) : '') +
      `\n  ${h.snippet}`,
  );
  const note =
    result.matched === 'any' ? dim('no checkpoint has every word; these have some\n') : '';
  process.stdout.write(
    `${note}${lines.join('\n')}\n` +
      dim(
        `${result.sessions} session${result.sessions === 1 ? '' : 's'} ${where}; \`shim show <id>\` for the full checkpoint\n`,
      ),
  );
}
