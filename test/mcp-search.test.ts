/**
 * Search over past checkpoints: the use case on a real store (ranking, one hit per session,
 * project vs all, the any-word fallback, indexing of checkpoints saved before the index, gc),
 * and `shim search` through the built binary.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { createStore, type Store } from '../src/app/open-store.ts';
import { searchCheckpoints } from '../src/app/checkpoint/search-checkpoints.ts';
import { parseQuery } from '../src/core/checkpoint/search-query.ts';
import { fullTextMatch } from '../src/store/sqlite/dialect.ts';
import type { CheckpointDraft } from '../src/core/checkpoint/checkpoint.ts';
import { AppError } from '../src/core/errors.ts';
import { runShim } from './helpers/cli.ts';
import { fixturePath, makeTempDir } from './helpers/fixtures.ts';
import { makeDraft, openTempStore, type TempStore } from './helpers/store.ts';

const PROJECT = '/work/project-a';
const OTHER = '/work/project-b';

type Content = {
  sessionId?: string;
  cwd?: string;
  createdAt?: string;
  summary?: string;
  requests?: string[];
  decisions?: string[];
  files?: string[];
  errors?: string[];
};

/** A checkpoint whose searchable text is exactly `content` (the rest is neutral). */
function draftWith(content: Content): CheckpointDraft {
  const base = makeDraft();
  return {
    ...base,
    sessionId: content.sessionId ?? randomUUID(),
    createdAt: content.createdAt ?? '2026-02-12T04:10:00.000Z',
    conversationState: {
      summary: content.summary ?? 'Routine work.',
      keyDecisions: content.decisions ?? [],
      currentContext: '',
      recentMessages: [],
      userRequests: content.requests ?? [],
    },
    taskState: {
      ...base.taskState,
      operation: '',
      phase: '',
      items: [],
      nextSteps: [],
      completedSteps: [],
      blockers: [],
    },
    fileState: {
      ...base.fileState,
      activeFiles: content.files ?? [],
      modifiedFiles: [],
      stagedFiles: [],
      repoRoot: null,
      branch: null,
    },
    toolState: {
      activeSessions: [],
      pendingOperations: [],
      recentToolCalls: (content.errors ?? []).map((result) => ({
        tool: 'Bash',
        args: '{}',
        result,
        success: false,
        latency: 10,
        timestamp: '2026-02-12T04:09:00.000Z',
      })),
    },
    source: { ...base.source, cwd: content.cwd ?? PROJECT, reason: null },
  };
}

let temp: TempStore;
let store: Store;
beforeEach(() => {
  temp = openTempStore();
  store = createStore(temp.db);
});
afterEach(() => temp.dispose());

const search = (query: string, more: Partial<Parameters<typeof searchCheckpoints>[1]> = {}) =>
  searchCheckpoints(store, { query, scope: 'project', cwd: PROJECT, ...more });

