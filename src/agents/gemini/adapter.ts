/**
 * Gemini CLI behind the whole contract (agents/agent.ts, `AgentAdapter`): the agent (agent.ts)
 * and what only commands use — install, doctor, the loop's headless run.
 * @module
 */
import type { AgentAdapter } from '../agent.ts';
import { foundBy } from '../agent-found.ts';
import { withCliVersion } from '../cli-version-check.ts';
import { geminiDir } from './sessions.ts';
import { geminiAgent } from './agent.ts';
import { geminiMoments } from './moments.ts';
import { geminiHeadless } from './headless.ts';
import { geminiDoctorChecks } from './settings/doctor.ts';
import { installGemini, uninstallGemini } from './settings/install.ts';

export const geminiAdapter: AgentAdapter = {
  ...geminiAgent,
  verifiedVersion: '0.61.0',
  installer: {
    found: (env) => foundBy(geminiHeadless.defaultBin, geminiDir(env), env),
    install: (request) => installGemini({ ...request, invocation: request.shim }),
    uninstall: (request) => uninstallGemini(request),
  },
  headless: geminiHeadless,
  doctor: {
    checks: async (request) =>
      withCliVersion(geminiAdapter, geminiDoctorChecks(request), request.env),
  },
  mod: null,
  moments: geminiMoments,
};
