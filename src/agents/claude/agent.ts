/**
 * Claude Code as an agent value (agents/agent.ts, `Agent`): what every call about its sessions
 * needs, carried by the per-call bundles that serve it. The commands' parts are adapter.ts's.
 * @module
 */
import { AppError } from '../../core/errors.ts';
import type { Agent, SessionFile } from '../agent.ts';
import { claudeQuick } from './quick.ts';
import type { HookProtocol } from '../agent.ts';
import { HOOK_TEXT_LIMIT, renderHookOutput } from './hook-output.ts';
import { parsePayload } from './hook-payload.ts';
import { acceptsCompactInstructions, renderCompactInstructions } from './compact-instructions.ts';
import { SHIM_HOOKS } from './settings/hook-spec.ts';
import { CLAUDE_INSTRUCTION_FILES } from './instructions.ts';
import {
  findLatestSession,
  findSessionById,
  getProjectsDir,
  listAllTranscripts,
} from './sessions.ts';
import { readLastCompactSummary } from './compact-summary.ts';
import { readTurnEnd } from './turn-end.ts';
import { TASK_TOOL_NAMES, TASK_TOOLS } from './task-tools.ts';
import { claudeThreshold } from './threshold.ts';
import {
  CLAUDE_LOG,
  isCompressed,
  readCompressedTranscript,
  readTranscript,
} from './transcript-reader.ts';

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

const SESSION_FILE =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl(?:\.gz)?$/i;

/** Claude Code's hook protocol: its events are shim's own names. */
const claudeHooks: HookProtocol = {
  events: Object.fromEntries(SHIM_HOOKS.map((spec) => [spec.event, spec.event])),
  parse: parsePayload,
  render: renderHookOutput,
  textLimit: HOOK_TEXT_LIMIT,
  // Appended to the summary's instructions from 2.1.241 (docs/claude-code.md).
  compactInstructions: (checkpoint) =>
    acceptsCompactInstructions(checkpoint.source.cliVersion)
      ? renderCompactInstructions(checkpoint)
      : null,
};

export const claudeAgent: Agent = {
  id: claudeQuick.id,
  name: claudeQuick.name,
  capabilities: {
    restoreSources: ['startup', 'resume', 'clear', 'compact'],
    taskTools: TASK_TOOL_NAMES,
    taskChanges: TASK_TOOLS,
    ...claudeQuick.capabilities,
    compactsBeforeNextRequest: false,
  },
  sessions: {
    root: getProjectsDir,
    latest: (cwd, env) => orNull(() => findLatestSession(cwd, env)),
    byId: (id, cwd, env) => orNull(() => findSessionById(id, cwd, env)),
    all: (env) => listAllTranscripts(env).sort((a, b) => b.mtimeMs - a.mtimeMs),
    sniff: (lines) => lines.some(looksLikeClaudeEntry),
    // Claude Code names a transcript by its session's id.
    namedLike: (path) => SESSION_FILE.test(path.slice(path.lastIndexOf('/') + 1)),
    recordName: 'a Claude Code transcript entry',
    example: '~/.claude/projects/<project>/<session>.jsonl',
  },
  log: {
    format: CLAUDE_LOG as Agent['log']['format'],
    read: (path, cursor, options) => readTranscript(path, cursor, options),
    readCompressed: (path, options) => readCompressedTranscript(path, options),
    isCompressed,
    ...claudeQuick.log,
    compactSummary: readLastCompactSummary,
    usageLimit: (path) => {
      const end = readTurnEnd(path);
      return end?.kind === 'usage_limit' ? end.text : null;
    },
    // A tool call is in the transcript before it runs.
    foldStarted: null,
  },
  hooks: claudeHooks,
  threshold: claudeThreshold,
  instructions: { names: CLAUDE_INSTRUCTION_FILES },
};
