/**
 * dist/shim-mod.js — shim's Claude Code mod (the plugin's hooks module), loaded once per session
 * INSIDE Claude Code: no process per call. It runs in Claude Code's worker on every response and,
 * where it answers them, every tool call: one ES module that imports nothing (Claude Code checks
 * that before it runs it), readable (not minified), pure code only (docs/claude-code.md, "Mods").
 * @module
 */
export { register } from '../mod/register.ts';
