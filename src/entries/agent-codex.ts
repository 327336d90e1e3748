/**
 * dist/agent-codex.cjs — the Codex adapter (its transcript reader, threshold and hook formats), loaded
 * only by the calls that meet a Codex session (app/session/load-agent.ts), so Claude Code's per-call
 * bundles carry none of it.
 * @module
 */
export * from '../agents/codex/adapter.ts';
