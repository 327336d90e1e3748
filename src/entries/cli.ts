/**
 * dist/cli.js — the `shim` commands (src/cli/) as an ES module: what bin/shim.cjs runs on a Node
 * that cannot `require()` an ES module (before 20.19; the trackers' clients are ES modules only).
 * Elsewhere the same commands run from dist/commands.cjs (./commands.ts). Every agent reached
 * through its modules, loaded when a command first needs it (agents/dispatch.ts).
 * @module
 */
import { moduleAgents } from '../agents/dispatch.ts';
import { main } from '../cli/main.ts';

await main(moduleAgents());