describe('searchCheckpoints', () => {
  test('ranks what the user asked above passing mentions, stems words, snippets the match', () => {
    const asked = temp.checkpoints.save(
      draftWith({
        requests: ['Please migrate the settings store to SQLite and keep the JSON import.'],
      }),
    ).checkpoint;
    const mentioned = temp.checkpoints.save(
      draftWith({
        summary:
          'Long session about the statusline colours, the hooks, the README, the tests, the bench, and in passing sqlite migrations once.',
      }),
    ).checkpoint;
    temp.checkpoints.save(draftWith({ summary: 'Unrelated: fixed the CSS of the landing page.' }));

    const result = search('sqlite migrations');
    assert.equal(result.matched, 'all');
    assert.deepEqual(
      result.hits.map((h) => h.checkpointId),
      [asked.id, mentioned.id],
    );
    assert.match(result.hits[0]!.snippet, /\[migrate\].*\[SQLite\]/);
    assert.ok(!result.hits[0]!.snippet.includes('\n'));
  });

  test("each hit names its session's agent", () => {
    const codex = draftWith({ requests: ['Rename the PELICAN queue.'] });
    temp.checkpoints.save({ ...codex, source: { ...codex.source, agent: 'codex' } });
    temp.checkpoints.save(draftWith({ requests: ['Drain the PELICAN queue.'] }));
    assert.deepEqual(
      search('pelican')
        .hits.map((h) => h.agent)
        .sort(),
      ['claude', 'codex'],
    );
  });

  test('one hit per session: its best checkpoint, newest on a tie, with the count', () => {
    const sessionId = randomUUID();
    for (const [i, at] of [
      '2026-02-12T01:00:00.000Z',
      '2026-02-12T02:00:00.000Z',
      '2026-02-12T03:00:00.000Z',
    ].entries()) {
      temp.checkpoints.save(
        draftWith({
          sessionId,
          createdAt: at,
          requests: [`Fix the flaky websocket reconnect test (${i})`],
        }),
      );
    }
    const newest = temp.checkpoints.getMostRecent(sessionId)!;
    const other = temp.checkpoints.save(
      draftWith({ errors: ['websocket reconnect failed: ECONNRESET'] }),
    ).checkpoint;
    const result = search('websocket reconnect');
    assert.equal(result.sessions, 2);
    assert.equal(result.hits.length, 2);
    assert.equal(result.hits[0]!.checkpointId, newest.id);
    assert.equal(result.hits[0]!.matches, 3);
    assert.equal(result.hits[1]!.checkpointId, other.id);
    assert.equal(result.hits[1]!.matches, 1);
    assert.equal(search('websocket reconnect', { limit: 1 }).hits.length, 1);
    assert.equal(search('websocket reconnect', { limit: 1 }).sessions, 2);
  });

  test('project scope is the sessions of this directory; all is every project', () => {
    const here = temp.checkpoints.save(
      draftWith({ decisions: ['Use FTS5 for search'], cwd: PROJECT }),
    ).checkpoint;
    const there = temp.checkpoints.save(
      draftWith({ decisions: ['Use FTS5 for search'], cwd: OTHER }),
    ).checkpoint;
    temp.checkpoints.save(draftWith({ decisions: ['Use FTS5 for search'], cwd: `${PROJECT}/sub` }));
    assert.deepEqual(
      search('fts5').hits.map((h) => h.checkpointId),
      [here.id],
    );
    const all = search('fts5', { scope: 'all' });
    assert.equal(all.sessions, 3);
    assert.ok(all.hits.some((h) => h.checkpointId === there.id && h.cwd === OTHER));
  });

  test('fields narrow the search; files match by name and path parts', () => {
    const touched = temp.checkpoints.save(
      draftWith({ files: ['src/store/database.ts'] }),
    ).checkpoint;
    temp.checkpoints.save(draftWith({ summary: 'Talked about the database layer.' }));
    assert.equal(search('database').sessions, 2);
    assert.deepEqual(
      search('database.ts', { fields: ['files'] }).hits.map((h) => h.checkpointId),
      [touched.id],
    );
    assert.deepEqual(
      search('store/database').hits.map((h) => h.checkpointId),
      [touched.id],
    );
  });

  test('no checkpoint with every word: falls back to any word and says so; none at all: empty', () => {
    const a = temp.checkpoints.save(
      draftWith({ requests: ['rename the prefetch option'] }),
    ).checkpoint;
    const fallback = search('prefetch kubernetes');
    assert.equal(fallback.matched, 'any');
    assert.deepEqual(
      fallback.hits.map((h) => h.checkpointId),
      [a.id],
    );
    const none = search('kubernetes helm');
    assert.equal(none.hits.length, 0);
    assert.equal(none.sessions, 0);
  });

  test('prefixes and phrases; FTS syntax in a query is taken literally', () => {
    const a = temp.checkpoints.save(
      draftWith({ errors: ['API Error: 400 prompt is too long: 210000 tokens > 200000 maximum'] }),
    ).checkpoint;
    temp.checkpoints.save(
      draftWith({ summary: 'The prompt was long; too many tokens were used.' }),
    );
    assert.deepEqual(
      search('"prompt is too long"').hits.map((h) => h.checkpointId),
      [a.id],
    );
    assert.equal(search('promp*').sessions, 2);
    assert.equal(search('NOT AND OR NEAR( prompt').matched, 'any');
    assert.deepEqual(parseQuery('a "b c" d* "" ** -'), [
      { text: 'a', prefix: false },
      { text: 'b c', prefix: false },
      { text: 'd', prefix: true },
    ]);
    assert.equal(
      fullTextMatch([{ text: 'x"y', prefix: false }], 'AND', ['files']),
      '{files} : ("x""y")',
    );
    assert.throws(
      () => search('  "" ** '),
      (e: unknown) => e instanceof AppError && e.code === 'USAGE',
    );
  });

  test('checkpoints saved before the index existed are indexed by the first search', () => {
    const saved = temp.checkpoints.save(
      draftWith({ requests: ['teach the statusline to blink'] }),
    ).checkpoint;
    // As a version-2 database (or a failed indexing) would have it: no index rows.
    temp.db.exec('DELETE FROM checkpoint_search; DELETE FROM checkpoint_search_ids;');
    const first = search('blink');
    assert.equal(first.indexedNow, 1);
    assert.deepEqual(
      first.hits.map((h) => h.checkpointId),
      [saved.id],
    );
    assert.equal(search('blink').indexedNow, 0);
  });

  test('deleted checkpoints leave the index with them (gc)', () => {
    const old = temp.checkpoints.save(
      draftWith({
        createdAt: '2025-01-01T00:00:00.000Z',
        sessionId: 's1',
        requests: ['ancient request about cobol'],
      }),
    ).checkpoint;
    temp.checkpoints.save(
      draftWith({ createdAt: '2026-02-12T00:00:00.000Z', sessionId: 's1', requests: ['newer'] }),
    );
    const gone = temp.checkpoints.cleanup(30, Date.parse('2026-02-13T00:00:00.000Z'));
    assert.deepEqual(gone.ids, [old.id]);
    assert.equal(search('cobol').hits.length, 0);
    const rows = temp.db.prepare('SELECT COUNT(*) AS n FROM checkpoint_search_ids').get() as {
      n: number;
    };
    assert.equal(rows.n, 1);
    const docs = temp.db.prepare('SELECT COUNT(*) AS n FROM checkpoint_search').get() as {
      n: number;
    };
    assert.equal(docs.n, 1);
  });
});

