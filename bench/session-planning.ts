/**
 * `npm run bench` section 7 (issue 43 item 9, session planning): at every task-list change of the
 * real sessions, the open tasks run in the list's order and as `shim estimate`'s session plan
 * would have them (estimates leave-one-out, learned from the same agent's other sessions) — from
 * the simple estimates (the list's estimate shared out evenly) and from the per-task model
 * (core/plan/task-cost.ts) — each task costing what it really cost; the share of tasks a
 * compaction cut under each, and how far each task's estimate was from its cost.
 * src/app/evaluation/evaluate-session-planning.ts; docs/intelligence.md.
 * @module
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionLog } from '../src/app/session/session-log.ts';
import { evaluateSessionPlanning } from '../src/app/evaluation/evaluate-session-planning.ts';
import { MIN_SPAN_TOKENS } from '../src/core/plan/task-cost.ts';
import { loadConfig } from '../src/store/config/config.ts';
import { agentFixturePath, listAgentFixtures } from '../test/helpers/fixtures.ts';
import { AGENT, logOf } from '../test/helpers/agents.ts';

type Report = (name: string, value: string, note?: string) => void;

const pct = (part: number, whole: number) =>
  whole === 0 ? '–' : `${((part / whole) * 100).toFixed(1)}%`;

export async function runSessionPlanningBench(
  report: Report,
  results: Record<string, unknown>,
  claudeSessions: readonly SessionLog[],
): Promise<void> {
  // No user settings, no history of a user: the agent's own threshold rule for each log's model.
  const home = mkdtempSync(join(tmpdir(), 'shim-bench-planning-'));
  try {
    const config = await loadConfig(home, { lenient: true, projectRoot: null });
    const byAgent = {
      claude: claudeSessions,
      codex: listAgentFixtures('codex').map((f) =>
        logOf(agentFixturePath('codex', f), AGENT.codex),
      ),
      gemini: listAgentFixtures('gemini').map((f) =>
        logOf(agentFixturePath('gemini', f), AGENT.gemini),
      ),
    };
    const scores: Record<string, Awaited<ReturnType<typeof evaluateSessionPlanning>>> = {};
    for (const [agent, logs] of Object.entries(byAgent)) {
      const score = await evaluateSessionPlanning(logs, { home, config });
      scores[agent] = score;
      if (score.points === 0) {
        report(
          `tasks cut by compaction (${agent})`,
          '–',
          `${logs.length} logs; none has a task completed from a task list`,
        );
        continue;
      }
      report(
        `tasks cut by compaction (${agent}): list order`,
        pct(score.inOrder.cut, score.tasks),
        `the simple policy; ${score.inOrder.cut} of ${score.tasks} open tasks at ${score.points} task-list changes in ${score.sessions} sessions; ${score.inOrder.windows} context windows`,
      );
      report(
        `  as planned (shim estimate's session plan)`,
        pct(score.planned.cut, score.tasks),
        `${score.planned.cut} cut; ${score.planned.windows} windows; a task put off that would have fit at ${score.needlessDeferrals} changes; estimates leave-one-out`,
      );
      report(
        `  as planned, per-task model (task text)`,
        pct(score.plannedPerTask.cut, score.tasks),
        `${score.plannedPerTask.cut} cut; ${score.plannedPerTask.windows} windows; model leave-one-out on the other sessions' task spans${score.noModel > 0 ? ` (too few task spans to learn from, left out of ${score.noModel} logs: the even share there)` : ''}`,
      );
      report(
        `  … from its expected (mean) cost`,
        pct(score.plannedExpected.cut, score.tasks),
        `${score.plannedExpected.cut} cut; ${score.plannedExpected.windows} windows (vs ${score.planned.windows} as planned by the simple policy)`,
      );
      report(
        `  a task's error: median |log(est./actual)|`,
        `${score.error.simple.toFixed(3)} → ${score.error.perTask.toFixed(3)}`,
        `the list's estimate shared out evenly → per-task model; ${score.error.tasks} open tasks of ≥ ${MIN_SPAN_TOKENS} tokens`,
      );
    }
    results.sessionPlanning = scores;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
