/**
 * `codex exec` for `shim loop` (docs/agents.md, "Codex CLI"): `--json` events on stdout (read by
 * exec-json.ts), a resumed thread through `codex exec resume <id>`; stdin is closed by the caller.
 * @module
 */
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

export const codexHeadless: HeadlessRun = {
  defaultBin: 'codex',
  binEnv: CODEX_BIN_ENV,
  npmPackage: '@openai/codex',
  installHint: 'install it (npm install -g @openai/codex)',
  args: codexHeadlessArgs,
  reservedFlags: ['exec', 'resume', '--json', '--experimental-json'],
  parser: createExecJsonParser,
};
