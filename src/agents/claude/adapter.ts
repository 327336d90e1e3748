/**
 * Claude Code behind the agent contract (agents/agent.ts). The hot paths (hooks, statusline)
 * import the parts they need directly; everything that serves several agents comes through here.
 * @module
 */
import { AppError } from '../../core/errors.ts';
import type { AgentAdapter, InstallReport, SessionFile } from '../agent.ts';
import { claudeHeadless } from './headless.ts';
import { HOOK_TEXT_LIMIT, renderHookOutput } from './hook-output.ts';
import { parsePayload } from './hook-payload.ts';
import { CLAUDE_INSTRUCTION_FILES } from './instructions.ts';
import {
  findLatestSession,
  findSessionById,
  getProjectsDir,
  listAllTranscripts,
} from './sessions.ts';
import { describeChange } from './settings/describe-change.ts';
import { claudeDoctorChecks } from './settings/doctor.ts';
import { installShim } from './settings/install.ts';
import { uninstallShim } from './settings/uninstall.ts';
import {
  CLAUDE_LOG,
  isCompressed,
  readCompressedTranscript,
  readTranscript,
} from './transcript-reader.ts';
import { SHIM_HOOKS } from './settings/hook-spec.ts';
import { TASK_TOOL_NAMES } from './task-tools.ts';
import { claudeThreshold } from './threshold.ts';

function orNull(find: () => SessionFile): SessionFile | null {
  try {
    return find();
  } catch (error) {
    if (error instanceof AppError && error.code === 'SESSION_NOT_FOUND') return null;
    throw error;
  }
}

/** A transcript entry of Claude Code: a `type` and a `sessionId` or `uuid`. */
function looksLikeClaudeEntry(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.type === 'string' &&
    (typeof entry.sessionId === 'string' || typeof entry.uuid === 'string')
  );
}

export const claudeAdapter: AgentAdapter = {
  id: 'claude',
  name: 'Claude Code',
  verifiedVersion: '2.1.332',
  capabilities: {
    statusline: true,
    compactInstructions: true,
    hookTrust: false,
    mod: true,
    liveUsageInHooks: false,
    restoreSources: ['startup', 'resume', 'clear', 'compact'],
    taskTools: TASK_TOOL_NAMES,
    forkAtMessage: true,
  },
  sessions: {
    root: getProjectsDir,
    latest: (cwd, env) => orNull(() => findLatestSession(cwd, env)),
    byId: (id, cwd, env) => orNull(() => findSessionById(id, cwd, env)),
    all: (env) => listAllTranscripts(env).sort((a, b) => b.mtimeMs - a.mtimeMs),
    sniff: (lines) => lines.some(looksLikeClaudeEntry),
  },
  log: {
    format: CLAUDE_LOG as AgentAdapter['log']['format'],
    read: (path, cursor, options) => readTranscript(path, cursor, options),
    readCompressed: (path, options) => readCompressedTranscript(path, options),
    isCompressed,
  },
  hooks: {
    events: Object.fromEntries(SHIM_HOOKS.map((spec) => [spec.event, spec.event])),
    parse: parsePayload,
    render: renderHookOutput,
    textLimit: HOOK_TEXT_LIMIT,
  },
  threshold: claudeThreshold,
  installer: {
    install: (request) => {
      const result = installShim({ ...request, invocation: request.shim });
      return {
        agent: 'claude',
        changed: result.changed,
        dryRun: result.dryRun,
        files: [{ path: result.settingsPath, changes: result.changes.map(describeChange) }],
        notes: result.notes,
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
      } satisfies InstallReport;
    },
  },
  headless: claudeHeadless,
  instructions: { names: CLAUDE_INSTRUCTION_FILES },
  doctor: { checks: claudeDoctorChecks },
};
