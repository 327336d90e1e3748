/**
 * dist/cli.js — the `shim` commands (src/cli/): every agent reached through its modules, loaded
 * when a command first needs it (agents/dispatch.ts).
 * @module
 */
import { moduleAgents } from '../agents/dispatch.ts';
import { main } from '../cli/main.ts';

await main(moduleAgents());
