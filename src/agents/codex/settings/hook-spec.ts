/**
 * The Codex CLI hooks shim registers in hooks.json (settings/install.ts), with their timeouts in
 * seconds (docs/agents.md, "Hooks: what each one can do").
 * @module
 */
export const CODEX_HOOKS: readonly { event: string; matcher?: string; timeout: number }[] = [
  { event: 'SessionStart', timeout: 30 },
  { event: 'UserPromptSubmit', timeout: 10 },
  // A shell command's start: a checkpoint before a risky one, and (with a team store) its note
  // for the session's command watch (docs/team.md). Prints nothing: it never blocks a call.
  { event: 'PreToolUse', timeout: 30 },
  { event: 'PostToolUse', timeout: 10 },
  { event: 'PreCompact', timeout: 30 },
  { event: 'PostCompact', timeout: 10 },
  { event: 'Stop', timeout: 10 },
];
