/**
 * `shim status` without the CLI around it: the command people run to look at a session, often
 * in a loop or a watch. bin/shim.cjs runs its plain forms from this small CommonJS bundle with
 * V8's code cache; the full CLI (dist/commands.cjs, 1.2 MB, whose code cache alone is larger than
 * this whole bundle) and commander (which loads child_process, ~3 ms) stay out. Anything else — help, a mistake, an option this does not know —
 * goes to the full CLI, which answers as always. The options mirror session-commands.ts;
 * test/status-fast-path.test.ts holds the two to the same output.
 * @module
 */
import { parseArgs } from 'node:util';
import { runWithErrorBoundary } from './error-boundary.ts';
import { readPlainCommandLine } from './logged-command.ts';
import { runStatus } from './commands/status.ts';
import type { Agents } from '../agents/agent.ts';
import { isAgentId, type AgentId } from '../core/agent-id.ts';

export type StatusArgs = {
  transcript: string | undefined;
  options: { session?: string; json?: boolean; history: boolean; agent?: AgentId };
};

/** The arguments after `status`, or null when they are not one of the plain forms. */
export function parseStatusArgs(args: string[]): StatusArgs | null {
  try {
    const { values, positionals } = parseArgs({
      args,
      strict: true,
      allowPositionals: true,
      options: {
        session: { type: 'string', short: 's' },
        json: { type: 'boolean' },
        'no-history': { type: 'boolean' },
        agent: { type: 'string' },
      },
    });
    if (positionals.length > 1) return null;
    const agent = values.agent;
    // An agent shim does not serve: the full CLI says so.
    if (agent !== undefined && !isAgentId(agent)) return null;
    return {
      transcript: positionals[0],
      options: {
        ...(values.session !== undefined ? { session: values.session } : {}),
        ...(values.json ? { json: true } : {}),
        ...(agent !== undefined ? { agent } : {}),
        history: !values['no-history'],
      },
    };
  } catch {
    return null;
  }
}

/** Runs `shim status <args>`; false when the full CLI should answer instead. */
export async function main(agents: Agents, args: string[]): Promise<boolean> {
  const parsed = parseStatusArgs(args);
  if (!parsed) return false;
  await runWithErrorBoundary(
    () => runStatus(agents, parsed.transcript, parsed.options),
    // process.argv after `shim`: `status` and its arguments.
    (argv) => readPlainCommandLine('status', argv.slice(1)),
  );
  return true;
}
