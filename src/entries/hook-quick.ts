/**
 * dist/hook-quick.cjs — runs after a tool call Claude Code makes (PostToolUse,
 * PostToolUseFailure) when no warm process answered it (dist/hook-ask.cjs asks first), unless
 * shim's mod answers those events itself; the same after every tool call of Codex CLI (`shim
 * hook --agent codex PostToolUse`) and Gemini CLI (`shim gemini-hook AfterTool`).
 *
 * Answers without looking at the session: the mod is watching (count the call, hand over its
 * note), or the call falls in the quiet window the last full look granted. Anything else goes to
 * dist/hook.cjs with the input already read. Must stay small: no SQLite, no MCP SDK, no
 * web server, no tracker client, no database driver (src/entries/bundles.test.ts holds it); of an
 * agent it carries only what the answer without a look needs (`QuickAgent`).
 * @module
 */
import type { QuickAgent } from '../agents/agent.ts';
import { claudeQuick } from '../agents/claude/quick.ts';
import { codexQuick } from '../agents/codex/quick.ts';
import { geminiQuick } from '../agents/gemini/quick.ts';
import type { BundleLoader } from '../app/load-bundle.ts';
import * as quick from '../hook/quick-run.ts';
import type { WhyLookHere } from '../hook/warm-look/ask.ts';

/** The agents this bundle answers for without a look. */
const CARRIED = new Map<string, QuickAgent>(
  [claudeQuick, codexQuick, geminiQuick].map((agent) => [agent.id, agent]),
);

export async function mainWithInput(
  event: string | undefined,
  input: string,
  loadBundle: BundleLoader,
  asked?: WhyLookHere,
  agentId: string = claudeQuick.id,
): Promise<void> {
  const agent = CARRIED.get(agentId) ?? null;
  await quick.mainWithInput(agent, agentId, event, input, loadBundle, asked);
}
