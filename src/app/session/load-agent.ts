/**
 * An agent's adapter for a use case. The per-call bundles (hooks, statusline) load another agent's
 * adapter from its own bundle (dist/agent-<id>.cjs), so Claude Code's hooks never carry it; the
 * CLI goes through agents/dispatch.ts. Which agent wrote a log: `--agent`, else its file name.
 * @module
 */
import type { AgentAdapter, ThresholdRules } from '../../agents/agent.ts';
import { claudeThreshold } from '../../agents/claude/threshold.ts';
import { agentOfLogPath } from '../../agents/detect.ts';
import type { AgentId } from '../../core/agent-id.ts';
import type { SessionState } from '../../core/session.ts';
import type { ReadOptions } from '../../transcript/reader.ts';
import { loadBundled } from '../load-bundle.ts';

type CodexModule = { codexAdapter: AgentAdapter };
type GeminiModule = { geminiAdapter: AgentAdapter };

function fromBundle(id: AgentId): AgentAdapter {
  if (id === 'codex') return (loadBundled('agent-codex.cjs') as CodexModule).codexAdapter;
  if (id === 'gemini') return (loadBundled('agent-gemini.cjs') as GeminiModule).geminiAdapter;
  throw new Error(`no ${id} adapter bundle beside the hooks (use the CLI)`);
}

/** How a session log is read and judged: what the use cases on the per-call paths need. */
export type AgentReading = Pick<AgentAdapter, 'log' | 'threshold'>;

/** Adapters loaded by this process: a state read through one can be judged by its rules. */
const loaded = new Map<AgentId, AgentReading>();

/**
 * A bundle that carries an agent's reader hands it over here (the Gemini hook), so reading that
 * agent's log does not load the adapter's own bundle (~2 ms on every tool call).
 */
export function provideAgentReading(id: AgentId, reading: AgentReading): void {
  loaded.set(id, reading);
}

/** The agent's reader and rules: the one provided or loaded already, else its adapter. */
export async function loadAgentReading(id: AgentId): Promise<AgentReading> {
  return loaded.get(id) ?? (await loadAgentAdapter(id));
}

export async function loadAgentAdapter(id: AgentId): Promise<AgentAdapter> {
  // A conditional the bundler folds: the per-call bundles never contain the dispatch.
  const adapter = globalThis.__SHIM_BUNDLE__
    ? fromBundle(id)
    : await (await import('../../agents/dispatch.ts')).loadAdapter(id);
  loaded.set(id, adapter);
  return adapter;
}

/**
 * The compaction rule of the agent whose log `state` was folded from (its adapter was loaded to
 * read it); Claude Code's where no other agent's reader was.
 */
export function thresholdRulesFor(state: SessionState): ThresholdRules {
  const adapter = state.agent ? loaded.get(state.agent) : undefined;
  return adapter?.threshold ?? claudeThreshold;
}

/** The agent of a session log: the one forced, else the one its name says. */
export function logAgent(path: string, forced?: AgentId | null): AgentId {
  return forced ?? agentOfLogPath(path);
}

/** Reads a whole log of an agent other than Claude Code (the caller reads Claude's itself). */
export async function readAgentLog(
  path: string,
  agent: AgentId,
  options: ReadOptions = {},
): Promise<SessionState> {
  const adapter = await loadAgentAdapter(agent);
  return adapter.log.isCompressed(path)
    ? adapter.log.readCompressed(path, options)
    : adapter.log.read(path, null, options).cursor.state;
}
