/**
 * dist/agent-gemini.cjs — Gemini CLI as an agent value (src/agents/gemini/agent.ts), loaded by a per-call
 * bundle the first time one of its calls meets a Gemini CLI session (src/agents/agent-bundles.ts):
 * the bundles that carry another agent never carry it.
 * @module
 */
export { geminiAgent as agent } from '../agents/gemini/agent.ts';
