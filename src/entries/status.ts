/**
 * dist/status.cjs — `shim status` in its plain forms (people run it in a loop or a watch):
 * no commander, no other command. Help and mistakes go to the full CLI (dist/commands.cjs). Each agent
 * whose sessions it looks at comes from its own bundle (dist/agent-<id>.cjs). Neither carries the
 * secret scanner: dist/redact.cjs, required the first time a look redacts (./redactor-on-demand.ts).
 * @module
 */
import { bundledAgents } from '../agents/agent-bundles.ts';
import { loadBundled, type BundleLoader } from '../app/load-bundle.ts';
import * as status from '../cli/status-main.ts';

/** Runs `shim status <args>`; false when the full CLI should answer instead. */
export async function main(args: string[], loadBundle?: BundleLoader): Promise<boolean> {
  return status.main(bundledAgents([], loadBundle ?? loadBundled), args);
}
