/**
 * dist/statusline.cjs — runs on EVERY statusline render (after each response, and as Claude Code
 * redraws). Inside the quiet window it draws from the last full look; otherwise it loads
 * dist/statusline-full.cjs to fold the new response. Must stay as small as dist/hook-quick.cjs.
 * @module
 */
export { main } from '../statusline/run.ts';
