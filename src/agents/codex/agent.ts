/**
 * Codex CLI as an agent value (agents/agent.ts, `Agent`; facts in docs/agents.md, verified with
 * the pinned CLI): what every call about its sessions needs, its own bundle (dist/agent-codex.cjs).
 * The commands' parts are adapter.ts's.
 * @module
 */
import type { Agent } from '../agent.ts';
import { CODEX_HOOK_TEXT_LIMIT } from './hook-output.ts';
import { codexQuick } from './quick.ts';
import { CODEX_INSTRUCTION_FILES } from './instructions.ts';
import { findLatestRollout, findRolloutById, getCodexHome, listRollouts } from './sessions.ts';
import { CODEX_HOOKS } from './settings/hook-spec.ts';
import { codexThreshold } from './threshold.ts';
import {
  CODEX_LOG,
  isCompressedRollout,
  readCompressedRollout,
  readRollout,
} from './transcript-reader.ts';

function looksLikeRolloutLine(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const line = value as Record<string, unknown>;
  return (
    typeof line.type === 'string' &&
    typeof line.payload === 'object' &&
    ['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted'].includes(line.type)
  );
}

/** A log's file name, without the `.gz` an export may add. */
const fileName = (path: string) => path.slice(path.lastIndexOf('/') + 1).replace(/\.gz$/, '');

export const codexAgent: Agent = {
  id: codexQuick.id,
  name: codexQuick.name,
  capabilities: {
    restoreSources: ['startup', 'resume', 'compact'],
    taskTools: ['update_plan'],
    taskChanges: /^update_plan$/,
    ...codexQuick.capabilities,
    compactsBeforeNextRequest: false,
  },
  sessions: {
    root: (env) => `${getCodexHome(env)}/sessions`,
    latest: findLatestRollout,
    byId: (id, _cwd, env) => findRolloutById(id, env),
    all: listRollouts,
    sniff: (lines) => lines.some(looksLikeRolloutLine),
    namedLike: (path) => /^rollout-.+\.jsonl(?:\.zst)?$/.test(fileName(path)),
    recordName: 'a Codex CLI rollout line',
    example: '$CODEX_HOME/sessions/…/rollout-….jsonl',
  },
  log: {
    format: CODEX_LOG as Agent['log']['format'],
    read: (path, cursor, options) => readRollout(path, cursor, options),
    readCompressed: (path, options) => readCompressedRollout(path, options),
    isCompressed: isCompressedRollout,
    ...codexQuick.log,
    // The `compacted` line's summary is not read yet: a restore then names no gaps in it.
    compactSummary: () => null,
    // A usage limit reaches the loop through `codex exec`'s events, not the rollout's end.
    usageLimit: () => null,
    // A call is in the rollout before it runs.
    foldStarted: null,
  },
  hooks: {
    events: Object.fromEntries(CODEX_HOOKS.map((h) => [h.event, h.event])),
    ...codexQuick.hooks,
    textLimit: CODEX_HOOK_TEXT_LIMIT,
    // PreCompact's output does not reach Codex's summary (docs/agents.md).
    compactInstructions: () => null,
  },
  threshold: codexThreshold,
  instructions: { names: CODEX_INSTRUCTION_FILES },
};
