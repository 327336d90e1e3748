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

export const SHIM_HOOKS: readonly ShimHookSpec[] = [
  { event: 'SessionStart', matcher: 'startup|resume|clear|compact', timeout: 30 },
  { event: 'UserPromptSubmit', timeout: 10 },
  { event: 'PreToolUse', matcher: 'Bash', timeout: 10 },
  { event: 'PostToolUse', matcher: '*', timeout: 10 },
  { event: 'PostToolUseFailure', matcher: '*', timeout: 10 },
  { event: 'PreCompact', matcher: 'manual|auto', timeout: 30 },
  { event: 'PostCompact', timeout: 10 },
  { event: 'Stop', timeout: 10 },
  // 2.1.330: a model switch can change the window (200k ↔ 1M). Older versions ignore it.
  { event: 'PostModelSwitch', timeout: 30 },
  { event: 'SessionEnd', timeout: 30 },
];
