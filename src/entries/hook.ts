/**
 * dist/hook.cjs — every other hook event (SessionStart, UserPromptSubmit, PreToolUse for Bash,
 * PreCompact, PostCompact, Stop, SessionEnd, PostModelSwitch), and PostToolUse's full look when
 * dist/hook-quick.cjs cannot answer: fold the transcript's new bytes, assess, decide.
 *
 * Runs once per prompt and, through PreToolUse, once per Bash command (where the mod does not
 * answer it). The events that open the store load dist/hook-heavy.cjs. No SQLite here.
 * @module
 */
export { main, mainWithInput } from '../hook/run.ts';
export { runWarmLook } from '../hook/warm-look/serve.ts';
