/**
 * PostCompact's note for the statusline: one more compaction for the session's counter, and the
 * context figure the agent gave the statusline before it, which stays stale until the next
 * response (the line must not show the old fill right after `/compact`). The hooks' quiet
 * window ends: the next look is a full one.
 * @module
 */
import { existsSync } from 'node:fs';
import { loadSessionStateAt } from '../app/session/read-session.ts';
import { loadHookMemory, saveHookMemory } from '../store/cache/hook-memory.ts';
import { readStatuslineFigures } from '../store/cache/statusline-figures.ts';
import type { HookRun } from './hook-run.ts';

export async function markCompaction({ payload, home, now, agent }: HookRun): Promise<void> {
  if (!payload.sessionId) return;
  const memory = loadHookMemory(home, payload.sessionId);
  // The transcript's own count when it can be read (a session resumed after earlier ones).
  const folded =
    payload.transcriptPath && existsSync(payload.transcriptPath)
      ? (await loadSessionStateAt(payload.transcriptPath, home, agent)).state.compactionCount
      : 0;
  const count = Math.max((memory.compactions?.count ?? 0) + 1, folded);
  saveHookMemory(home, payload.sessionId, {
    ...memory,
    quiet: null,
    compactions: {
      count,
      at: now,
      staleTokens: readStatuslineFigures(home, payload.sessionId, now)?.contextTokens ?? null,
    },
  });
}
