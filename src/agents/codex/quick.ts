/**
 * Codex CLI as the answer without a look needs it (agents/agent.ts, `QuickAgent`): small enough
 * for dist/hook-quick.cjs, and the part of its agent value (agent.ts) that says so.
 * @module
 */
import type { QuickAgent } from '../agent.ts';
import { renderCodexHookOutput } from './hook-output.ts';
import { parsePayload } from './hook-payload.ts';
import { codexTail } from './tail-look.ts';

export const codexQuick = {
  id: 'codex',
  name: 'Codex CLI',
  hooks: { parse: parsePayload, render: renderCodexHookOutput },
  capabilities: {
    // Its shell tools (`Bash` in its hooks), the plan, a patch: never answered unlooked, but a
    // shell command that can change no work (no commit, no check run) is (quiet-window.ts).
    milestoneTools: /^(?:Bash|update_plan|apply_patch)$/,
    fileTools: /^apply_patch$/,
  },
  log: { tail: codexTail },
} as const satisfies QuickAgent;
