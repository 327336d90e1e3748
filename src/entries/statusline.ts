/**
 * dist/statusline.cjs — runs on EVERY statusline render (after each response, and as Claude Code
 * redraws). Inside the quiet window it draws from the last full look; otherwise it loads
 * dist/statusline-full.cjs to fold the new response. Must stay as small as dist/hook-quick.cjs.
 * @module
 */
import { claudeTail } from '../agents/claude/tail-look.ts';
import { loadBundled, type BundleLoader } from '../app/load-bundle.ts';
import * as statusline from '../statusline/run.ts';
import type * as Full from './statusline-full.ts';

/**
 * Claude Code's statusline (the only agent with one): a look at its transcript's tail here, its
 * full look in its own bundle.
 */
const claudeStatusline: statusline.StatuslineAgent = {
  tail: claudeTail,
  full: async () =>
    (globalThis.__SHIM_BUNDLE__
      ? (loadBundled('statusline-full.cjs') as typeof Full)
      : await import('./statusline-full.ts')
    ).assessForStatusline,
};

export async function main(args: string[], loadBundle?: BundleLoader): Promise<void> {
  await statusline.main(claudeStatusline, args, loadBundle);
}
