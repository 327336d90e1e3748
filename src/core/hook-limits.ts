/**
 * Claude Code caps a hook's output strings at 10,000 characters; longer text is saved to a file
 * and only a preview reaches the model (docs/claude-code.md, "Hook output"). Text shim injects
 * through a hook is fitted under this, with room for a cut marker.
 */
export const HOOK_TEXT_LIMIT = 9_500;
