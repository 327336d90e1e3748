/**
 * MCP figures (issue 5): `shim mcp` from spawn to its first tools/list answer, through the SDK's
 * stdio client as Claude Code starts it; and shim_search's use case over 10,000 checkpoints.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createStore } from '../src/app/open-store.ts';
import { searchCheckpoints, type SearchRequest } from '../src/app/checkpoint/search-checkpoints.ts';
import type { CheckpointDraft } from '../src/core/checkpoint/checkpoint.ts';
import { CheckpointRepository } from '../src/store/checkpoints/checkpoint-repository.ts';
import { indexCheckpointForSearch } from '../src/store/checkpoints/checkpoint-search.ts';
import { openDatabase, withWriteTransaction } from '../src/store/sqlite/database.ts';
import { listFixtures, makeTempDir } from '../test/helpers/fixtures.ts';
import { buildFixtureDraft } from '../test/helpers/store.ts';

type Report = (name: string, value: string, note?: string) => void;

const BIN = join(import.meta.dirname, '..', 'bin', 'shim.cjs');
const CHECKPOINTS = 10_000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

/** Spawn → initialize → tools/list answered, in ms. */
async function timeStartToToolsList(home: string): Promise<{ total: number; tools: number }> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  delete env.NODE_EXTRA_CA_CERTS;
  env.SHIM_HOME = home;
  const client = new Client({ name: 'shim-bench', version: '1.0.0' });
  const start = performance.now();
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp'],
      env,
      stderr: 'ignore',
    }),
  );
  const { tools } = await client.listTools();
  const total = performance.now() - start;
  await client.close();
  return { total, tools: tools.length };
}

/** 10,000 checkpoints: the fixtures' real texts under 2,000 sessions in 50 projects. */
async function fillStore(home: string): Promise<number> {
  const db = openDatabase(home);
  const repo = new CheckpointRepository(db);
  const drafts: CheckpointDraft[] = [];
  for (const name of listFixtures()) drafts.push(await buildFixtureDraft(name));
  // One real row as the template for the stored columns; the index gets each copy's own text.
  const template = db
    .prepare('SELECT * FROM checkpoints WHERE id = ?')
    .get(repo.save(drafts[0]!).checkpoint.id) as Record<string, unknown>;
  const columns = Object.keys(template);
  const insert = db.prepare(
    `INSERT INTO checkpoints (${columns.join(',')}) VALUES (${columns.map(() => '?').join(',')})`,
  );
  const base = Date.parse('2026-01-01T00:00:00Z');
  const start = performance.now();
  for (let batch = 0; batch < CHECKPOINTS / 1000; batch++) {
    withWriteTransaction(db, () => {
      for (let i = batch * 1000; i < (batch + 1) * 1000; i++) {
        const source = drafts[i % drafts.length]!;
        const copy: CheckpointDraft = {
          ...source,
          id: randomUUID(),
          conversationState: {
            ...source.conversationState,
            // A rare word per checkpoint, and a word shared by one in a hundred.
            userRequests: [
              ...source.conversationState.userRequests,
              `ticket t${i} batch b${i % 100}`,
            ],
          },
        };
        const row: Record<string, unknown> = {
          ...template,
          id: copy.id,
          session_id: `session-${i % 2000}`,
          checkpoint_number: 1000 + i,
          created_at: new Date(base + i * 1000).toISOString(),
          cwd: `/work/project-${i % 50}`,
        };
        insert.run(...columns.map((c) => row[c] as never));
        indexCheckpointForSearch(db, copy);
      }
    });
  }
  const fillMs = performance.now() - start;
  db.close();
  return fillMs;
}

export async function runMcpBench(report: Report, results: Record<string, unknown>): Promise<void> {
  const home = makeTempDir('shim-bench-mcp-');

  await timeStartToToolsList(home); // warm the file cache
  const starts: number[] = [];
  let tools = 0;
  for (let i = 0; i < 10; i++) {
    const run = await timeStartToToolsList(home);
    starts.push(run.total);
    tools = run.tools;
  }
  report(
    '`shim mcp`: spawn to first tools/list answer',
    fmt(median(starts)),
    `${tools} tools; stdio client, initialize + tools/list, 10 runs`,
  );
  results.mcpStartToToolsListMs = median(starts);

  const fillMs = await fillStore(home);
  const db = openDatabase(home);
  const store = createStore(db);
  const count = store.checkpoints.count();
  const time = (request: Omit<SearchRequest, 'cwd'>, runs = 20) => {
    const times: number[] = [];
    let sessions = 0;
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      sessions = searchCheckpoints(store, { cwd: '/work/project-7', ...request }).sessions;
      times.push(performance.now() - start);
    }
    return { ms: median(times), sessions };
  };
  const rare = time({ query: 't4207', scope: 'all' });
  const some = time({ query: 'b42 ticket', scope: 'all' });
  const common = time({ query: 'test', scope: 'all' });
  const project = time({ query: 'test', scope: 'project' });
  const fallback = time({ query: 'b42 zzzunknown', scope: 'all' });
  db.close();
  report(
    `search, ${count.toLocaleString('en-US')} checkpoints, common word (all)`,
    fmt(common.ms),
    `${common.sessions} sessions match; this project only ${fmt(project.ms)}; index filled in ${(fillMs / 1000).toFixed(1)} s`,
  );
  report(
    'search, 1 in 100 checkpoints match / one matches',
    fmt(some.ms),
    `one match ${fmt(rare.ms)}; no match for every word, any-word fallback ${fmt(fallback.ms)}`,
  );
  results.mcpSearch = {
    checkpoints: count,
    commonAllMs: common.ms,
    commonProjectMs: project.ms,
    onePercentMs: some.ms,
    rareMs: rare.ms,
    fallbackMs: fallback.ms,
    fillMs,
  };
}
