/**
 * `shim doctor`'s lines about the agents shim is installed into: each adapter's own checks
 * (AgentAdapter.doctor: its wiring, its CLI's version against the one shim was verified with).
 * An agent shim was never installed into adds no line.
 * @module
 */
import type { DoctorCheck, DoctorOptions } from './doctor-check.ts';

export async function agentChecks(
  options: DoctorOptions,
  now = options.now ?? new Date(),
): Promise<DoctorCheck[]> {
  const out: DoctorCheck[] = [];
  for (const id of options.agents.ids) {
    const adapter = await options.agents.adapter(id);
    out.push(
      ...(await adapter.doctor.checks({
        home: options.home,
        env: options.env,
        cwd: options.cwd,
        shim: options.invocation,
        now,
        ...(options.probeTimeoutMs !== undefined ? { probeTimeoutMs: options.probeTimeoutMs } : {}),
      })),
    );
  }
  return out;
}
