/**
 * dist/hook-quick.cjs — runs after a tool call Claude Code makes (PostToolUse,
 * PostToolUseFailure) when no warm process answered it (dist/hook-ask.cjs asks first), unless
 * shim's mod answers those events itself.
 *
 * Answers without looking at the session: the mod is watching (count the call, hand over its
 * note), or the call falls in the quiet window the last full look granted. Anything else goes to
 * dist/hook.cjs with the input already read. Must stay small: no SQLite, no MCP SDK, no
 * web server, no tracker client, no database driver (src/entries/bundles.test.ts holds it).
 * @module
 */
export { mainWithInput } from '../hook/quick-run.ts';
