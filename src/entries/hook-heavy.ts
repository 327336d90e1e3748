/**
 * dist/hook-heavy.cjs — the hooks' rare half, loaded by dist/hook.cjs only for the events that
 * open the store, build checkpoints or render restores: SessionStart, PreCompact, PostCompact,
 * SessionEnd, a risky command's checkpoint where no note can be written, an L2/L3 checkpoint, a
 * task-list warning; and the jobs hooks start detached (`shim background <job>`: a checkpoint in
 * the background, the checkpoints promised before risky commands), which read each agent's log
 * through that agent's own bundle (dist/agent-<id>.cjs).
 *
 * SQLite lives here. Never the MCP SDK, the web server, a tracker client or the
 * team store's database driver: the tracker sync is queued here and sent by a worker.
 * @module
 */
import { bundledAgents } from '../agents/agent-bundles.ts';
import { loadBundled, type BundleLoader } from '../app/load-bundle.ts';
import * as background from '../hook/background-job.ts';

export * from '../hook/heavy.ts';

export async function runBackgroundJob(args: string[], loadBundle?: BundleLoader): Promise<void> {
  const agents = bundledAgents([], (name) => (loadBundle ?? loadBundled)(name));
  await background.runBackgroundJob(args, agents, loadBundle);
}
