/**
 * dist/statusline-full.cjs — the statusline's fold and assessment, loaded by dist/statusline.cjs
 * only outside the quiet window (above half the threshold: every render). No SQLite.
 * @module
 */
import { claudeAgent } from '../agents/claude/agent.ts';
import { assessForStatusline as assessFor } from '../statusline/full-basis.ts';

/** The statusline is Claude Code's (the only agent with one): its agent is handed in here. */
export const assessForStatusline = (request: Parameters<typeof assessFor>[1]) =>
  assessFor(claudeAgent, request);
