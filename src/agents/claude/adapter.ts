/**
 * Claude Code behind the whole contract (agents/agent.ts, `AgentAdapter`): the agent (agent.ts)
 * and what only commands use — install, doctor, the loop's headless run.
 * @module
 */
import type { AgentAdapter, InstallReport } from '../agent.ts';
import { claudeAgent } from './agent.ts';
import { claudeMoments } from './moments.ts';
import { claudeHeadless } from './headless.ts';
import { foundBy } from '../agent-found.ts';
import { getClaudeConfigDir } from './sessions.ts';
import { describeChange } from './settings/describe-change.ts';
import { claudeDoctorChecks } from './settings/doctor.ts';
import { installShim } from './settings/install.ts';
import { uninstallShim } from './settings/uninstall.ts';
import { installLines, uninstallLines } from './settings/install-report.ts';
import { decideMod } from './settings/mod-decision.ts';
import { findOtherToolHooks } from './settings/tool-hook-owners.ts';
import { findShimPackage } from '../../capture/shim-location.ts';
import { dirname } from 'node:path';

export const claudeAdapter: AgentAdapter = {
  ...claudeAgent,
  verifiedVersion: '2.1.332',
  installer: {
    found: (env) => foundBy(claudeHeadless.defaultBin, getClaudeConfigDir(env), env),
    install: (request) => {
      const version = findShimPackage(dirname(request.shim.bin))?.version ?? '0.0.0';
      const decided = decideMod(request.mod, request.shim.bin, request.env, version);
      const result = installShim({ ...request, invocation: request.shim, mod: decided.mod });
      if (decided.note) result.notes.push(decided.note);
      return {
        agent: 'claude',
        changed: result.changed,
        dryRun: result.dryRun,
        files: [{ path: result.settingsPath, changes: result.changes.map(describeChange) }],
        notes: result.notes,
        lines: installLines(result, request.shim),
        details: result,
        backup: null,
      } satisfies InstallReport;
    },
    uninstall: (request) => {
      const result = uninstallShim(request);
      return {
        agent: 'claude',
        changed: result.changed,
        dryRun: false,
        files: [{ path: result.settingsPath, changes: result.changes.map(describeChange) }],
        notes: result.notes,
        lines: uninstallLines(result),
        details: result,
        backup: result.backupPath,
      } satisfies InstallReport;
    },
  },
  headless: claudeHeadless,
  doctor: { checks: claudeDoctorChecks },
  mod: { otherToolHooks: (cwd, env) => findOtherToolHooks(cwd, env) },
  moments: claudeMoments,
};
