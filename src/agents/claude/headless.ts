/**
 * `claude -p` for `shim loop`: one iteration's argv, stream-json on stdout
 * (docs/claude-code.md, "Headless").
 * @module
 */

export const CLAUDE_BIN_ENV = 'SHIM_CLAUDE_BIN';

export function claudeHeadlessArgs(request: {
  prompt: string;
  resumeSessionId: string | null;
  model: string | null;
}): string[] {
  return [
    '-p',
    request.prompt,
    '--output-format',
    'stream-json',
    '--verbose',
    ...(request.resumeSessionId ? ['--resume', request.resumeSessionId] : []),
    ...(request.model ? ['--model', request.model] : []),
  ];
}
