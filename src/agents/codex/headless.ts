/**
 * `codex exec` for `shim loop` (docs/agents.md, "Codex CLI"): `--json` events on stdout (read by
 * exec-json.ts), a resumed thread through `codex exec resume <id>`; stdin is closed by the caller.
 * @module
 */
import { withoutVariables } from '../headless-event.ts';
import type { HeadlessRun } from '../agent.ts';
import { createExecJsonParser } from './exec-json.ts';

export const CODEX_BIN_ENV = 'SHIM_CODEX_BIN';

export function codexHeadlessArgs(request: {
  prompt: string;
  resumeSessionId: string | null;
  model: string | null;
  extra?: readonly string[];
}): string[] {
  return [
    'exec',
    ...(request.resumeSessionId ? ['resume', request.resumeSessionId] : []),
    '--json',
    '--skip-git-repo-check',
    ...(request.model ? ['--model', request.model] : []),
    // The user's flags before the prompt: after it, a flag would read as more prompt.
    ...(request.extra ?? []),
    request.prompt,
  ];
}

/**
 * What Codex puts into the environment of the commands it runs (0.169.0's binary): its thread,
 * the call, and the sandbox it ran them in. A `codex` started with them would take the sandbox of
 * the session it was started from (network off) for its own.
 */
export const CODEX_CHILD_VARIABLES = [
  'CODEX_THREAD_ID',
  'CODEX_SESSION_ID',
  'CODEX_TOOL_CALL_ID',
  'CODEX_SANDBOX',
  'CODEX_SANDBOX_NETWORK_DISABLED',
] as const;

export const codexHeadless: HeadlessRun = {
  defaultBin: 'codex',
  binEnv: CODEX_BIN_ENV,
  npmPackage: '@openai/codex',
  installHint: 'install it (npm install -g @openai/codex)',
  args: codexHeadlessArgs,
  keepsScheduledJobs: false,
  reservedFlags: ['exec', 'resume', '--json', '--experimental-json'],
  parser: createExecJsonParser,
  // No way to resume a session forked at an earlier message: the loop restarts fresh instead.
  fork: null,
  env: (parent) => withoutVariables(parent, CODEX_CHILD_VARIABLES),
};
