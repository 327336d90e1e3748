/**
 * dist/agent-codex.cjs — Codex CLI as an agent value (src/agents/codex/agent.ts), loaded by a per-call
 * bundle the first time one of its calls meets a Codex CLI session (src/agents/agent-bundles.ts):
 * the bundles that carry another agent never carry it.
 * @module
 */
export { codexAgent as agent } from '../agents/codex/agent.ts';