describe('shim search', () => {
  const TASKS = 'entire-9b04c3d92e38-auto-compact-167k-taskcreate-v2.1.39.jsonl';

  test('finds a checkpoint of this directory; --all crosses projects; --json; no results', () => {
    const root = makeTempDir('shim-search-cli-');
    try {
      const home = join(root, 'home');
      const elsewhere = join(root, 'elsewhere');
      mkdirSync(elsewhere);
      const made = runShim(home, ['checkpoint', '--transcript', fixturePath(TASKS), '--json']);
      assert.equal(made.status, 0, made.stderr);
      const { checkpointId } = JSON.parse(made.stdout) as { checkpointId: string };

      // The fixture's session ran in /Users/gtrrz-victor/wks/cli, not here.
      const here = runShim(home, ['search', 'ComputeTranscriptPath'], { cwd: elsewhere });
      assert.equal(here.status, 0, here.stderr);
      assert.match(here.stdout, /no checkpoint in .*elsewhere matches "ComputeTranscriptPath"/);
      assert.match(here.stdout, /--all/);

      const all = runShim(home, ['search', 'ComputeTranscriptPath', '--all'], { cwd: elsewhere });
      assert.equal(all.status, 0, all.stderr);
      assert.ok(all.stdout.startsWith(checkpointId.slice(0, 8)), all.stdout);
      assert.match(all.stdout, /\[ComputeTranscriptPath\]/);

      const json = runShim(home, ['search', 'resumeSingleSession', '--all', '--json'], {
        cwd: elsewhere,
      });
      const parsed = JSON.parse(json.stdout) as {
        hits: Array<{ checkpointId: string }>;
        scope: string;
      };
      assert.equal(parsed.scope, 'all');
      assert.equal(parsed.hits[0]!.checkpointId, checkpointId);

      const bad = runShim(home, ['search', '""'], { cwd: elsewhere });
      assert.equal(bad.status, 1);
      assert.match(bad.stderr, /nothing to search for/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
