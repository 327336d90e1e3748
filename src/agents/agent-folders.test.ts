import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { AGENT_IDS } from '../core/agent-id.ts';

/**
 * The files every agent folder holds, each for the same part of the contract (src/agents/agent.ts,
 * docs/agents.md "Adding an agent"). A new agent is this list, one entry and one `case`.
 */
const AGENT_FILES = [
  'agent.ts', // the agent value: what every call about its sessions needs
  'adapter.ts', // the whole adapter: the agent and what only commands use
  'sessions.ts', // where its session logs live
  'hook-payload.ts', // its hook payload in
  'hook-output.ts', // shim's decision out, in its protocol
  'threshold.ts', // its compaction rule
  'instructions.ts', // the files it reads as standing instructions
  'headless.ts', // how the loop runs it without a terminal
  'settings/install.ts', // shim's hooks and MCP server into its settings
  'settings/doctor.ts', // what `shim doctor` checks of that wiring
  'moments.ts', // its log's calls as the truth a restore is scored against
  'quick.ts', // what the answer after a call without a look needs (dist/hook-quick.cjs)
  'tail-look.ts', // that answer's look at what its log gained since the last full look
] as const;

const root = join(import.meta.dirname);

test('each folder of src/agents/ is an agent of AGENT_IDS, and each agent has its folder', () => {
  // ESLint's agent rules (eslint.config.js) take the agents from these folders.
  const folders = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  assert.deepEqual(folders, [...AGENT_IDS].sort());
});

test('every agent folder holds the same files, one part of the contract each', () => {
  const missing = AGENT_IDS.flatMap((id) =>
    AGENT_FILES.filter((file) => !existsSync(join(root, id, file))).map((f) => `${id}/${f}`),
  );
  assert.deepEqual(missing, []);
});

test("docs/agents.md's checklist names every one of these files", () => {
  const doc = readFileSync(join(root, '..', '..', 'docs', 'agents.md'), 'utf8');
  const start = doc.indexOf('## Adding an agent');
  const checklist = doc.slice(start, doc.indexOf('\n## ', start + 1));
  const unnamed = AGENT_FILES.filter((file) => !checklist.includes(`\`${file}\``));
  assert.deepEqual(unnamed, []);
});

test('each agent has its entry, built as its own bundle with a budget, its case in dispatch, and its quick part carried', () => {
  const dispatch = readFileSync(join(root, 'dispatch.ts'), 'utf8');
  const budgets = readFileSync(join(root, '..', 'entries', 'bundle-check.ts'), 'utf8');
  const quick = readFileSync(join(root, '..', 'entries', 'hook-quick.ts'), 'utf8');
  const build = readFileSync(join(root, '..', '..', 'scripts', 'build.mjs'), 'utf8');
  for (const id of AGENT_IDS) {
    const entry = `src/entries/agent-${id}.ts`;
    assert.ok(existsSync(join(root, '..', '..', entry)), entry);
    assert.ok(build.includes(`'${entry}'`), `scripts/build.mjs builds ${entry}`);
    assert.ok(
      budgets.includes(`bundle: 'agent-${id}.cjs'`),
      `src/entries/bundle-check.ts holds dist/agent-${id}.cjs to a budget`,
    );
    assert.match(dispatch, new RegExp(`case '${id}':`), `agents/dispatch.ts: case '${id}'`);
    assert.ok(
      quick.includes(`from '../agents/${id}/quick.ts'`),
      `src/entries/hook-quick.ts carries ${id}'s quick part`,
    );
  }
});
