/**
 * `shim doctor`: checks that shim is wired into the agents it is installed into and can do its
 * job — their settings, every hook pointing at this shim, the MCP server registration, SHIM_HOME
 * and the database — and shows recent activity and errors. Each check says how to fix
 * what it found. Healthy means every essential check passed. The checks are each agent's own
 * (agent-checks.ts: AgentAdapter.doctor, for the agents shim is installed into) and shim's own
 * (store-checks.ts and the others here).
 * @module
 */
import { check, type DoctorCheck, type DoctorOptions, type DoctorReport } from './doctor-check.ts';
import { AGENT_IDS, agentName } from '../../core/agent-id.ts';
import {
  activityCheck,
  configCheck,
  databaseCheck,
  homeCheck,
  logCheck,
  recoveryCheck,
} from './store-checks.ts';

import { syncCheck } from './sync-check.ts';
import { teamCheck } from './team-check.ts';
import { checkpointFailureCheck } from './checkpoint-failure-check.ts';
import { chainCheck } from './chain-check.ts';
import { transcriptCheck } from './transcript-check.ts';
import { agentChecks } from './agent-checks.ts';
import { warmLookCheck } from './warm-look-check.ts';

export type { CheckStatus, DoctorCheck, DoctorReport } from './doctor-check.ts';

/** Not one agent uses shim here: that is the first thing to fix. */
function noAgentCheck(): DoctorCheck {
  return check(
    'agents',
    'agents',
    'fail',
    true,
    `shim is not installed into any agent it serves (${AGENT_IDS.map(agentName).join(', ')})`,
    'shim install (wires every agent found here), or shim install --agent claude|codex|gemini',
  );
}

export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const now = options.now ?? new Date();
  const home = homeCheck(options.home);
  const config = await configCheck(options);
  const recovered = recoveryCheck(options.home);
  const database = databaseCheck(options.home);
  let activity: DoctorCheck;
  try {
    activity = activityCheck(database.db, now);
  } finally {
    database.db?.close();
  }
  // Before the probe, so that what the probe itself logs or records is not reported.
  const log = logCheck(options.home, now);
  // Each agent's wiring, Claude Code's hook probe among them.
  const agents = await agentChecks(options, now);
  const sync = await syncCheck(options);
  const team = await teamCheck(options);
  const warmLook = await warmLookCheck(options, now);
  const chains = database.db ? await chainCheck(options.home) : null;
  const checks = [
    ...(agents.length > 0 ? agents : [noAgentCheck()]),
    home,
    config,
    ...(recovered ? [recovered] : []),
    database.check,
    checkpointFailureCheck(options.home, now),
    ...(chains ? [chains] : []),
    activity,
    transcriptCheck(options.home, now),
    log,
    sync,
    team,
    warmLook,
  ];
  return { healthy: checks.every((c) => !c.essential || c.status === 'ok'), checks };
}
