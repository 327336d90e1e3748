/**
 * `claude -p` for `shim loop`: one iteration's argv, stream-json on stdout
 * (docs/claude-code.md, "Headless"), read by stream-json.ts.
 * @module
 */
import { envForNewSession } from './session-env.ts';
import { readRescueChain } from './rescue-chain.ts';
import type { HeadlessRun } from '../agent.ts';
import { parseStreamLine } from './stream-json.ts';

export const CLAUDE_BIN_ENV = 'SHIM_CLAUDE_BIN';

export function claudeHeadlessArgs(request: {
  prompt: string;
  resumeSessionId: string | null;
  forkAt?: string | null;
  model: string | null;
  extra?: readonly string[];
}): string[] {
  return [
    '-p',
    request.prompt,
    '--output-format',
    'stream-json',
    '--verbose',
    ...(request.resumeSessionId ? ['--resume', request.resumeSessionId] : []),
    // 2.1.330: a new session holding the conversation up to that message (`shim rescue`).
    ...(request.resumeSessionId && request.forkAt
      ? ['--resume-session-at', request.forkAt, '--fork-session']
      : []),
    ...(request.model ? ['--model', request.model] : []),
    ...(request.extra ?? []),
  ];
}

export const claudeHeadless: HeadlessRun = {
  defaultBin: 'claude',
  binEnv: CLAUDE_BIN_ENV,
  npmPackage: '@anthropic-ai/claude-code',
  installHint: 'install it (npm install -g @anthropic-ai/claude-code)',
  args: claudeHeadlessArgs,
  // Started from inside a Claude Code session, a `claude` would inherit its markers.
  env: envForNewSession,
  fork: {
    chain: readRescueChain,
    args: (sessionId, at) => ['--resume', sessionId, '--resume-session-at', at, '--fork-session'],
  },
  keepsScheduledJobs: true,
  reservedFlags: [
    '-p',
    '--print',
    '--output-format',
    '--input-format',
    '--resume',
    '-r',
    '--continue',
    '-c',
    '--session-id',
    '--fork-session',
    '--resume-session-at',
  ],
  parser: () => parseStreamLine,
};
