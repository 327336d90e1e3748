/**
 * Codex CLI behind the whole contract (agents/agent.ts, `AgentAdapter`): the agent (agent.ts)
 * and what only commands use — install, doctor, the loop's headless run.
 * @module
 */
import type { AgentAdapter } from '../agent.ts';
import { foundBy } from '../agent-found.ts';
import { withCliVersion } from '../cli-version-check.ts';
import { getCodexHome } from './sessions.ts';
import { codexAgent } from './agent.ts';
import { codexMoments } from './moments.ts';
import { codexHeadless } from './headless.ts';
import { codexDoctorChecks } from './settings/doctor.ts';
import { installCodex, uninstallCodex } from './settings/install.ts';

export const codexAdapter: AgentAdapter = {
  ...codexAgent,
  verifiedVersion: '0.171.0',
  installer: {
    found: (env) => foundBy(codexHeadless.defaultBin, getCodexHome(env), env),
    install: installCodex,
    uninstall: uninstallCodex,
  },
  headless: codexHeadless,
  doctor: {
    checks: async (request) =>
      withCliVersion(codexAdapter, codexDoctorChecks(request), request.env),
  },
  mod: null,
  moments: codexMoments,
};
