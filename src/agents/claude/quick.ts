/**
 * Claude Code as the answer without a look needs it (agents/agent.ts, `QuickAgent`): small
 * enough for dist/hook-quick.cjs, and the part of its agent value (agent.ts) that says so.
 * @module
 */
import type { QuickAgent } from '../agent.ts';
import { renderHookOutput } from './hook-output.ts';
import { parsePayload } from './hook-payload.ts';
import { claudeTail } from './tail-look.ts';

export const claudeQuick = {
  id: 'claude',
  name: 'Claude Code',
  hooks: { parse: parsePayload, render: renderHookOutput },
  // A command (a commit, a test run), a task-list change, a subagent: never answered unlooked.
  capabilities: {
    milestoneTools: /^(?:Bash|Task|Todo)/,
    // The tools fold.ts counts as writing a file.
    fileTools: /^(?:Edit|Write|MultiEdit|NotebookEdit)$/,
  },
  log: { tail: claudeTail },
} as const satisfies QuickAgent;
