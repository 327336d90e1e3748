/**
 * `shim doctor`'s lines about the other agents shim is installed into: each adapter's own checks
 * (AgentAdapter.doctor), then its CLI's version against the one shim was verified with. An agent
 * shim was never installed into adds no line. Claude Code's checks are settings-checks.ts.
 * @module
 */
import { cliVersionCheck } from '../../agents/cli-version-check.ts';
import type { AgentId } from '../../core/agent-id.ts';
import { loadAgentAdapter } from '../session/load-agent.ts';
import type { DoctorCheck, DoctorOptions } from './doctor-check.ts';

const OTHER_AGENTS: readonly AgentId[] = ['codex', 'gemini'];

export async function agentChecks(options: DoctorOptions): Promise<DoctorCheck[]> {
  const out: DoctorCheck[] = [];
  for (const id of OTHER_AGENTS) {
    const adapter = await loadAgentAdapter(id);
    const checks = adapter.doctor.checks({
      home: options.home,
      env: options.env,
      cwd: options.cwd,
      shim: options.invocation,
    });
    if (checks.length === 0) continue;
    out.push(...checks, cliVersionCheck(adapter, options.env));
  }
  return out;
}
