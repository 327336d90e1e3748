/**
 * Which Claude Code hook events shim listens to, with their matchers and timeouts (reference
 * docs/claude-code.md, "Hook events and payloads"). The handler behind each one is `shim hook <Event>`.
 * @module
 */

export type ShimHookSpec = {
  readonly event: string;
  /** Omitted for events without matcher support (a matcher there is silently ignored). */
  readonly matcher?: string;
  /** Seconds. */
  readonly timeout: number;
};

/**
 * Every tool but the one shim's mod reports through: a mod's `$.mcp.call` runs the tool hooks
 * like any tool call, and a process per report is what the mod is there to avoid. Matchers are
 * regular expressions (checked with the real CLI 2.1.330: this one matches Bash, not
 * `mcp__shim__shim_mod_event` nor the plugin's `mcp__plugin_shim_shim__shim_mod_event`).
 */
export const NOT_SHIM_MOD = '^(?!mcp__(plugin_shim_)?shim__shim_mod_event$).*';

export const SHIM_HOOKS: readonly ShimHookSpec[] = [
  { event: 'SessionStart', matcher: 'startup|resume|clear|compact', timeout: 30 },
  { event: 'UserPromptSubmit', timeout: 10 },
  { event: 'PreToolUse', matcher: 'Bash', timeout: 10 },
  { event: 'PostToolUse', matcher: NOT_SHIM_MOD, timeout: 10 },
  { event: 'PostToolUseFailure', matcher: NOT_SHIM_MOD, timeout: 10 },
  { event: 'PreCompact', matcher: 'manual|auto', timeout: 30 },
  { event: 'PostCompact', timeout: 10 },
  { event: 'Stop', timeout: 10 },
  // 2.1.330: a turn ended on an API error; at a usage limit shim writes a handoff.
  { event: 'StopFailure', timeout: 30 },
  // 2.1.330: a model switch can change the window (200k ↔ 1M). Older versions ignore it.
  { event: 'PostModelSwitch', timeout: 30 },
  { event: 'SessionEnd', timeout: 30 },
];
