/** The files Codex CLI reads as standing project instructions. */
export const CODEX_INSTRUCTION_FILES = ['AGENTS.md', 'AGENTS.override.md'] as const;
