import { resolve } from 'node:path';
import { withStore } from '../../app/open-store.ts';
import { learnedMemory, withoutLearned } from '../../app/checkpoint/learned-scrub.ts';
import { searchCheckpoints } from '../../app/checkpoint/search-checkpoints.ts';
import { teamSearchHits } from '../../app/team/team-beside-local.ts';
import { interleaveRanked } from '../../core/team/interleave-ranked.ts';
import { loadConfig } from '../../store/config/config.ts';
import { agentName } from '../../core/agent-id.ts';
import { getShimHome } from '../../store/home/home.ts';
import { bold, dim } from '../format/text.ts';
import { formatAge } from '../format/units.ts';

export type SearchOptions = { all?: boolean; cwd?: string; json?: boolean; limit: number };

export async function runSearch(words: string[], options: SearchOptions): Promise<void> {
  const limit = options.limit;
  const query = words.join(' ');
  const cwd = resolve(process.cwd(), options.cwd ?? '.');
  const home = getShimHome();
  // What the home learned is a secret, gone from what is printed: a row may predate it.
  const { found, learned } = await withStore(home, (store) => ({
    found: searchCheckpoints(store, {
      query,
      scope: options.all ? 'all' : 'project',
      cwd,
      limit,
    }),
    learned: learnedMemory(store),
  }));
  const result = withoutLearned(found, learned);
  // With a team store connected, the other machines' and teammates' hits are among this machine's.
  const teamHits = await teamSearchHits({
    home,
    env: process.env,
    config: await loadConfig(home, { lenient: true }),
    cwd: result.cwd,
    query,
    limit,
    ...(options.all ? { all: true } : {}),
  });
  const team = withoutLearned(teamHits, learned);
  const teamNote = team?.error ? dim(`team store not read (${team.error})\n`) : '';
  // One list, each side placed by its own rank (bm25 here and ts_rank there do not compare).
  const ranked = interleaveRanked(
    result.hits.map((h) => ({ item: { hit: h, team: null }, createdAt: h.createdAt })),
    (team?.rows ?? []).map((h) => ({ item: { hit: null, team: h }, createdAt: h.createdAt })),
  ).map((r) => r.item);
  if (options.json) {
    const order = ranked.map((r) =>
      r.team
        ? { checkpointId: r.team.checkpointId, from: r.team.from }
        : { checkpointId: r.hit!.checkpointId, from: null },
    );
    process.stdout.write(
      `${JSON.stringify(team ? { ...result, team, ranked: order } : result, null, 2)}\n`,
    );
    process.stderr.write(teamNote);
    return;
  }
  process.stderr.write(teamNote);
  const where = options.all ? 'in any project' : `in project ${result.cwd}`;
  const teamRows = team?.rows ?? [];
  if (result.hits.length === 0 && teamRows.length === 0) {
    process.stdout.write(
      `no checkpoint ${where} matches "${query}"${team ? ', here or in the team store' : ''}\n` +
        dim(
          `${options.all ? '' : 'search every project with --all; '}try fewer words or a prefix like migrat*\n`,
        ),
    );
    return;
  }
  const now = Date.now();
  const lines = ranked.map(({ hit: h, team: t }) =>
    t
      ? `${bold(t.checkpointId.slice(0, 8))}  ${t.from.osUser}@${t.from.machine} session ${t.sessionId.slice(0, 8)}  ${formatAge(now - Date.parse(t.createdAt))}` +
        dim('  team store') +
        `\n  ${t.snippet}`
      : `${bold(h!.checkpointId.slice(0, 8))}  ${agentName(h!.agent)} session ${h!.sessionId.slice(0, 8)}  ${formatAge(now - Date.parse(h!.createdAt))}` +
        (h!.matches > 1 ? dim(`  ${h!.matches} checkpoints`) : '') +
        (options.all && h!.cwd ? dim(`  ${h!.cwd}`) : '') +
        `\n  ${h!.snippet}`,
  );
  const note =
    result.matched === 'any' && result.hits.length > 0
      ? dim('no checkpoint has every word; these have some\n')
      : '';
  process.stdout.write(
    `${note}${lines.join('\n')}\n` +
      dim(
        `${result.sessions} session${result.sessions === 1 ? '' : 's'} ${where}${team ? `, ${teamRows.length} of the team's` : ''}; \`shim show <id>\` for the full checkpoint\n`,
      ),
  );
}
