/**
 * dist/hook-gemini.cjs — Gemini CLI's hooks (`shim gemini-hook <Event>`), run by Gemini CLI on
 * its events (AfterTool after every tool call). Its own bundle, so Claude Code's per-call bundles
 * carry no Gemini code; it loads dist/hook-heavy.cjs for the events that open the store.
 * @module
 */
export { main } from '../hook/gemini-run.ts';
