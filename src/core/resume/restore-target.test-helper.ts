/**
 * Restore targets as the agents' adapters give them (app/restore/restore-target.ts reads the
 * real ones; its test holds them to these), for the core's renderer tests.
 * @module
 */
import type { RestoreTarget } from './restore-target.ts';

export const CLAUDE_TARGET: RestoreTarget = {
  id: 'claude',
  name: 'Claude Code',
  textLimit: 9_500,
  taskTools: ['TodoWrite', 'TaskCreate'],
  instructionFiles: ['CLAUDE.md', '.claude/CLAUDE.md'],
};

export const CODEX_TARGET: RestoreTarget = {
  id: 'codex',
  name: 'Codex CLI',
  textLimit: 9_500,
  taskTools: ['update_plan'],
  instructionFiles: ['AGENTS.md', 'AGENTS.override.md'],
};

export const GEMINI_TARGET: RestoreTarget = {
  id: 'gemini',
  name: 'Gemini CLI',
  textLimit: 20_000,
  taskTools: ['write_todos'],
  instructionFiles: ['GEMINI.md', '.gemini/GEMINI.md'],
};
