/**
 * What a `shim doctor` check reports, and the helpers every check shares.
 * @module
 */
import type { Env } from '../../store/home/home.ts';
import type { AgentCheck, Agents, ShimLocation } from '../../agents/agent.ts';

/** The same line every agent's adapter reports (AgentAdapter.doctor). */
export type DoctorCheck = AgentCheck;

export type CheckStatus = DoctorCheck['status'];

export type DoctorReport = { healthy: boolean; checks: DoctorCheck[] };

export type DoctorOptions = {
  /** Every agent: each reports its own lines. */
  agents: Agents;
  home: string;
  env: Env;
  cwd: string;
  invocation: ShimLocation;
  probeTimeoutMs?: number;
  now?: Date;
};

export function check(
  id: string,
  title: string,
  status: CheckStatus,
  essential: boolean,
  detail: string,
  fix: string | null = null,
): DoctorCheck {
  return { id, title, status, essential, detail, fix };
}
