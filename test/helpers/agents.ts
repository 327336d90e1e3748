/**
 * The agents as the CLI's entry hands them in (src/entries/cli.ts), for tests of the code that
 * takes them, and a log of a named agent as a command would find it.
 */
import type { Agent } from '../../src/agents/agent.ts';
import { claudeAdapter } from '../../src/agents/claude/adapter.ts';
import { codexAdapter } from '../../src/agents/codex/adapter.ts';
import { geminiAdapter } from '../../src/agents/gemini/adapter.ts';
import { claudeAgent } from '../../src/agents/claude/agent.ts';
import { codexAgent } from '../../src/agents/codex/agent.ts';
import { geminiAgent } from '../../src/agents/gemini/agent.ts';
import { moduleAgents } from '../../src/agents/dispatch.ts';
import type { SessionLog } from '../../src/app/session/session-log.ts';

export const testAgents = moduleAgents();

export { claudeAgent, codexAgent, geminiAgent };

/** `path` as a log of `agent` (Claude Code's unless given). */
export function logOf(path: string, agent: Agent = claudeAgent): SessionLog {
  return { path, agent };
}

/** Each agent's value by its id (a test that runs over every agent's logs). */
export const AGENT = { claude: claudeAgent, codex: codexAgent, gemini: geminiAgent } as const;

/** Each agent's whole adapter by its id (what only commands, evaluations and the bench use). */
export const ADAPTER = {
  claude: claudeAdapter,
  codex: codexAdapter,
  gemini: geminiAdapter,
} as const;
