/**
 * `shim doctor`: checks that shim is wired into Claude Code and can do its job — settings valid,
 * every hook event pointing at this shim, the hook command actually running, the statusline, the
 * MCP server registration,
 * SHIM_HOME and the database — and shows recent activity and errors. Each check says how to fix
 * what it found. Healthy means every essential check passed. The checks are in
 * settings-checks.ts (the Claude Code side), agent-checks.ts (Codex CLI, Gemini CLI: each adapter's
 * own, when shim is installed there) and store-checks.ts (shim's own).
 * @module
 */
import type { DoctorCheck, DoctorOptions, DoctorReport } from './doctor-check.ts';
import {
  hookRunsCheck,
  hooksCheck,
  mcpCheck,
  modCheck,
  readSources,
  settingsChecks,
  statusLineCheck,
} from './settings-checks.ts';
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
import { transcriptCheck } from './transcript-check.ts';
import { agentChecks } from './agent-checks.ts';
import { warmLookCheck } from './warm-look-check.ts';

export type { CheckStatus, DoctorCheck, DoctorReport } from './doctor-check.ts';

export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const now = options.now ?? new Date();
  const sources = readSources(options);
  const settings = settingsChecks(sources);
  const hooks = hooksCheck(sources, options.invocation);
  const statusLine = statusLineCheck(sources, options.invocation);
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
  const hookRuns = await hookRunsCheck(options);
  const sync = await syncCheck(options);
  const team = await teamCheck(options);
  const warmLook = await warmLookCheck(options, now);
  const checks = [
    ...settings,
    hooks,
    hookRuns,
    statusLine,
    mcpCheck(options),
    modCheck(sources, options),
    ...(await agentChecks(options)),
    home,
    config,
    ...(recovered ? [recovered] : []),
    database.check,
    checkpointFailureCheck(options.home, now),
    activity,
    transcriptCheck(options.home, now),
    log,
    sync,
    team,
    warmLook,
  ];
  return { healthy: checks.every((c) => !c.essential || c.status === 'ok'), checks };
}
