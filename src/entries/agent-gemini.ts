/**
 * dist/agent-gemini.cjs — the Gemini adapter (its transcript reader, threshold and hook formats), loaded
 * only by the calls that meet a Gemini session (app/session/load-agent.ts), so Claude Code's per-call
 * bundles carry none of it.
 * @module
 */
export * from '../agents/gemini/adapter.ts';
