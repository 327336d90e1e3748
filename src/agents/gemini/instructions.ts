/** The files Gemini CLI reads as standing project instructions. */
export const GEMINI_INSTRUCTION_FILES = ['GEMINI.md', '.gemini/GEMINI.md'] as const;
