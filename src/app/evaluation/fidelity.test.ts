// test-speed: slow (an evaluation over every real session fixture)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  AGENT_FIXTURES_DIR,
  agentFixturePath,
  FIXTURES_MISSING,
  fixturePath,
  gzTrainingFixturePath,
  listAgentFixtures,
  listFixtures,
  listTrainingFixtures,
  sharedFixturesMissing,
} from '../../../test/helpers/fixtures.ts';
import type { AgentId } from '../../core/agent-id.ts';
import {
  FIDELITY_PARTS,
  formatShare,
  measureRestoreFidelity,
  MOMENT_PARTS,
  summarizeFidelity,
  type FidelityPoint,
} from './fidelity.ts';
import { ADAPTER } from '../../../test/helpers/agents.ts';
import { echoesRawToolJson } from './moment-truth.ts';

/** Issue 40's targets for the moment of interruption, as shares of every scored item. */
const TARGETS = { lastCommand: 0.95, lastCommands: 0.9, newestFailure: 0.9, requestsWhole: 0.99 };

async function measure(agent: AgentId, paths: string[]) {
  const points: Array<FidelityPoint & { source: string }> = [];
  for (const path of paths)
    for (const p of await measureRestoreFidelity({ path, agent: ADAPTER[agent] }))
      points.push({ ...p, source: path.split('/').pop()! });
  return { points, summary: summarizeFidelity(points) };
}

function assertMoment(summary: ReturnType<typeof summarizeFidelity>): void {
  // The agent's MomentReader found the log's commands (a reader that reads nothing scores 0/0).
  assert.ok(summary.moment.lastCommand.total > 0, "the logs' shell commands are read");
  for (const part of MOMENT_PARTS) {
    const t = summary.moment[part];
    assert.ok(
      t.found >= TARGETS[part] * t.total,
      `${part}: ${formatShare(t)}\n${summary.missing.filter((m) => m.includes(part)).join('\n')}`,
    );
  }
}

test(
  'Claude Code: every headline part, the moment of interruption and the size at every auto compaction and crash cut of the real sessions',
  { skip: FIXTURES_MISSING },
  async () => {
    const { points, summary } = await measure('claude', [
      ...listFixtures().map((n) => fixturePath(n)),
      ...listTrainingFixtures().map((n) => gzTrainingFixturePath(n)),
    ]);
    const compactions = points.filter((p) => p.kind === 'compaction');
    assert.ok(compactions.length >= 30, `${compactions.length} compactions scored`);
    assert.ok(
      compactions.some((p) => (p.compaction ?? 0) >= 2),
      'second compactions are scored',
    );
    for (const part of FIDELITY_PARTS) {
      const t = summary.shim[part];
      assert.equal(t.found, t.total, `${part}: ${formatShare(t)}\n${summary.missing.join('\n')}`);
      assert.ok(summary.shimAtClaude[part].found >= summary.claude[part].found, part);
    }
    assertMoment(summary);
    assert.equal(summary.rawToolJson, 0, 'no restore echoes a tool input as raw JSON');
    assert.ok(summary.medianChars <= 8_000, `median ${summary.medianChars} characters`);
    assert.ok(summary.maxChars <= 9_500, `max ${summary.maxChars} characters`);
  },
);

for (const agent of ['codex', 'gemini'] as const) {
  const skip = sharedFixturesMissing(AGENT_FIXTURES_DIR);
  test(`${agent}: the same parts in the restores of its real logs`, { skip }, async () => {
    const { points, summary } = await measure(
      agent,
      listAgentFixtures(agent).map((n) => agentFixturePath(agent, n)),
    );
    assert.ok(points.length >= 10, `${points.length} points scored`);
    for (const part of FIDELITY_PARTS)
      assert.equal(summary.shim[part].found, summary.shim[part].total, part);
    assertMoment(summary);
    assert.equal(summary.rawToolJson, 0, 'no restore echoes a tool input as raw JSON');
    assert.ok(summary.medianChars <= 8_000, `median ${summary.medianChars} characters`);
  });
}

test("a tool's raw JSON input is told from a restore's own text", () => {
  const keys = ['file_path', 'old_string', 'command', 'replace_all'];
  assert.equal(echoesRawToolJson('- Edit {"replace_all":false,"file_path":"/a.go"', keys), true);
  assert.equal(echoesRawToolJson('"input":"{\\"command\\":\\"grep x\\"}"', keys), true);
  assert.equal(
    echoesRawToolJson('- Edit `src/a.go`\n- Bash `grep "x" a.go` → exit 0', keys),
    false,
  );
  assert.equal(echoesRawToolJson('{"name":"pkg"} in package.json', keys), false);
});
