/**
 * Codex CLI behind the agent contract (agents/agent.ts; facts in docs/agents.md, verified with
 * the pinned 0.169.0). Its own bundle (dist/agent-codex.cjs): Claude Code's hooks never load it.
 * @module
 */
import type { AgentAdapter } from '../agent.ts';
import { parsePayload } from './hook-payload.ts';
import { codexHeadless } from './headless.ts';
import { CODEX_HOOK_TEXT_LIMIT, renderCodexHookOutput } from './hook-output.ts';
import { CODEX_INSTRUCTION_FILES } from './instructions.ts';
import { findLatestRollout, findRolloutById, getCodexHome, listRollouts } from './sessions.ts';
import { checkCodexTrust, CODEX_HOOKS, installCodex, uninstallCodex } from './settings/install.ts';
import { codexDoctorChecks } from './settings/doctor.ts';
import { withCliVersion } from '../cli-version-check.ts';
import { codexThreshold } from './threshold.ts';
import {
  CODEX_LOG,
  isCompressedRollout,
  readCompressedRollout,
  readRollout,
} from './transcript-reader.ts';

export { checkCodexTrust };

function looksLikeRolloutLine(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const line = value as Record<string, unknown>;
  return (
    typeof line.type === 'string' &&
    typeof line.payload === 'object' &&
    ['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted'].includes(line.type)
  );
}

export const codexAdapter: AgentAdapter = {
  id: 'codex',
  name: 'Codex CLI',
  verifiedVersion: '0.169.0',
  capabilities: {
    statusline: false,
    compactInstructions: false,
    hookTrust: true,
    mod: false,
    liveUsageInHooks: false,
    restoreSources: ['startup', 'resume', 'compact'],
    taskTools: ['update_plan'],
    forkAtMessage: false,
  },
  sessions: {
    root: (env) => `${getCodexHome(env)}/sessions`,
    latest: findLatestRollout,
    byId: (id, _cwd, env) => findRolloutById(id, env),
    all: listRollouts,
    sniff: (lines) => lines.some(looksLikeRolloutLine),
  },
  log: {
    format: CODEX_LOG as AgentAdapter['log']['format'],
    read: (path, cursor, options) => readRollout(path, cursor, options),
    readCompressed: (path, options) => readCompressedRollout(path, options),
    isCompressed: isCompressedRollout,
  },
  hooks: {
    events: Object.fromEntries(CODEX_HOOKS.map((h) => [h.event, h.event])),
    parse: parsePayload,
    render: renderCodexHookOutput,
    textLimit: CODEX_HOOK_TEXT_LIMIT,
  },
  threshold: codexThreshold,
  installer: { install: installCodex, uninstall: uninstallCodex },
  headless: codexHeadless,
  instructions: { names: CODEX_INSTRUCTION_FILES },
  doctor: {
    checks: async (request) =>
      withCliVersion(codexAdapter, codexDoctorChecks(request), request.env),
  },
};
