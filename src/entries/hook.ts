/**
 * dist/hook.cjs — every hook event of every agent that dist/hook-ask.cjs and dist/hook-quick.cjs
 * do not answer: fold the log's new bytes, assess, decide (hook/run.ts, one runner for all).
 * Claude Code's hooks (`shim hook <Event>`) find their agent here; another agent's
 * (`shim hook --agent codex <Event>`, `shim gemini-hook <Event>`) is loaded from its own bundle
 * (dist/agent-<id>.cjs). Also the warm look's process (`shim background warm-look`).
 *
 * Runs once per prompt and, through PreToolUse, once per Bash command (where the mod does not
 * answer it). The events that open the store load dist/hook-heavy.cjs. No SQLite here.
 * @module
 */
import { bundledAgents } from '../agents/agent-bundles.ts';
import type { Agents } from '../agents/agent.ts';
import { claudeAgent } from '../agents/claude/agent.ts';
import { loadBundled, type BundleLoader } from '../app/load-bundle.ts';
import { isAgentId } from '../core/agent-id.ts';
import { getShimHome } from '../store/home/home.ts';
import { appendLog } from '../store/home/log.ts';
import type { QuickHandover } from '../hook/hook-run.ts';
import * as hook from '../hook/run.ts';
import { runWarmLook as serveWarmLook } from '../hook/warm-look/serve.ts';

function agentsHere(loadBundle?: BundleLoader): Agents {
  return bundledAgents([claudeAgent], (name) => (loadBundle ?? loadBundled)(name));
}

/** The agent a hook command names (Claude Code's when it names none: `shim hook <Event>`). */
function chosen(agentId: string | undefined): string {
  return agentId ?? claudeAgent.id;
}

export async function main(
  event: string | undefined,
  loadBundle?: BundleLoader,
  agentId?: string,
): Promise<void> {
  const id = chosen(agentId);
  if (!isAgentId(id)) {
    appendLog(getShimHome(process.env), 'warn', `hook: unknown agent "${id}" (nothing done)`);
    process.exitCode = 0;
    return;
  }
  const agents = agentsHere(loadBundle);
  await hook.main({ agent: await agents.agent(id), agents, event: event ?? '' }, loadBundle);
}

/** What dist/hook-quick.cjs could not answer, with the input it read. */
export async function mainWithInput(
  agentId: string,
  event: string | undefined,
  input: string,
  loadBundle: BundleLoader,
  handover?: QuickHandover,
): Promise<void> {
  if (!isAgentId(agentId)) return;
  const agents = agentsHere(loadBundle);
  await hook.mainWithInput(
    {
      agent: await agents.agent(agentId),
      agents,
      event: event ?? '',
      input,
      ...(handover ? { handover } : {}),
    },
    loadBundle,
  );
}

export async function runWarmLook(loadBundle?: BundleLoader): Promise<void> {
  await serveWarmLook({ agent: claudeAgent, agents: agentsHere(loadBundle) }, loadBundle);
}
