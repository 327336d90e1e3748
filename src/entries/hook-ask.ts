/**
 * dist/hook-ask.cjs — runs first after EVERY tool call Claude Code makes (PostToolUse,
 * PostToolUseFailure), unless shim's mod answers those events itself, and after every tool call
 * of Codex CLI (PostToolUse) and Gemini CLI (AfterTool).
 *
 * Hands the payload to the warm look (src/hook/warm-look/), which gives the quick answer or the
 * full look from a process that is already running; loads dist/hook-quick.cjs only when none
 * answers. Required without the code cache, so it must stay tiny: node:fs and node:path, no
 * other shim code than the pipes' protocol (src/entries/bundles.test.ts holds it).
 * @module
 */
export { main } from '../hook/warm-look/ask-run.ts';
