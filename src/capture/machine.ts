/**
 * This machine's name as the team store knows it: SHIM_MACHINE, else the host name. It names who
 * wrote a row, and it is part of the identity of a project without a remote.
 * @module
 */
import { hostname } from 'node:os';

type Env = Readonly<Record<string, string | undefined>>;

export function machineName(env: Env): string {
  return env.SHIM_MACHINE?.trim() || hostname();
}
