/** The files Claude Code reads as standing project instructions, in the order shim looks. */
export const CLAUDE_INSTRUCTION_FILES = ['CLAUDE.md', '.claude/CLAUDE.md'] as const;
