/**
 * An agent's adapter for a use case. The per-call bundles (hooks, statusline) load another agent's
 * adapter from its own bundle (dist/agent-<id>.cjs), so Claude Code's hooks never carry it; the
 * CLI goes through agents/dispatch.ts. Which agent wrote a log: `--agent`, else its file name.
 * @module
 */
import type { AgentAdapter } from '../agents/agent.ts';
import { agentOfLogPath } from '../agents/detect.ts';
import type { AgentId } from '../core/agent-id.ts';
import type { CompactThreshold } from '../core/compact-threshold.ts';
import { registerAgentLogReader, type AgentLogReader } from './agent-logs.ts';
import type { SessionState } from '../core/session.ts';
import type { Env } from '../store/home.ts';
import type { ReadOptions } from '../transcript/reader.ts';
import { loadBundled } from './load-bundle.ts';

type CodexModule = { codexAdapter: AgentAdapter };

function fromBundle(id: AgentId): AgentAdapter {
  if (id === 'codex') return (loadBundled('agent-codex.cjs') as CodexModule).codexAdapter;
  throw new Error(`no ${id} adapter bundle beside the hooks (use the CLI)`);
}

export async function loadAgentAdapter(id: AgentId): Promise<AgentAdapter> {
  // A conditional the bundler folds: the per-call bundles never contain the dispatch.
  const adapter = globalThis.__SHIM_BUNDLE__
    ? fromBundle(id)
    : await (await import('../agents/dispatch.ts')).loadAdapter(id);
  if (id === 'codex') registerAgentLogReader(asLogReader(adapter));
  return adapter;
}

/** A log reader of the use cases' registry (app/agent-logs.ts) from an adapter. */
function asLogReader(adapter: AgentAdapter): AgentLogReader {
  const id = adapter.id;
  if (id === 'claude') throw new Error("Claude Code's transcripts are read directly");
  return {
    agent: id,
    matches: (path) => agentOfLogPath(path) === id,
    read: (path, cursor, options) =>
      adapter.log.isCompressed(path)
        ? { cursor: compressedCursor(path, adapter, options), bytesRead: 0, restarted: false }
        : adapter.log.read(path, cursor, options),
    findById: (sessionId, env) => adapter.sessions.byId(sessionId, '.', env)?.path ?? null,
    threshold: (state, env) => toCompactThreshold(adapter, state, env),
  };
}

/** A compressed log cannot be read synchronously through the registry: callers read it whole. */
function compressedCursor(path: string, adapter: AgentAdapter, _options: unknown): never {
  throw new Error(`${path} is compressed: read it with ${adapter.name}'s readCompressed`);
}

/** An adapter's compaction rule as the core's threshold. */
function toCompactThreshold(
  adapter: AgentAdapter,
  state: SessionState,
  env: Env,
): CompactThreshold {
  const rule = adapter.threshold.threshold({
    model: state.model,
    windowTokens: state.logWindowTokens ?? null,
    configuredLimit: adapter.threshold.configuredLimit(env),
  });
  const windowTokens = rule?.windowTokens ?? state.logWindowTokens ?? 0;
  const compactThreshold = rule?.tokens ?? windowTokens;
  return {
    windowTokens,
    compactThreshold,
    autoCompact: true,
    source: rule?.configured ? 'settings' : 'default',
    detail: rule?.source ?? `${adapter.name}: no rule known`,
    sampleCount: 0,
    era: adapter.name,
    compactWindow: windowTokens,
    windowSource: 'model',
    nativeWarningAt: null,
    blockingLimit: null,
    backgroundSummaryAt: null,
  };
}

/**
 * Makes sure the reader of the agent whose log `path` is has been registered (app/agent-logs.ts),
 * loading its adapter from its own bundle when needed. Claude Code's and Gemini CLI's need nothing.
 */
export async function ensureAgentLogReader(path: string, forced?: AgentId | null): Promise<void> {
  if (logAgent(path, forced) === 'codex') await loadAgentAdapter('codex');
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
