/**
 * What a `shim doctor` check reports, and the helpers every check shares.
 * @module
 */
import type { Env } from '../../store/home/home.ts';
import type { ShimInvocation } from '../../agents/claude/settings/shim-command.ts';
import type { AgentCheck } from '../../agents/agent.ts';

/** The same line every agent's adapter reports (AgentAdapter.doctor). */
export type DoctorCheck = AgentCheck;

export type CheckStatus = DoctorCheck['status'];

export type DoctorReport = { healthy: boolean; checks: DoctorCheck[] };

export type DoctorOptions = {
  home: string;
  env: Env;
  cwd: string;
  invocation: ShimInvocation;
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

export function ago(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}
