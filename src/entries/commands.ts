/**
 * dist/commands.cjs — the `shim` commands (src/cli/) as one CommonJS bundle, which bin/shim.cjs
 * loads through V8's code cache as it loads the hooks: Node's ES-module loader (resolving,
 * linking and compiling dist/cli.js and its chunks afresh on every run) was most of what a
 * `shim list` or `shim --version` cost before its work. Every agent is reached through its
 * modules, loaded when a command first needs it (agents/dispatch.ts); the lazily imported
 * modules stay lazy (each one's code runs when first imported). dist/cli.js, the same commands
 * as an ES module, is kept for a Node without `require()` of ES modules (before 20.19): the
 * trackers' clients are ES modules only.
 * @module
 */
import { moduleAgents } from '../agents/dispatch.ts';
import { main as runCommands } from '../cli/main.ts';

/** Runs the command `process.argv` names. */
export function main(): Promise<void> {
  return runCommands(moduleAgents());
}
