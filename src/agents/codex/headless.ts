/**
 * `codex exec` for `shim loop` (docs/agents.md, "Codex CLI"): `--json` events on stdout, a resumed
 * thread through `codex exec resume <id>`; stdin is closed by the caller.
 * @module
 */
export const CODEX_BIN_ENV = 'SHIM_CODEX_BIN';

export function codexHeadlessArgs(request: {
  prompt: string;
  resumeSessionId: string | null;
  model: string | null;
}): string[] {
  return [
    'exec',
    ...(request.resumeSessionId ? ['resume', request.resumeSessionId] : []),
    '--json',
    '--skip-git-repo-check',
    ...(request.model ? ['--model', request.model] : []),
    request.prompt,
  ];
}
