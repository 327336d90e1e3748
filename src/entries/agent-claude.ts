/**
 * dist/agent-claude.cjs — Claude Code as an agent value (src/agents/claude/agent.ts), loaded by a per-call
 * bundle the first time one of its calls meets a Claude Code session (src/agents/agent-bundles.ts):
 * the bundles that carry another agent never carry it.
 * @module
 */
export { claudeAgent as agent } from '../agents/claude/agent.ts';
